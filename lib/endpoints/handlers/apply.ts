/**
 * Server-side apply: PATCH with `application/apply-patch+yaml` (spec 000 § Patch content types,
 * § Field ownership, § Update rules; issue #5 item 2). The body is a partial object — the applier's
 * full intent — merged into the live object by the structural rules with field ownership;
 * conflicts with other managers are 409 unless `force=true`; apply on a missing object creates it
 * and then needs `create` permission too (create-authorization.ts).
 * For the manager `kubectl`, conflicts on fields the last-applied annotation of client-side apply
 * vouches for are taken over, and that annotation follows the applied configuration (issue #23
 * item 5; managedfields/last-applied.ts).
 */
import { applyWithLastApplied, newApplyConflict, newUndeclaredFields, undeclaredFields, validateApplyConfig } from '../../apimachinery/managedfields/index.js';
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { decodeYAML, yamlStrictDuplicateError } from '../../apimachinery/serializers/yaml.js';
import { addWarning } from '../../request/context.js';
import { newBadRequest } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { createAuthorization } from './create-authorization.js';
import { cannotBeHandled, checkFields, decodeTypedBody, ObjectDecodeError } from './decode-object.js';
import { resetFieldsFor } from '../../registry/generic/managed-fields.js';
import { admissionAttributes, type ObjectScope, toServed, toStorage, writeObject } from './scope.js';
import type { WriteOptions } from './write-options.js';

/** An apply body decoded: the typed configuration, the object as decoded before typing, and go-yaml's error for its duplicate keys. */
interface ApplyConfig {
  config: Obj;
  applied: Obj;
  /** `error converting YAML to JSON: yaml: unmarshal errors:…` when the body repeats a key (and the level is not Ignore). */
  duplicateError?: string;
}

/**
 * Decodes an apply body: YAML (any JSON is valid YAML), an object, typed like the kind. Returns
 * the typed configuration and the object as decoded before typing (`applied`).
 */
function applyConfig(s: ObjectScope, body: Buffer, opts: WriteOptions): ApplyConfig {
  const duplicates: string[] | undefined = opts.fieldValidation === 'Ignore' ? undefined : [];
  const config = decodeYAML(body, duplicates);
  if (config === null || typeof config !== 'object' || Array.isArray(config)) throw newBadRequest('the body of an apply patch must be an object');
  const obj = config as Obj;
  const kind = s.kind;
  validateApplyConfig(obj, kind.apiVersion, kind.kind);
  // Upstream's typed conversion refuses an undeclared field whatever the validation level.
  // Custom kinds keep their pruning (reported per level).
  if (!kind.custom) {
    const undeclared = undeclaredFields(kind.schema, obj);
    if (undeclared.length > 0) throw newUndeclaredFields(obj, undeclared);
  }
  const meta = (obj.metadata ?? {}) as Obj;
  if (meta.name !== undefined && meta.name !== s.name) {
    throw newBadRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${s.name})`);
  }
  const applied = deepCopy(obj);
  try {
    // Nulls stay: the configuration is merged as written (a null item of a keyed list is the typed-object error).
    checkFields(s.req, kind, obj, opts.fieldValidation, [], false);
  } catch (err) {
    if (!(err instanceof ObjectDecodeError)) throw err;
    // A type error as a body's; a custom kind's unknown field at the Strict level in the decoder's own words.
    throw err.strict ? newBadRequest(err.message) : cannotBeHandled(kind, err);
  }
  return { config: obj, applied, duplicateError: duplicates && duplicates.length > 0 ? yamlStrictDuplicateError(body) : undefined };
}

/**
 * Reports the duplicate keys of an apply body once the apply has merged, as upstream does after
 * its field manager: 400 `error strict decoding YAML: <duplicateError>` at the Strict level, a
 * warning of the same text at Warn (spec 000 § Field validation levels).
 */
function reportDuplicateKeys(s: ObjectScope, duplicateError: string, validation: WriteOptions['fieldValidation']): void {
  if (validation === 'Strict') throw newBadRequest(`error strict decoding YAML: ${duplicateError}`);
  addWarning(s.req, duplicateError);
}

/** Serves an apply patch (201 when it created the object). */
export async function handleApply(s: ObjectScope, body: Buffer, opts: WriteOptions): Promise<void> {
  const { config, applied, duplicateError } = applyConfig(s, body, opts);
  const kind = s.kind;
  const authorizeCreate = createAuthorization(s);
  const { obj, created } = await s.store.update(
    s.req,
    s.namespace,
    s.name,
    async (current) => {
      const result = applyWithLastApplied({
        live: current ? toServed(s, current) : undefined,
        config,
        applied,
        manager: opts.fieldManager,
        apiVersion: kind.apiVersion,
        kind: kind.kind,
        force: opts.force,
        subresource: s.subresource,
        schema: kind.schema,
        resetFields: resetFieldsFor(kind, s.subresource),
        now: new Date(),
      });
      if (result.conflicts) throw newApplyConflict(result.conflicts);
      if (duplicateError) reportDuplicateKeys(s, duplicateError, opts.fieldValidation);
      const next = result.object;
      const meta = (next.metadata ??= {}) as Obj;
      meta.name = s.name;
      const requestedRV = (config.metadata as Obj | undefined)?.resourceVersion;
      if (requestedRV) meta.resourceVersion = requestedRV;
      else if (current) meta.resourceVersion = (current.metadata as Obj).resourceVersion;
      if (result.managedFields === undefined) delete meta.managedFields;
      else meta.managedFields = result.managedFields;
      const typed = toStorage(s, decodeTypedBody(s.req, kind, next, 'Ignore'));
      await s.admission.admit(s.req, admissionAttributes(s, current ? 'UPDATE' : 'CREATE', typed, current, opts.dryRun));
      return typed;
    },
    {
      dryRun: opts.dryRun,
      forceAllowCreate: true,
      createValidation: async (o) => {
        await authorizeCreate();
        await s.admission.validate(s.req, admissionAttributes(s, 'CREATE', o, null, opts.dryRun));
      },
      updateValidation: async (o, old) => s.admission.validate(s.req, admissionAttributes(s, 'UPDATE', o, old, opts.dryRun)),
    },
  );
  await writeObject(s, created ? 201 : 200, obj);
}
