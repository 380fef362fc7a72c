/**
 * VolumeAttachment validation with the upstream paths and messages (upstream storage validation
 * `ValidateVolumeAttachment`, `ValidateVolumeAttachmentV1` and `ValidateVolumeAttachmentUpdate`
 * of v1.30). ObjectMeta and the required `attacher`, `source` and `nodeName` are checked by the
 * caller (declarative walk), which reports an absent one as `Required value`.
 */
import { type FieldError, FieldPath, forbidden, invalid, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { obj, str, strMap, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import { validateCSIDriverName } from './group.js';
import { validateInlineVolumeSpec } from './inline-volume-validation.js';

/** Largest total size of `status.attachmentMetadata` (keys plus values), in bytes. */
export const MAX_ATTACHMENT_METADATA_SIZE = 256 * 1024;
/** Longest `message` of an attach or detach error. */
export const MAX_VOLUME_ERROR_MESSAGE = 1024;

const EXACTLY_ONE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
const spec = FieldPath.of('spec');
const status = FieldPath.of('status');

/** `spec.source`: exactly one of the PV name (non-empty) and the inline spec (a valid inline CSI volume). */
function validateSource(source: Obj): FieldError[] {
  const path = spec.child('source');
  const hasName = typeof source.persistentVolumeName === 'string';
  const inline = obj(source.inlineVolumeSpec);
  if (!hasName && !inline) return [required(path, EXACTLY_ONE)];
  if (hasName && inline) return [forbidden(path, EXACTLY_ONE)];
  if (hasName) return source.persistentVolumeName === '' ? [required(path.child('persistentVolumeName'), 'must specify non empty persistentVolumeName')] : [];
  return validateInlineVolumeSpec(inline!, path.child('inlineVolumeSpec'));
}

/** `status`: the attachment metadata is at most 256 KiB, error messages at most 1024 characters. */
function validateStatus(st: Obj): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(strMap(st.attachmentMetadata))) size += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (size > MAX_ATTACHMENT_METADATA_SIZE) errs.push(tooLong(status.child('attachmentMetadata'), '', MAX_ATTACHMENT_METADATA_SIZE));
  for (const key of ['attachError', 'detachError']) {
    // Upstream reports the metadata limit, not the message limit, in this error.
    if (str(obj(st[key])?.message).length > MAX_VOLUME_ERROR_MESSAGE) errs.push(tooLong(status.child(key, 'message'), '', MAX_ATTACHMENT_METADATA_SIZE));
  }
  return errs;
}

/**
 * Create and update: the source, the node name (a DNS subdomain), the status; then the stricter
 * v1 checks: the attacher is a CSI driver name and the PV name a DNS subdomain.
 */
export function validateVolumeAttachment(va: Obj): FieldError[] {
  const s = obj(va.spec) ?? {};
  const errs: FieldError[] = [];
  const source = obj(s.source);
  if (source) errs.push(...validateSource(source));
  const nodeName = str(s.nodeName);
  if (nodeName !== '') errs.push(...isDNS1123Subdomain(nodeName).map((m) => invalid(spec.child('nodeName'), nodeName, m)));
  errs.push(...validateStatus(obj(va.status) ?? {}));
  errs.push(...validateCSIDriverName(str(s.attacher), spec.child('attacher')));
  const pvName = source?.persistentVolumeName;
  if (typeof pvName === 'string') errs.push(...isDNS1123Subdomain(pvName).map((m) => invalid(spec.child('source', 'persistentVolumeName'), pvName, m)));
  return errs;
}

/** Update: the spec is immutable. */
export function validateVolumeAttachmentUpdate(va: Obj, old: Obj): FieldError[] {
  return semanticEqual(va.spec, old.spec) ? [] : [invalid(spec, va.spec ?? null, 'field is immutable')];
}

/** A status write: the status rules of validateVolumeAttachment. */
export function validateVolumeAttachmentStatusUpdate(va: Obj): FieldError[] {
  return validateStatus(obj(va.status) ?? {});
}
