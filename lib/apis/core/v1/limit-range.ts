/**
 * core/v1 LimitRange: per-object minimums, maximums, defaults and limit/request ratios for the
 * pods, containers and claims of a namespace. Upstream v1.30 field structure and protobuf numbers;
 * Container items defaulted as upstream (max → default → defaultRequest, min → defaultRequest);
 * no status.
 * Short name `limits`, no category, no field selectors beyond name and namespace; upstream has no
 * table printer for it (the default Name / Created At table).
 */
import { field, listOf, mapOf, quantity, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { validateLimitRange } from './limit-range-validation.js';
import { CORE } from './references.js';

type Quantities = Record<string, unknown>;

/**
 * Upstream `SetDefaults_LimitRangeItem`: for a `Container` item, a resource with a `max` but no
 * `default` gets the max as its default; one with a `default` but no `defaultRequest` gets the
 * default as its request; one with a `min` and still no request gets the min. Empty maps stay out.
 */
function defaultContainerItem(item: Quantities): void {
  if (item.type !== 'Container') return;
  const def: Quantities = { ...((item.default as Quantities | undefined) ?? {}) };
  const request: Quantities = { ...((item.defaultRequest as Quantities | undefined) ?? {}) };
  for (const [k, v] of Object.entries((item.max as Quantities | undefined) ?? {})) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in request)) request[k] = v;
  for (const [k, v] of Object.entries((item.min as Quantities | undefined) ?? {})) if (!(k in request)) request[k] = v;
  if (Object.keys(def).length > 0) item.default = def;
  if (Object.keys(request).length > 0) item.defaultRequest = request;
}

/** The limits of one kind of object (`Pod`, `Container`, `PersistentVolumeClaim`…). */
export const limitRangeItem = struct(`${CORE}.LimitRangeItem`, {
  type: field(1, string, { omitEmpty: false, description: 'Pod, Container, PersistentVolumeClaim or a qualified name.' }),
  max: field(2, mapOf(quantity)),
  min: field(3, mapOf(quantity)),
  default: field(4, mapOf(quantity), { description: 'Default limits of resources whose limit is omitted.' }),
  defaultRequest: field(5, mapOf(quantity), { description: 'Default requests of resources whose request is omitted.' }),
  maxLimitRequestRatio: field(6, mapOf(quantity)),
}, { defaulter: defaultContainerItem });

/** The enforced limits. */
export const limitRangeSpec = struct(`${CORE}.LimitRangeSpec`, {
  limits: field(1, listOf(limitRangeItem, { listType: 'atomic' }), { omitEmpty: false }),
});

/** The LimitRange kind (`limits`). */
export const limitRange = defineKind({
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  resource: 'limitranges',
  singular: 'limitrange',
  namespaced: true,
  shortNames: ['limits'],
  description: 'Resource usage limits for each kind of object in a namespace.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, limitRangeSpec, { omitEmpty: false }),
  },
  validate: validateLimitRange,
});
