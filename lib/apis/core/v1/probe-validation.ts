/**
 * Validation of probes and lifecycle hooks with the upstream paths and messages: exactly one
 * handler, handler fields (command, HTTP path, header names, ports), non-negative timings,
 * `successThreshold` 1 for liveness and startup probes, no grace period on readiness probes,
 * sleep within the pod's termination grace period.
 */
import { type FieldError, type FieldPath, forbidden, invalid, required } from '../../../apimachinery/field-errors.js';
import { isHTTPHeaderName, validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { isValidPortName, isValidPortNum } from '../../../apimachinery/validation/ports.js';
import { list, num, obj, objs, str, type Obj } from './obj-access.js';

/** A port given as a number (1–65535) or an IANA service name (upstream ValidatePortNumOrName). */
export function validatePortNumOrName(port: unknown, path: FieldPath): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  return [];
}

function validateExec(exec: Obj, path: FieldPath): FieldError[] {
  return list(exec.command).length === 0 ? [required(path.child('command'))] : [];
}

function validateHTTPGet(http: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(http.path) === '') errs.push(required(path.child('path')));
  errs.push(...validatePortNumOrName(http.port, path.child('port')));
  for (const h of objs(http.httpHeaders)) {
    const name = str(h.name);
    errs.push(...isHTTPHeaderName(name).map((m) => invalid(path.child('httpHeaders'), name, m)));
  }
  return errs;
}

function validateSleep(sleep: Obj, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const seconds = num(sleep.seconds) ?? 0;
  if (gracePeriod === undefined || (seconds > 0 && seconds <= gracePeriod)) return [];
  return [invalid(path, seconds, `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod})`)];
}

/** Which handler fields apply: probes may use grpc, lifecycle hooks may use sleep. */
type HandlerKind = 'probe' | 'lifecycle';

/** Exactly one handler type, each with its own checks (upstream validateHandler). */
function validateHandler(h: Obj, kind: HandlerKind, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  type Check = [string, (v: Obj, p: FieldPath) => FieldError[]];
  const last: Check =
    kind === 'probe'
      ? ['grpc', (v, p) => validatePortNumOrName(num(v.port) ?? 0, p.child('port'))]
      : ['sleep', (v, p) => validateSleep(v, gracePeriod, p)];
  const checks: Check[] = [
    ['exec', validateExec],
    ['httpGet', validateHTTPGet],
    ['tcpSocket', (v, p) => validatePortNumOrName(v.port, p.child('port'))],
    last,
  ];
  let count = 0;
  for (const [key, check] of checks) {
    const v = obj(h[key]);
    if (!v) continue;
    if (count > 0) errs.push(forbidden(path.child(key), 'may not specify more than 1 handler type'));
    else errs.push(...check(v, path.child(key)));
    count++;
  }
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

/** The checks shared by all probes (upstream validateProbe). */
function validateProbeCommon(p: Obj, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const errs = validateHandler(p, 'probe', gracePeriod, path);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
    errs.push(...validateNonnegative(p[k], path.child(k)));
  const tgps = num(p.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps <= 0) errs.push(invalid(path.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  return errs;
}

/** Which probe: liveness and startup require successThreshold 1, readiness forbids a grace period. */
export type ProbeKind = 'liveness' | 'readiness' | 'startup';

/** Validates one probe of a container (nothing when absent). */
export function validateProbe(probe: unknown, kind: ProbeKind, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const p = obj(probe);
  if (!p) return [];
  const errs = validateProbeCommon(p, gracePeriod, path);
  if (kind !== 'readiness' && p.successThreshold !== 1) errs.push(invalid(path.child('successThreshold'), p.successThreshold ?? 0, 'must be 1'));
  if (kind === 'readiness' && p.terminationGracePeriodSeconds !== undefined)
    errs.push(invalid(path.child('terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  return errs;
}

/** Validates the postStart and preStop hooks of a container. */
export function validateLifecycle(lifecycle: unknown, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const l = obj(lifecycle) ?? {};
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop']) {
    const h = obj(l[hook]);
    if (h) errs.push(...validateHandler(h, 'lifecycle', gracePeriod, path.child(hook)));
  }
  return errs;
}
