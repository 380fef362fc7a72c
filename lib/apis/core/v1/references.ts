/**
 * core/v1 reference types shared by several kinds (Pod, Service, Event, Endpoints,
 * ServiceAccount…): ObjectReference, LocalObjectReference, TypedLocalObjectReference,
 * TypedObjectReference, KeyToPath, and `inlined` for Go's inline embedding of such structs.
 * Protobuf numbers and markers follow the upstream `core/v1/generated.proto` of v1.30.
 */
import { field, int32, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Field } from '../../../apimachinery/schema/types.js';

/** Definition id prefix of core/v1 structs. */
export const CORE = 'api.core.v1';

/** A reference to any object, possibly a part of it (`fieldPath`); atomic. */
export const objectReference = struct(
  `${CORE}.ObjectReference`,
  {
    kind: field(1, string),
    namespace: field(2, string),
    name: field(3, string),
    uid: field(4, string),
    apiVersion: field(5, string),
    resourceVersion: field(6, string),
    fieldPath: field(7, string),
  },
  { mapType: 'atomic', description: 'A reference to an object, possibly to a part of it.' },
);

const localObjectReferenceFields = { name: field(1, string, { description: 'Name of the referent in the same namespace.' }) };

/** A reference by name to an object in the same namespace; atomic. */
export const localObjectReference = struct(`${CORE}.LocalObjectReference`, localObjectReferenceFields, {
  mapType: 'atomic',
  description: 'A reference by name to an object in the same namespace.',
});

/** A typed reference (apiGroup, kind, name) to an object in the same namespace; atomic. */
export const typedLocalObjectReference = struct(
  `${CORE}.TypedLocalObjectReference`,
  {
    apiGroup: field(1, string, { omitEmpty: false, pointer: true }),
    kind: field(2, string, { required: true, omitEmpty: false }),
    name: field(3, string, { required: true, omitEmpty: false }),
  },
  { mapType: 'atomic', description: 'A typed reference to an object in the same namespace.' },
);

/** A typed reference that may cross namespaces (PVC `dataSourceRef`). */
export const typedObjectReference = struct(
  `${CORE}.TypedObjectReference`,
  {
    apiGroup: field(1, string, { omitEmpty: false, pointer: true }),
    kind: field(2, string, { required: true, omitEmpty: false }),
    name: field(3, string, { required: true, omitEmpty: false }),
    namespace: field(4, string, { pointer: true }),
  },
  { description: 'A typed reference to an object, possibly in another namespace.' },
);

/** Maps a ConfigMap or Secret key to a file path in a volume. */
export const keyToPath = struct(
  `${CORE}.KeyToPath`,
  {
    key: field(1, string, { required: true, omitEmpty: false }),
    path: field(2, string, { required: true, omitEmpty: false }),
    mode: field(3, int32),
  },
  { description: 'Projects one key to a relative file path.' },
);

/**
 * Marks `fields` as Go-inline members of the embedded struct `id` carried at protobuf field
 * `proto` (see Field.embedded): `...inlined(1, localObjectReference)`.
 */
export function inlined(proto: number, embedded: { id: string; fields: Record<string, Field> | (() => Record<string, Field>) }): Record<string, Field> {
  const fields = typeof embedded.fields === 'function' ? embedded.fields() : embedded.fields;
  const out: Record<string, Field> = {};
  for (const [k, f] of Object.entries(fields)) out[k] = { ...f, embedded: { proto, id: embedded.id } };
  return out;
}
