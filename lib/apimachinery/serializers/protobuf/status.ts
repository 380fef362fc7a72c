/**
 * The `v1` `Status` kind as a struct schema (our declaration of upstream meta/v1 Status,
 * StatusDetails, StatusCause and ListMeta with their protobuf numbers), so error responses
 * travel in the protobuf envelope like any object (spec 000 § Protobuf envelope; spec 001
 * § Errors; ARCHITECTURE.md § Errors).
 */
import { field, int32, int64, listOf, string, struct } from '../../schema/builder.js';
import type { StructSchema } from '../../schema/types.js';
import type { ProtobufKind } from './envelope.js';

const META = 'apimachinery.pkg.apis.meta.v1';

/** meta/v1 ListMeta: selfLink=1, resourceVersion=2, continue=3, remainingItemCount=4. */
const listMeta = struct(`${META}.ListMeta`, {
  selfLink: field(1, string),
  resourceVersion: field(2, string),
  continue: field(3, string),
  remainingItemCount: field(4, int64),
});

/** meta/v1 StatusCause: reason=1, message=2, field=3. */
const statusCause = struct(`${META}.StatusCause`, {
  reason: field(1, string),
  message: field(2, string),
  field: field(3, string),
});

/** meta/v1 StatusDetails: name=1, group=2, kind=3, uid=6, causes=4, retryAfterSeconds=5. */
const statusDetails = struct(`${META}.StatusDetails`, {
  name: field(1, string),
  group: field(2, string),
  kind: field(3, string),
  uid: field(6, string),
  causes: field(4, listOf(statusCause)),
  retryAfterSeconds: field(5, int32),
});

/** meta/v1 Status: metadata=1 (always written), status=2, message=3, reason=4, details=5, code=6. */
export const statusSchema = struct(`${META}.Status`, {
  apiVersion: field(0, string),
  kind: field(0, string),
  metadata: field(1, listMeta, { omitEmpty: false }),
  status: field(2, string),
  message: field(3, string),
  reason: field(4, string),
  details: field(5, statusDetails),
  code: field(6, int32),
});

/** The envelope facts of a Status: `encodeProtobuf(status, STATUS_KIND)`. */
export const STATUS_KIND: ProtobufKind = { apiVersion: 'v1', kind: 'Status', schema: statusSchema };

/** The schemas this serializer knows without a resolver: `v1` `Status`. */
export function builtinSchema(apiVersion: string, kind: string): StructSchema | undefined {
  return apiVersion === STATUS_KIND.apiVersion && kind === STATUS_KIND.kind ? statusSchema : undefined;
}
