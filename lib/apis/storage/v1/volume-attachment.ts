/**
 * storage/v1 VolumeAttachment: the intent to attach a volume to a node, and the attacher's report
 * (upstream v1.30 field structure and protobuf numbers; `errorCode` of VolumeError came after
 * 1.30). Cluster-scoped, with a status subresource; the spec is immutable.
 */
import { boolean, field, mapOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { volumeAttachmentPrinter } from '../../printers/storage.js';
import { STORAGE, STORAGE_GROUP } from './group.js';
import { persistentVolumeSpec } from '../../core/v1/persistent-volume.js';
import { validateVolumeAttachment, validateVolumeAttachmentStatusUpdate, validateVolumeAttachmentUpdate } from './volume-attachment-validation.js';

/** The volume to attach: exactly one of a PersistentVolume's name or an inline volume spec. */
export const volumeAttachmentSource = struct(`${STORAGE}.VolumeAttachmentSource`, {
  persistentVolumeName: field(1, string, { pointer: true, description: 'Name of the PersistentVolume to attach.' }),
  inlineVolumeSpec: field(2, persistentVolumeSpec, { description: "A pod's inline volume translated to a PersistentVolume spec (CSI migration)." }),
});

/** What to attach where, and which driver attaches it. */
export const volumeAttachmentSpec = struct(`${STORAGE}.VolumeAttachmentSpec`, {
  attacher: field(1, string, { required: true, omitEmpty: false, description: 'The volume driver that must handle the request.' }),
  source: field(2, volumeAttachmentSource, { required: true, omitEmpty: false }),
  nodeName: field(3, string, { required: true, omitEmpty: false, description: 'The node to attach the volume to.' }),
});

/** An error of an attach or detach operation. */
export const volumeError = struct(`${STORAGE}.VolumeError`, {
  time: field(1, time),
  message: field(2, string),
});

/** The attacher's report: attached, metadata for later mount calls, last errors. */
export const volumeAttachmentStatus = struct(`${STORAGE}.VolumeAttachmentStatus`, {
  attached: field(1, boolean, { required: true, omitEmpty: false }),
  attachmentMetadata: field(2, mapOf(string)),
  attachError: field(3, volumeError),
  detachError: field(4, volumeError),
});

/** The VolumeAttachment kind (status subresource). */
export const volumeAttachment = defineKind({
  group: STORAGE_GROUP,
  version: 'v1',
  kind: 'VolumeAttachment',
  resource: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  statusSubresource: true,
  description: 'The intent to attach or detach a volume to or from a node.',
  printerColumns: volumeAttachmentPrinter,
  // Upstream GetResetFields of the status strategy: metadata and spec.
  resetFields: { status: [['metadata'], ['spec']] },
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, volumeAttachmentSpec, { required: true, omitEmpty: false }),
    status: field(3, volumeAttachmentStatus, { omitEmpty: false }),
  },
  validate: validateVolumeAttachment,
  validateUpdate: validateVolumeAttachmentUpdate,
  validateStatusUpdate: validateVolumeAttachmentStatusUpdate,
});
