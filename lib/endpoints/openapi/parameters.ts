/**
 * The parameters of the resource operations (spec 000 § Modifying-request query parameters,
 * § Watch parameters, § Chunked list parameters, § Resource versions): one neutral description
 * each, rendered as a Swagger 2.0 or an OpenAPI 3.0 parameter.
 */
import type { JSONObject } from './names.js';

/** One non-body parameter. */
export interface ParameterSpec {
  name: string;
  in: 'query' | 'path';
  type: 'string' | 'integer' | 'boolean';
  description: string;
  required?: boolean;
}

const q = (name: string, type: ParameterSpec['type'], description: string): ParameterSpec => ({ name, in: 'query', type, description });

/** Every parameter by name. */
export const PARAMETERS: Record<string, ParameterSpec> = {
  name: { name: 'name', in: 'path', type: 'string', required: true, description: 'Name of the object.' },
  namespace: { name: 'namespace', in: 'path', type: 'string', required: true, description: 'Namespace of the objects: a name and an authorization scope.' },
  pretty: q('pretty', 'string', "`true` indents the JSON answer."),
  dryRun: q('dryRun', 'string', '`All`: every stage of the request runs (admission, validation, defaulting) but nothing is persisted. Any other value is rejected with 400.'),
  fieldManager: q('fieldManager', 'string', 'Name of the actor making the change, recorded in managedFields: at most 128 printable characters. Required for apply patches; otherwise taken from the User-Agent when absent.'),
  fieldValidation: q('fieldValidation', 'string', 'What the server does with unknown or duplicate fields of the request object: `Ignore` drops them; `Warn` (the default) answers with one Warning header each; `Strict` rejects the request with 400 listing them.'),
  force: q('force', 'boolean', '`true` makes an apply patch take over fields owned by other managers instead of failing with a conflict. Only for apply patches.'),
  labelSelector: q('labelSelector', 'string', 'Restricts the answer to the objects whose labels match this selector (default: all).'),
  fieldSelector: q('fieldSelector', 'string', 'Restricts the answer to the objects whose selectable fields match this selector (default: all).'),
  limit: q('limit', 'integer', 'Most items to return in one list answer; when more exist the list metadata carries a `continue` token for the next chunk, and the chunks together form one consistent snapshot. Not with watch.'),
  continue: q('continue', 'string', 'Token of a previous chunked list answer, to read the next chunk of the same query; an expired token is answered with 410 ResourceExpired. Not with watch.'),
  resourceVersion: q('resourceVersion', 'string', 'Which state of the data may serve the request: unset (the most recent), `0` (any), or a given version read as resourceVersionMatch says. Watches start after it.'),
  resourceVersionMatch: q('resourceVersionMatch', 'string', 'How a list reads resourceVersion: `NotOlderThan` or `Exact`. Recommended whenever a list gives resourceVersion.'),
  watch: q('watch', 'boolean', '`true` turns the read into a watch: a stream of ADDED, MODIFIED and DELETED events, starting after resourceVersion.'),
  allowWatchBookmarks: q('allowWatchBookmarks', 'boolean', 'Asks a watch for BOOKMARK events, sent at the server\'s discretion with the current resourceVersion only. Ignored outside watches.'),
  sendInitialEvents: q('sendInitialEvents', 'boolean', 'With `watch=true`: the stream begins with an ADDED event per current object, then a BOOKMARK annotated as the end of the initial events, then the changes. Needs resourceVersionMatch=NotOlderThan.'),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'Longest duration of the list or watch call, whatever its activity.'),
  gracePeriodSeconds: q('gracePeriodSeconds', 'integer', 'Seconds before the object is deleted: zero deletes at once; unset uses the default of the kind.'),
  orphanDependents: q('orphanDependents', 'boolean', 'Deprecated, use propagationPolicy: whether dependents are orphaned. Not together with propagationPolicy.'),
  propagationPolicy: q('propagationPolicy', 'string', 'Garbage collection of dependents: `Orphan` keeps them, `Background` deletes them after the owner, `Foreground` before it. Not together with orphanDependents.'),
};

/** Query parameters of a collection read (list or watch), in upstream order. */
export const LIST_QUERY = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];
/** Query parameters of create and update. */
export const WRITE_QUERY = ['dryRun', 'fieldManager', 'fieldValidation'];
/** Query parameters of patch (force: apply patches only). */
export const PATCH_QUERY = ['dryRun', 'fieldManager', 'fieldValidation', 'force'];
/** Query parameters of delete. */
export const DELETE_QUERY = ['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy'];
/** Query parameters of deletecollection. */
export const DELETE_COLLECTION_QUERY = [
  'continue',
  'dryRun',
  'fieldSelector',
  'gracePeriodSeconds',
  'labelSelector',
  'limit',
  'orphanDependents',
  'propagationPolicy',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
];

/** A Swagger 2.0 non-body parameter. */
export function v2Parameter(name: string): JSONObject {
  const p = PARAMETERS[name]!;
  const out: JSONObject = { uniqueItems: true, type: p.type, description: p.description, name: p.name, in: p.in };
  if (p.required) out.required = true;
  return out;
}

/** An OpenAPI 3.0 parameter. */
export function v3Parameter(name: string): JSONObject {
  const p = PARAMETERS[name]!;
  const out: JSONObject = { name: p.name, in: p.in, description: p.description, schema: { type: p.type, uniqueItems: true } };
  if (p.required) out.required = true;
  return out;
}
