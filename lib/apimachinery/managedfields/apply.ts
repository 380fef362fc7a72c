/**
 * Server-side apply (spec 000 § Field ownership, § Update rules 3; `application/apply-patch+yaml`),
 * following upstream's FieldManager.Apply chain: the configuration must be of the served kind and
 * carry no managedFields; an object without entries first records its existing fields for
 * `before-first-apply`; the configuration is merged into the live object, the applier owns exactly
 * the fields it applied, fields it stopped applying are removed unless someone else owns them, and
 * changed fields owned by others are conflicts unless forced (then they move to the applier).
 */
import { deepCopy } from '../deep-equal.js';
import { newBadRequest, StatusError } from '../errors.js';
import { formatTime } from '../schema/decode.js';
import type { StructSchema } from '../schema/types.js';
import { type ApplyConflict } from './conflicts.js';
import { capUpdateManagers, stripUntracked } from './entries.js';
import { encodeManagedFields, type Managed, type ManagedFieldsEntry, managerIdentifier } from './managed-fields.js';
import { type Path, pathString } from './path.js';
import { FieldSet } from './set.js';
import { TypedValueError } from './typeinfo.js';
import { managedOf, type Obj, recordUpdate, withoutManagedFields } from './update.js';
import { updaterApply } from './updater.js';
import { zeroObject } from './zero.js';

/** The manager that receives an object's existing fields at its first apply. */
export const BEFORE_FIRST_APPLY_MANAGER = 'before-first-apply';

/** Input of apply(). */
export interface ApplyOptions {
  /** The stored object; undefined when the apply creates it. */
  live: Obj | undefined;
  /** The applied configuration (the decoded request body). */
  config: Obj;
  /** The field manager (required for apply). */
  manager: string;
  /** The served `apiVersion` (`apps/v1`) and `kind` the configuration must name. */
  apiVersion: string;
  kind: string;
  /** The `force` query parameter. */
  force: boolean;
  /** `''` for the main resource, else the subresource. */
  subresource?: string;
  /** The kind's object schema. */
  schema: StructSchema;
  /** Fields the write resets (e.g. `status` on the main resource): never owned, never in conflict. */
  resetFields?: FieldSet;
  /** The time of the write. */
  now: Date;
}

/** A successful apply: the object to store and its managedFields (undefined: none). */
export interface ApplySuccess {
  /** The merged object, without `metadata.managedFields` (a fresh copy). */
  object: Obj;
  managedFields: ManagedFieldsEntry[] | undefined;
  /** False when the apply changed no field of the object (entries may still change). */
  changed: boolean;
  conflicts?: undefined;
  paths?: undefined;
}

/** A refused apply: the conflicts, for newApplyConflict (the other members are absent). */
export interface ApplyConflicts {
  conflicts: ApplyConflict[];
  /** The path of each conflict, in the order of `conflicts` (upstream's conflict set; see last-applied.ts). */
  paths: Path[];
  object?: undefined;
  managedFields?: undefined;
  changed?: undefined;
}

/** Upstream GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const [group, version] = av.includes('/') ? [av.slice(0, av.indexOf('/')), av.slice(av.indexOf('/') + 1)] : ['', av];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/**
 * Checks an apply body as upstream does before merging; throws a 400 StatusError:
 * `invalid object type: apps/v1, Kind=Foo` (apiVersion or kind not the served ones) or
 * `metadata.managedFields must be nil` (any value but null).
 */
export function validateApplyConfig(config: Obj, apiVersion: string, kind: string): void {
  if (config.apiVersion !== apiVersion || config.kind !== kind) throw newBadRequest(`invalid object type: ${gvkString(config.apiVersion, config.kind)}`);
  const meta = config.metadata as Obj | undefined;
  if (meta && meta.managedFields !== undefined && meta.managedFields !== null) throw newBadRequest('metadata.managedFields must be nil');
}

/** Upstream's objectGVKNN: `default/web; apps/v1, Kind=Deployment` (`/name; …` without a namespace). */
function objectGVKNN(obj: Obj): string {
  const meta = (obj.metadata ?? {}) as Obj;
  return `${typeof meta.namespace === 'string' ? meta.namespace : ''}/${typeof meta.name === 'string' ? meta.name : ''}; ${gvkString(obj.apiVersion, obj.kind)}`;
}

/**
 * Upstream's error for a configuration or live object the schema cannot key (`failed to create
 * typed ...`): 500 for the live object, as upstream (the stored data is the server's); 400 for
 * the configuration, where upstream answers 500 too (kubernetes#139253), since a malformed body
 * is the client's error.
 */
function typedError(what: 'patch' | 'live', obj: Obj, err: TypedValueError): StatusError {
  const message = `failed to create typed ${what} object (${objectGVKNN(obj)}): ${err.message}`;
  if (what === 'patch') return newBadRequest(message);
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Unknown', code: 500 });
}

/**
 * 400 for an apply configuration with fields its schema does not declare (undeclared.ts), in
 * upstream's words: `failed to create typed patch object (default/cm; /v1, Kind=ConfigMap):
 * .wat: field not declared in schema`, several as `errors:` and one indented line each. Upstream
 * answers it 500 (its typed conversion's error is not a Status: kubernetes/kubernetes#139253); a
 * malformed body is the client's error here, so 400 BadRequest.
 */
export function newUndeclaredFields(config: Obj, paths: readonly string[]): StatusError {
  const lines = paths.map((p) => `${p}: field not declared in schema`);
  const errors = lines.length === 1 ? lines[0]! : ['errors:', ...lines.map((l) => `  ${l}`)].join('\n');
  return newBadRequest(`failed to create typed patch object (${objectGVKNN(config)}): ${errors}`);
}

/**
 * Applies `config` for `manager`. Returns the new object and entries, or the conflicts (build the
 * 409 with newApplyConflict). Throws a 400 StatusError for an invalid body (validateApplyConfig)
 * or a configuration list item that cannot be keyed, and a 500 StatusError for such an item of
 * the live object.
 */
export function apply(o: ApplyOptions): ApplySuccess | ApplyConflicts {
  validateApplyConfig(o.config, o.apiVersion, o.kind);
  const subresource = o.subresource ?? '';
  const ctx = { schema: o.schema, ignored: o.resetFields ?? new FieldSet() };
  const live = withoutManagedFields(o.live ?? zeroObject(o.schema));
  let managed: Managed = managedOf(o.live);
  if (managed.size === 0) {
    managed = tryTyped('live', live, () => recordUpdate(managed, zeroObject(o.schema), live, { ...o, manager: BEFORE_FIRST_APPLY_MANAGER, subresource }));
  }
  const entry = { manager: o.manager, operation: 'Apply' as const, apiVersion: o.apiVersion, subresource };
  const id = managerIdentifier(entry);
  const previous = managed.get(id);
  if (previous?.time) Object.assign(entry, { time: previous.time });
  const r = tryTyped('patch', o.config, () => updaterApply(live, o.config, managed, id, entry, o.force, ctx));
  if (r.conflicts) {
    return {
      conflicts: r.conflicts.map((c) => ({
        manager: c.owner.manager,
        operation: c.owner.operation,
        apiVersion: c.owner.apiVersion,
        subresource: c.owner.subresource,
        path: pathString(c.path),
        identifier: c.identifier,
      })),
      paths: r.conflicts.map((c) => c.path),
    };
  }
  const out = r.managers;
  if (r.changed) out.set(id, { ...out.get(id)!, time: formatTime(o.now) });
  stripUntracked(out, id);
  capUpdateManagers(out);
  return { object: deepCopy((r.changed ? r.object : live) as Obj), managedFields: encodeManagedFields(out), changed: r.changed };
}

function tryTyped<T>(what: 'patch' | 'live', obj: Obj, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof TypedValueError) throw typedError(what, obj, e);
    throw e;
  }
}
