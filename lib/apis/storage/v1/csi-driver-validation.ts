/**
 * CSIDriver validation with the upstream paths and messages (upstream storage validation
 * `validateCSIDriverSpec` and `ValidateCSIDriverUpdate` of v1.30, SELinuxMountReadWriteOncePod
 * on). Upstream names the attach field `spec.attachedRequired` in its errors; so do we.
 */
import { duplicate, type FieldError, FieldPath, GoSyntax, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { list, num, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
/** Shortest and longest token validity a driver may ask for, in seconds. */
export const MIN_TOKEN_SECONDS = 600;
export const MAX_TOKEN_SECONDS = 2 ** 32;

const spec = FieldPath.of('spec');
const ATTACH = spec.child('attachedRequired');
const unset = (v: unknown) => v === undefined || v === null;

/** Token requests: distinct audiences, validity between 10 minutes and 2^32 seconds. */
function validateTokenRequests(requests: Obj[]): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  requests.forEach((r, i) => {
    const path = spec.child('tokenRequests').index(i);
    const audience = str(r.audience);
    if (audiences.has(audience)) {
      errs.push(duplicate(path.child('audience'), audience));
      return;
    }
    audiences.add(audience);
    const seconds = num(r.expirationSeconds);
    if (seconds === undefined) return;
    if (seconds < MIN_TOKEN_SECONDS) errs.push(invalid(path.child('expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > MAX_TOKEN_SECONDS) errs.push(invalid(path.child('expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

/**
 * Create and update: the defaulted booleans are set, the fsGroup policy and modes supported, token
 * requests valid. An absent spec is the declarative walk's `Required value`.
 */
export function validateCSIDriver(driver: Obj): FieldError[] {
  const s = obj(driver.spec);
  if (!s) return [];
  const errs: FieldError[] = [];
  if (unset(s.attachRequired)) errs.push(required(ATTACH));
  if (unset(s.podInfoOnMount)) errs.push(required(spec.child('podInfoOnMount')));
  if (unset(s.storageCapacity)) errs.push(required(spec.child('storageCapacity')));
  if (!unset(s.fsGroupPolicy) && !FS_GROUP_POLICIES.includes(str(s.fsGroupPolicy))) errs.push(notSupported(spec.child('fsGroupPolicy'), s.fsGroupPolicy, FS_GROUP_POLICIES));
  errs.push(...validateTokenRequests(objs(s.tokenRequests)));
  for (const mode of list(s.volumeLifecycleModes)) {
    if (!LIFECYCLE_MODES.includes(str(mode))) errs.push(notSupported(spec.child('volumeLifecycleModes'), mode, LIFECYCLE_MODES));
  }
  if (unset(s.seLinuxMount)) errs.push(required(spec.child('seLinuxMount')));
  return errs;
}

/** Go's `%#v` of the modes, as upstream prints the immutable list. */
function goModes(modes: unknown): GoSyntax {
  const items = list(modes).map((m) => JSON.stringify(str(m)));
  return new GoSyntax(items.length === 0 ? '[]storage.VolumeLifecycleMode(nil)' : `[]storage.VolumeLifecycleMode{${items.join(', ')}}`);
}

/** Update: `attachRequired` and `volumeLifecycleModes` are immutable. */
export function validateCSIDriverUpdate(driver: Obj, old: Obj): FieldError[] {
  const s = obj(driver.spec) ?? {};
  const o = obj(old.spec) ?? {};
  const errs: FieldError[] = [];
  if (!semanticEqual(s.attachRequired, o.attachRequired)) errs.push(invalid(ATTACH, s.attachRequired ?? null, 'field is immutable'));
  if (!semanticEqual(s.volumeLifecycleModes, o.volumeLifecycleModes)) errs.push(invalid(spec.child('volumeLifecycleModes'), goModes(s.volumeLifecycleModes), 'field is immutable'));
  return errs;
}
