/**
 * The shared protobufjs Root and our declarations of the upstream messages that are not kinds
 * (proto2, upstream field numbers): the envelope (`runtime.Unknown`, `runtime.TypeMeta`), the
 * watch event, and the messages behind the scalar kinds of the type model (Time, MicroTime,
 * Duration, Quantity, IntOrString, RawExtension). Spec 000 § Protobuf envelope.
 *
 * Struct messages derived from kind schemas are added to the same Root (descriptors.ts).
 */
import protobuf from 'protobufjs';

/** The Root holding every message type of the serializer (flat names). */
export const root = new protobuf.Root();

/** One field of a declared message: name, number, protobufjs type. */
type FieldDecl = [name: string, id: number, type: string];

function declare(name: string, fields: FieldDecl[]): protobuf.Type {
  const t = new protobuf.Type(name);
  for (const [fieldName, id, type] of fields) t.add(new protobuf.Field(fieldName, id, type));
  root.add(t);
  return t;
}

/** `k8s.io.apimachinery.pkg.runtime.TypeMeta`: apiVersion=1, kind=2 (not meta/v1's TypeMeta). */
export const TypeMeta = declare('runtime_TypeMeta', [
  ['apiVersion', 1, 'string'],
  ['kind', 2, 'string'],
]);

/** `runtime.Unknown`, the envelope after the magic: typeMeta=1, raw=2, contentEncoding=3, contentType=4. */
export const Unknown = declare('runtime_Unknown', [
  ['typeMeta', 1, 'runtime_TypeMeta'],
  ['raw', 2, 'bytes'],
  ['contentEncoding', 3, 'string'],
  ['contentType', 4, 'string'],
]);

/** `runtime.RawExtension`: raw=1 (the JSON text of the value). Also the shape of meta/v1 `FieldsV1`. */
export const RawExtension = declare('runtime_RawExtension', [['raw', 1, 'bytes']]);

/** `meta.v1.Time`: seconds=1 int64, nanos=2 int32 (the wire shape of Timestamp). */
export const Time = declare('meta_v1_Time', [
  ['seconds', 1, 'int64'],
  ['nanos', 2, 'int32'],
]);

/** `meta.v1.MicroTime`: the same shape as Time, read with microsecond precision. */
export const MicroTime = declare('meta_v1_MicroTime', [
  ['seconds', 1, 'int64'],
  ['nanos', 2, 'int32'],
]);

/** `meta.v1.Duration`: duration=1 int64 nanoseconds. */
export const Duration = declare('meta_v1_Duration', [['duration', 1, 'int64']]);

/** `api.resource.Quantity`: string=1 (the canonical text). */
export const Quantity = declare('resource_Quantity', [['string', 1, 'string']]);

/** `util.intstr.IntOrString`: type=1 int64 (0 int, 1 string), intVal=2 int32, strVal=3 string. */
export const IntOrString = declare('intstr_IntOrString', [
  ['type', 1, 'int64'],
  ['intVal', 2, 'int32'],
  ['strVal', 3, 'string'],
]);

/** `meta.v1.WatchEvent`: type=1 string, object=2 RawExtension (holding an enveloped object). */
export const WatchEvent = declare('meta_v1_WatchEvent', [
  ['type', 1, 'string'],
  ['object', 2, 'runtime_RawExtension'],
]);

root.resolveAll();
