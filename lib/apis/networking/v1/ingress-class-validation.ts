/**
 * IngressClass validation with the upstream v1.30 paths and messages (networking validation
 * `ValidateIngressClass`, `ValidateIngressClassUpdate`): the controller is a domain-prefixed path
 * of at most 250 characters and never changes; parameters name a kind and an object, with a
 * Cluster or Namespace scope and a namespace exactly when the scope is Namespace. ObjectMeta is
 * checked by the caller.
 */
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isDNS1123Label } from '../../../apimachinery/validation/names.js';
import { obj, str, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import { validateDomainPrefixedPath } from './host-names.js';
import { validateTypedReferenceNames } from './ingress-validation.js';

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];
const spec = FieldPath.of('spec');

/** The parameters reference: kind and name required path segments, a known scope, its namespace rule. */
function validateParameters(params: Obj, path: FieldPath): FieldError[] {
  const errs = validateTypedReferenceNames(params, path, true);
  if (params.scope === undefined || params.scope === null) return [...errs, required(path.child('scope'))];
  const scope = str(params.scope);
  const hasNamespace = typeof params.namespace === 'string';
  if (!SCOPES.includes(scope)) return [...errs, notSupported(path.child('scope'), scope, SCOPES)];
  if (scope === 'Namespace') {
    if (!hasNamespace) errs.push(required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...isDNS1123Label(params.namespace as string).map((m) => invalid(path.child('namespace'), params.namespace, m)));
  }
  if (scope === 'Cluster' && hasNamespace) errs.push(forbidden(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

/** Create and update: the controller and the parameters. */
export function validateIngressClass(ic: Obj): FieldError[] {
  const s = obj(ic.spec) ?? {};
  const controller = str(s.controller);
  const errs: FieldError[] = [];
  if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(tooLong(spec.child('controller'), controller, MAX_CONTROLLER_LENGTH));
  errs.push(...validateDomainPrefixedPath(controller, spec.child('controller')));
  const params = obj(s.parameters);
  if (params) errs.push(...validateParameters(params, spec.child('parameters')));
  return errs;
}

/** Update: `spec.controller` is immutable. */
export function validateIngressClassUpdate(ic: Obj, old: Obj): FieldError[] {
  const controller = obj(ic.spec)?.controller;
  return semanticEqual(controller, obj(old.spec)?.controller) ? [] : [invalid(spec.child('controller'), controller ?? '', 'field is immutable')];
}
