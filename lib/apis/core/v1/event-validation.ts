/**
 * core/v1 Event validation: the upstream "legacy" rules that apply to events written through the
 * core group (upstream core validation `legacyValidateEvent`; the stricter events-group rules do
 * not apply here). Old-style events (no `eventTime`) must sit in their involved object's namespace
 * (cluster-scoped objects: `default` or none); new-style events need reporting fields within
 * their length limits. Upstream names the `reportingComponent` field `reportingController` in
 * its error paths, and so do we.
 */
import { type FieldError, FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/names.js';
import { SYSTEM_NAMESPACE } from '../../vendor.js';
import { str, type Obj } from './obj-access.js';

/** Upper bounds (bytes) of the reporting fields of new-style events. */
export const EVENT_LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

function newStyleRules(ev: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const controller = str(ev.reportingComponent);
  const controllerPath = FieldPath.of('reportingController');
  if (controller === '') errs.push(required(controllerPath));
  errs.push(...isQualifiedName(controller).map((m) => invalid(controllerPath, controller, m)));
  const bounded = (name: 'reportingInstance' | 'action' | 'reason', value: string) => {
    if (value === '') errs.push(required(FieldPath.of(name)));
    if (Buffer.byteLength(value) > EVENT_LIMITS[name]) errs.push(invalid(FieldPath.of(name), '', `can have at most ${EVENT_LIMITS[name]} characters`));
  };
  bounded('reportingInstance', str(ev.reportingInstance));
  bounded('action', str(ev.action));
  bounded('reason', str(ev.reason));
  if (Buffer.byteLength(str(ev.message)) > EVENT_LIMITS.message)
    errs.push(invalid(FieldPath.of('message'), '', `can have at most ${EVENT_LIMITS.message} characters`));
  return errs;
}

/** Create and update: namespace agreement with `involvedObject`, new-style reporting fields, namespace syntax. */
export function validateEvent(ev: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ns = str((ev.metadata as Obj | undefined)?.namespace);
  const involvedNs = str((ev.involvedObject as Obj | undefined)?.namespace);
  const mismatch = () => invalid(FieldPath.of('involvedObject', 'namespace'), involvedNs, 'does not match event.namespace');
  if (!ev.eventTime) {
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) errs.push(mismatch());
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== SYSTEM_NAMESPACE) errs.push(mismatch());
    errs.push(...newStyleRules(ev));
  }
  errs.push(...isDNS1123Subdomain(ns).map((m) => invalid(FieldPath.of('namespace'), ns, m)));
  return errs;
}
