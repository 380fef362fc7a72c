/**
 * core/v1 Pod: a group of containers scheduled together on one node. Declared once here (schema,
 * defaults, discovery facts); validation lives in pod-validation.ts and its helpers.
 * Discovery as upstream: short name `po`, category `all`; status subresource.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { podSpec } from './pod-spec.js';
import { podStatus } from './pod-status.js';
import { validatePod, validatePodStatusUpdate, validatePodUpdate } from './pod-validation.js';
import { byPath, fieldValue } from '../../field-selectors.js';
import { podPrinter } from '../../printers/pod.js';

export const pod = defineKind({
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  singular: 'pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'A group of containers that run together on one node, with shared storage and network.',
  fieldSelectors: {
    ...byPath('spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'),
    'spec.hostNetwork': (o) => String(fieldValue(o, 'spec.hostNetwork') === 'true'),
  },
  watchIndexField: 'spec.nodeName',
  printerColumns: podPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, podSpec, { omitEmpty: false, description: 'The desired behaviour of the pod.' }),
    status: field(3, podStatus, { omitEmpty: false, description: 'The most recently observed status of the pod.' }),
  },
  validate: validatePod,
  validateUpdate: validatePodUpdate,
  validateStatusUpdate: validatePodStatusUpdate,
});
