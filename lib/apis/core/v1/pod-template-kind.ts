/**
 * core/v1 PodTemplate: a stored pod template other objects may refer to. Upstream v1.30 field
 * structure and protobuf numbers; the template is the PodTemplateSpec of pod-template.ts, with
 * the pod defaults. No short name, no category, no status; generation starts at 1 and grows
 * with each template change (upstream podtemplate strategy).
 */
import { type FieldError, FieldPath } from '../../../apimachinery/field-errors.js';
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind, type Obj } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { podTemplatePrinter } from '../../printers/storage-core.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';
import { podTemplateSpec } from './pod-template.js';

/** Create and update: the template is a valid pod template (upstream `ValidatePodTemplate`). */
export function validatePodTemplate(pt: Obj): FieldError[] {
  return validatePodTemplateSpec(pt.template, FieldPath.of('template'));
}

/** The PodTemplate kind. */
export const podTemplate = defineKind({
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  resource: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  description: 'A template for creating copies of a predefined pod.',
  printerColumns: podTemplatePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    template: field(2, podTemplateSpec, { omitEmpty: false, description: 'The pods created from this template.' }),
  },
  validate: validatePodTemplate,
});
