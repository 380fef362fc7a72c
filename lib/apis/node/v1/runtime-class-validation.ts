/**
 * RuntimeClass validation with the upstream v1.30 paths and messages (node validation
 * `ValidateRuntimeClass`, `ValidateRuntimeClassUpdate`): the handler is a DNS label and never
 * changes; the pod overhead is a valid resource list (checked as container limits, so reported
 * under `overhead.limits`); the scheduling node selector is a label map and its tolerations are
 * valid and unique by key, operator, value and effect. ObjectMeta is checked by the caller.
 */
import { duplicate, type FieldError, FieldPath, GoSyntax, invalid } from '../../../apimachinery/field-errors.js';
import { validateLabelMap } from '../../../apimachinery/validation/label-map.js';
import { isDNS1123Label } from '../../../apimachinery/validation/names.js';
import { num, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { validateContainerResources } from '../../core/v1/resources-validation.js';
import { validateTolerations } from '../../core/v1/scheduling-validation.js';

/** A toleration as upstream prints a duplicate one (Go `%#v` of the internal type). */
function goToleration(t: Obj): GoSyntax {
  const seconds = num(t.tolerationSeconds);
  const q = (k: string) => JSON.stringify(str(t[k]));
  return new GoSyntax(
    `core.Toleration{Key:${q('key')}, Operator:${q('operator')}, Value:${q('value')}, Effect:${q('effect')}, TolerationSeconds:(*int64)(${seconds ?? 'nil'})}`,
  );
}

/** Tolerations: each valid, no two equal in key, operator, value and effect. */
function validateUniqueTolerations(tolerations: unknown, path: FieldPath): FieldError[] {
  const errs = validateTolerations(tolerations, path);
  const seen = new Set<string>();
  objs(tolerations).forEach((t, i) => {
    const key = JSON.stringify([str(t.key), str(t.operator), str(t.value), str(t.effect)]);
    if (seen.has(key)) errs.push(duplicate(path.index(i), goToleration(t)));
    seen.add(key);
  });
  return errs;
}

/** Create and update: handler, overhead, scheduling. */
export function validateRuntimeClass(rc: Obj): FieldError[] {
  const handler = str(rc.handler);
  const errs = isDNS1123Label(handler).map((m) => invalid('handler', handler, m));
  const overhead = obj(rc.overhead);
  if (overhead) errs.push(...validateContainerResources({ limits: overhead.podFixed }, new Set(), FieldPath.of('overhead')));
  const scheduling = obj(rc.scheduling);
  if (scheduling) {
    const path = FieldPath.of('scheduling');
    if (scheduling.nodeSelector !== undefined && scheduling.nodeSelector !== null) errs.push(...validateLabelMap(scheduling.nodeSelector, path.child('nodeSelector')));
    errs.push(...validateUniqueTolerations(scheduling.tolerations, path.child('tolerations')));
  }
  return errs;
}

/** Update: `handler` is immutable. */
export function validateRuntimeClassUpdate(rc: Obj, old: Obj): FieldError[] {
  return str(rc.handler) === str(old.handler) ? [] : [invalid('handler', str(rc.handler), 'field is immutable')];
}
