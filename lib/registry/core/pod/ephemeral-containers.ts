/**
 * The `ephemeralcontainers` subresource of Pod (upstream `EphemeralContainersREST` and
 * `podEphemeralContainersStrategy`): GET answers the Pod; PUT and PATCH change only
 * `spec.ephemeralContainers`, which may only grow — an existing ephemeral container may be
 * neither removed nor changed — and are refused for static (mirror) pods.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { type FieldError, FieldPath, forbidden } from '../../../apimachinery/field-errors.js';
import { validateDeclarative } from '../../../apimachinery/schema/validate.js';
import { validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.js';
import { diffLines } from '../../../apis/core/v1/semantic-equal.js';
import type { Obj } from '../../../apis/define.js';
import { MIRROR_POD_ANNOTATION } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import { newStatusStrategy, resetToStored } from '../../generic/kind-strategy.js';
import { metaOf } from '../../generic/object-meta.js';
import type { Strategy } from '../../rest/strategy.js';
import { validatePodSpecOnUpdate } from './strategy.js';

const specPath = FieldPath.of('spec', 'ephemeralContainers');

function ephemeralOf(pod: Obj): Obj[] {
  const list = (pod.spec as Obj | undefined)?.ephemeralContainers;
  return Array.isArray(list) ? (list as Obj[]) : [];
}

/**
 * Upstream ValidatePodEphemeralContainersUpdate, part 2: every ephemeral container of `old` is
 * still there (matched by name) and unchanged; a static pod takes none.
 */
export function validateEphemeralContainersUpdate(pod: Obj, old: Obj): FieldError[] {
  const annotations = (metaOf(old).annotations ?? {}) as Obj;
  if (annotations[MIRROR_POD_ANNOTATION] !== undefined) return [forbidden('', 'static pods do not support ephemeral containers')];
  const byName = new Map(ephemeralOf(pod).map((c) => [String(c.name), c]));
  const errs: FieldError[] = [];
  for (const before of ephemeralOf(old)) {
    const name = String(before.name);
    const after = byName.get(name);
    if (!after) errs.push(forbidden(specPath, `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`));
    else if (!deepEqual(before, after)) {
      errs.push(forbidden(specPath.key(name), `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n${diffLines(before, after, name)}`));
    }
  }
  return errs;
}

/** The strategy of `pods/ephemeralcontainers` over the Pod strategy `main`. */
export function newEphemeralContainersStrategy(main: Strategy): Strategy {
  return newStatusStrategy(main, {
    prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
      const containers = (obj.spec as Obj | undefined)?.ephemeralContainers;
      resetToStored(obj, old);
      const spec = (obj.spec ??= {}) as Obj;
      if (containers === undefined) delete spec.ephemeralContainers;
      else spec.ephemeralContainers = containers;
    },
    validateUpdate(_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
      const mirror = validateEphemeralContainersUpdate(obj, old);
      if (mirror.length === 1 && mirror[0]!.field === '') return mirror;
      return [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...validateDeclarative(main.kind.schema, { spec: obj.spec }), ...validatePodSpecOnUpdate(obj), ...mirror];
    },
  });
}
