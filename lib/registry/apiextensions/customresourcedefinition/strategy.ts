/**
 * Create and update rules of CustomResourceDefinitions (upstream v1.30 apiextensions
 * `pkg/registry/customresourcedefinition/strategy.go`): cluster-scoped; a create clears the
 * status, sets generation 1 and records the storage version in `status.storedVersions`; an
 * update keeps the stored status, bumps the generation when the spec changed and appends a new
 * storage version to `status.storedVersions`; no create on update, no unconditional update.
 * Validation is lib/apiextensions/validation with the given hooks. The status strategy changes
 * `status` and, as upstream's (whose metadata reset is a no-op), the metadata — the finalizer
 * controller removes its finalizer through `/status` — but never the spec.
 */
import { deepCopy } from '../../../apimachinery/deep-equal.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionStatusUpdate, validateCustomResourceDefinitionUpdate } from '../../../apiextensions/validation/crd.js';
import type { CRDValidationHooks } from '../../../apiextensions/validation/hooks.js';
import type { CustomResourceDefinition } from '../../../apiextensions/types.js';
import { customResourceDefinition } from '../../../apis/apiextensions/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

const asCRD = (o: Obj): CustomResourceDefinition => o as unknown as CustomResourceDefinition;

/** The name of the first version marked `storage`, if any. */
function storageVersion(crd: Obj): string | undefined {
  const versions = (crd.spec as Obj | undefined)?.versions;
  if (!Array.isArray(versions)) return undefined;
  const v = versions.find((x) => x !== null && typeof x === 'object' && (x as Obj).storage === true) as Obj | undefined;
  return typeof v?.name === 'string' ? v.name : undefined;
}

/** Appends the storage version to `status.storedVersions` when missing (a fresh status object: the old one is shared). */
function recordStorageVersion(crd: Obj): void {
  const name = storageVersion(crd);
  if (name === undefined) return;
  const status = (crd.status ?? {}) as Obj;
  const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as string[]) : [];
  if (stored.includes(name)) return;
  crd.status = { ...status, storedVersions: [...stored, name] };
}

/** The main and `/status` strategies of customresourcedefinitions, validating schemas with `hooks`. */
export function customResourceDefinitionStrategies(hooks: CRDValidationHooks): { main: Strategy; status: Strategy } {
  const main = newKindStrategy(
    customResourceDefinition,
    {
      tracksGeneration: true,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
      prepareForCreate: (obj: Obj) => {
        obj.status = {};
        recordStorageVersion(obj);
      },
      prepareForUpdate: (obj: Obj) => recordStorageVersion(obj),
    },
    {
      validate: (_ctx: RequestContext, obj: Obj) => validateCustomResourceDefinition(asCRD(obj), hooks),
      validateUpdate: (_ctx: RequestContext, obj: Obj, old: Obj) => validateCustomResourceDefinitionUpdate(asCRD(obj), asCRD(old), hooks),
    },
  );
  const status = newStatusStrategy(main, {
    prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
      if (old.spec === undefined) delete obj.spec;
      else obj.spec = deepCopy(old.spec);
    },
    validateUpdate: (_ctx: RequestContext, obj: Obj, old: Obj) => validateCustomResourceDefinitionStatusUpdate(asCRD(obj), asCRD(old)),
  });
  return { main, status };
}
