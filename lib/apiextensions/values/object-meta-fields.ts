/**
 * Dropping the fields of a custom resource's `metadata` that ObjectMeta does not know, as
 * upstream's strict decoding of ObjectMeta does when a custom resource is read from a request
 * (apiextensions schema/objectmeta GetObjectMetaWithOptions): unknown keys of ObjectMeta and of
 * its ownerReferences and managedFields entries are removed and reported in document order.
 */

const OBJECT_META_FIELDS = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation',
  'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations',
  'ownerReferences', 'finalizers', 'managedFields',
]);
const OWNER_REFERENCE_FIELDS = new Set(['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion']);
const MANAGED_FIELDS_ENTRY_FIELDS = new Set(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function dropUnknown(obj: Record<string, unknown>, known: ReadonlySet<string>, path: string, out: string[]): void {
  for (const k of Object.keys(obj)) {
    if (!known.has(k)) {
      out.push(`${path}.${k}`);
      delete obj[k];
    }
  }
}

function dropInEntries(list: unknown, known: ReadonlySet<string>, path: string, out: string[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((item, i) => {
    if (isObject(item)) dropUnknown(item, known, `${path}[${i}]`, out);
  });
}

/**
 * Removes unknown ObjectMeta fields from `obj.metadata` in place and returns their paths, each
 * prefixed with `prefix` (`''` at a resource root, `spec.template.` inside an embedded
 * resource): `metadata.foo`, `metadata.ownerReferences[0].bar`. A metadata that is not an
 * object is left alone.
 */
export function dropUnknownMetadataFields(obj: Record<string, unknown>, prefix: string): string[] {
  const meta = obj.metadata;
  if (!isObject(meta)) return [];
  const out: string[] = [];
  const base = `${prefix}metadata`;
  for (const k of Object.keys(meta)) {
    if (!OBJECT_META_FIELDS.has(k)) {
      out.push(`${base}.${k}`);
      delete meta[k];
    } else if (k === 'ownerReferences') {
      dropInEntries(meta[k], OWNER_REFERENCE_FIELDS, `${base}.${k}`, out);
    } else if (k === 'managedFields') {
      dropInEntries(meta[k], MANAGED_FIELDS_ENTRY_FIELDS, `${base}.${k}`, out);
    }
  }
  return out;
}
