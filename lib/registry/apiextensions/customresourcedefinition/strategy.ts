/**
 * Create and update rules of CustomResourceDefinitions (upstream v1.30 apiextensions
 * `pkg/registry/customresourcedefinition/strategy.go`): cluster-scoped; a create clears the
 * status, sets generation 1 and records the storage version in `status.storedVersions`; an
 * update keeps the stored status, bumps the generation when the spec changed and appends a new
 * storage version to `status.storedVersions`; no create on update, no unconditional update.
 * Validation is lib/apiextensions/validation with the given hooks. With the
 * CustomResourceFieldSelectors gate off, a write drops the versions' `selectableFields` unless the
 * stored definition already uses them (upstream dropDisabledFields). The status strategy changes
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

/** True when a version of `crd` lists `selectableFields` (upstream specHasSelectableFields). */
function hasSelectableFields(crd: Obj): boolean {
  const versions = (crd.spec as Obj | undefined)?.versions;
  return Array.isArray(versions) && versions.some((v) => v !== null && typeof v === 'object' && (v as Obj).selectableFields != null);
}

/** Removes `selectableFields` from every version of `crd` (fresh version objects: the input may be shared). */
function dropSelectableFields(crd: Obj): void {
  const spec = crd.spec as Obj | undefined;
  if (!hasSelectableFields(crd) || !spec) return;
  crd.spec = {
    ...spec,
    versions: (spec.versions as unknown[]).map((v) => {
      if (v === null || typeof v !== 'object') return v;
      const { selectableFields: _dropped, ...rest } = v as Obj;
      return rest;
    }),
  };
}

/** Feature-gated behaviour of the strategies: `selectableFields` is the CustomResourceFieldSelectors gate. */
export interface CRDStrategyOptions {
  readonly selectableFields: boolean;
}

/**
 * The main and `/status` strategies of customresourcedefinitions, validating schemas with `hooks`
 * (`options` default: upstream v1.30's gate default, selectable fields off).
 */
export function customResourceDefinitionStrategies(hooks: CRDValidationHooks, options: CRDStrategyOptions = { selectableFields: false }): { main: Strategy; status: Strategy } {
  const main = newKindStrategy(
    customResourceDefinition,
    {
      tracksGeneration: true,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
      prepareForCreate: (obj: Obj) => {
        obj.status = {};
        recordStorageVersion(obj);
        if (!options.selectableFields) dropSelectableFields(obj);
      },
      prepareForUpdate: (obj: Obj, old: Obj) => {
        recordStorageVersion(obj);
        if (!options.selectableFields && !hasSelectableFields(old)) dropSelectableFields(obj);
      },
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
