/**
 * CustomResourceDefinition `apiextensions.<vendor>/v1beta1` → `v1` (spec 001 § Removed API
 * versions, 1.22 row; upstream `apiextensions-apiserver/pkg/apis/apiextensions/v1beta1`
 * defaults and the v1 conversion through the internal version):
 *
 * - `spec.scope` gets v1beta1's default `Namespaced`; `spec.versions` defaults to the one
 *   `spec.version` (served and storage); `spec.version` is dropped.
 * - The top-level `validation`, `subresources` and `additionalPrinterColumns` are copied into
 *   every version (a version's own value wins) and dropped; printer columns' `JSONPath` is
 *   renamed `jsonPath`.
 * - `conversion.webhookClientConfig` and `conversion.conversionReviewVersions` move under
 *   `conversion.webhook` as `clientConfig` and `conversionReviewVersions` (default `[v1beta1]`).
 * - `preserveUnknownFields` (v1beta1 default true, disallowed true in v1) is dropped; where it
 *   was true each version's schema keeps unknown fields at its root through the
 *   `x-<vendor>-preserve-unknown-fields` extension. A version without a schema gets
 *   `{type: object}` with that extension (v1 requires a schema).
 */
import type { Obj } from '../define.js';
import { schemaExtension, vendorGroup } from '../vendor.js';
import { type MigrationRow, isObj, objects, rename, setDefault } from './types.js';

const APIEXTENSIONS_GROUP = vendorGroup('apiextensions');
const PRESERVE_UNKNOWN = schemaExtension('preserve-unknown-fields');

/** A printer column with `jsonPath` (a new object). */
function columnToV1(c: Obj): Obj {
  const out = { ...c };
  rename(out, 'JSONPath', 'jsonPath');
  return out;
}

/** The `openAPIV3Schema` of a v1beta1 validation object, or undefined. */
function schemaOf(validation: unknown): Obj | undefined {
  return isObj(validation) && isObj(validation.openAPIV3Schema) ? validation.openAPIV3Schema : undefined;
}

/** Rewrites a v1beta1 CustomResourceDefinition into v1 (see the file comment). */
export function customResourceDefinitionToV1(obj: Obj): Obj {
  const spec = obj.spec;
  if (!isObj(spec)) return obj;
  setDefault(spec, 'scope', 'Namespaced');
  const preserveUnknown = spec.preserveUnknownFields !== false;
  delete spec.preserveUnknownFields;
  if (!Array.isArray(spec.versions) || spec.versions.length === 0) {
    spec.versions = typeof spec.version === 'string' ? [{ name: spec.version, served: true, storage: true }] : [];
  }
  const topSchema = schemaOf(spec.validation);
  const topSubresources = spec.subresources;
  const topColumns = spec.additionalPrinterColumns;
  for (const k of ['version', 'validation', 'subresources', 'additionalPrinterColumns']) delete spec[k];
  for (const v of objects(spec.versions)) {
    const own = schemaOf(v.schema);
    const schema: Obj = own ? { ...own } : topSchema ? structuredClone(topSchema) : { type: 'object' };
    if (preserveUnknown || (!own && !topSchema)) setDefault(schema, PRESERVE_UNKNOWN, true);
    v.schema = { openAPIV3Schema: schema };
    if (v.subresources === undefined && topSubresources !== undefined) v.subresources = structuredClone(topSubresources);
    const columns = Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : topColumns;
    if (Array.isArray(columns)) v.additionalPrinterColumns = columns.filter(isObj).map(columnToV1);
  }
  const conversion = spec.conversion;
  if (isObj(conversion)) {
    const { webhookClientConfig, conversionReviewVersions, ...rest } = conversion;
    if (webhookClientConfig !== undefined || conversion.strategy === 'Webhook') {
      rest.webhook = {
        ...(webhookClientConfig !== undefined ? { clientConfig: webhookClientConfig } : {}),
        conversionReviewVersions: Array.isArray(conversionReviewVersions) && conversionReviewVersions.length > 0 ? conversionReviewVersions : ['v1beta1'],
      };
    }
    spec.conversion = rest;
  }
  return obj;
}

/** The CustomResourceDefinition row. */
export const apiextensionsRows: readonly MigrationRow[] = [
  {
    from: { group: APIEXTENSIONS_GROUP, version: 'v1beta1', kind: 'CustomResourceDefinition' },
    to: { group: APIEXTENSIONS_GROUP, version: 'v1', kind: 'CustomResourceDefinition' },
    removedIn: '1.22',
    convert: customResourceDefinitionToV1,
  },
];
