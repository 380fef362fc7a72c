/**
 * batch/v1 Job: runs pods to successful completion. Declared once here (structures in
 * job-types.ts, defaults in job-defaults.ts, validation in job-validation.ts, the generated
 * selector in job-selector.ts). Discovery as upstream: no short name, category `all`.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { jobSpec, jobStatus } from './job-types.js';
import { validateJob, validateJobStatusUpdate, validateJobUpdate } from './job-validation.js';
import { fieldValue } from '../../field-selectors.js';
import { jobPrinter } from '../../printers/workloads.js';

/** The batch/v1 Job kind (category `all`, with a status subresource). */
export const job = defineKind({
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  resource: 'jobs',
  singular: 'job',
  namespaced: true,
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'A task that runs pods until a number of them complete successfully.',
  fieldSelectors: { 'status.successful': (o) => fieldValue(o, 'status.succeeded') || '0' },
  printerColumns: jobPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, jobSpec, { omitEmpty: false }),
    status: field(3, jobStatus, { omitEmpty: false }),
  },
  validate: validateJob,
  validateUpdate: validateJobUpdate,
  validateStatusUpdate: validateJobStatusUpdate,
});
