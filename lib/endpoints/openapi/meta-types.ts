/**
 * The meta types the OpenAPI operations refer to beyond the kinds themselves: Status (error and
 * delete answers), DeleteOptions (delete bodies), WatchEvent (watch answers) and Patch (patch
 * bodies), declared with the structural type model like every kind (protobuf numbers as upstream
 * `generated.proto`) so the same definition builder renders them.
 */
import { boolean, field, int32, int64, listOf, raw, string, struct } from '../../apimachinery/schema/builder.js';
import { listMeta } from '../../apis/meta/v1/types.js';

const META = 'apimachinery.pkg.apis.meta.v1';

const typeMeta = {
  apiVersion: field(0, string, { description: 'The versioned schema of this representation of an object.' }),
  kind: field(0, string, { description: 'The REST resource this object represents.' }),
};

/** One cause of a Status failure. */
export const statusCause = struct(`${META}.StatusCause`, {
  reason: field(1, string, { description: 'Machine-readable cause of the error (the `type` of a field error).' }),
  message: field(2, string, { description: 'Human-readable description of the cause.' }),
  field: field(3, string, { description: 'The field of the resource that caused the error, as a field path (`spec.containers[0].name`).' }),
}, { description: 'More information about one cause of a failure.' });

/** Details of a Status. */
export const statusDetails = struct(`${META}.StatusDetails`, {
  name: field(1, string, { description: 'Name attribute of the resource concerned.' }),
  group: field(2, string, { description: 'Group attribute of the resource concerned.' }),
  kind: field(3, string, { description: 'Kind attribute of the resource concerned.' }),
  uid: field(6, string, { description: 'UID of the resource concerned, when there is one.' }),
  causes: field(4, listOf(statusCause, { listType: 'atomic' }), { description: 'The causes of the failure, one per field error when the reason is Invalid.' }),
  retryAfterSeconds: field(5, int32, { description: 'Seconds the client should wait before retrying, when the failure is temporary.' }),
}, { description: 'Additional facts of a Status, by reason.' });

/** The result of an operation that returns no object, and every error. */
export const status = struct(`${META}.Status`, {
  ...typeMeta,
  metadata: field(1, listMeta, { description: 'Standard list metadata.' }),
  status: field(2, string, { description: '`Success` or `Failure`.' }),
  message: field(3, string, { description: 'Human-readable description of the status.' }),
  reason: field(4, string, { description: 'Machine-readable reason of a failure (`NotFound`, `Conflict`, `Invalid`…).' }),
  details: field(5, statusDetails, { description: 'Extended data by reason.' }),
  code: field(6, int32, { description: 'HTTP status code of this status.' }),
}, { description: 'The result of a call that returns no object, and the body of every error.' });

/** Preconditions of a delete. */
export const preconditions = struct(`${META}.Preconditions`, {
  uid: field(1, string, { description: 'The object is deleted only if its UID is this one.' }),
  resourceVersion: field(2, string, { description: 'The object is deleted only if its resourceVersion is this one.' }),
}, { description: 'Conditions that must hold before a delete is carried out; 409 Conflict otherwise.' });

/** The body of a delete. */
export const deleteOptions = struct(`${META}.DeleteOptions`, {
  ...typeMeta,
  gracePeriodSeconds: field(1, int64, { description: 'Seconds before the object is deleted; zero deletes at once; unset uses the kind default.' }),
  preconditions: field(2, preconditions, { description: 'Must hold before the delete is carried out.' }),
  orphanDependents: field(3, boolean, { description: 'Deprecated: use propagationPolicy. Whether dependents are orphaned.' }),
  propagationPolicy: field(4, string, { description: 'Garbage collection of dependents: `Orphan`, `Background` or `Foreground`.' }),
  dryRun: field(5, listOf(string, { listType: 'atomic' }), { description: 'When present, nothing is persisted. Valid values: `All`.' }),
}, { description: 'Options of a delete.' });

/** One event of a watch stream. */
export const watchEvent = struct(`${META}.WatchEvent`, {
  type: field(1, string, { required: true, omitEmpty: false, description: '`ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR`.' }),
  object: field(2, raw, { required: true, omitEmpty: false, description: 'The object (ADDED, MODIFIED, DELETED: its last state; BOOKMARK: only its resourceVersion; ERROR: a Status).' }),
}, { description: 'An event of a watch stream.' });

/** The body of a patch request, in the patch format its Content-Type names. */
export const patch = struct(`${META}.Patch`, {}, { description: 'A patch document: JSON Patch, merge patch, strategic merge patch or apply configuration, per the Content-Type.' });
