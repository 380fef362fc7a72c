/**
 * APIService validation with upstream v1.30's paths and messages (kube-aggregator
 * `ValidateAPIService`, `ValidateAPIServiceStatus`): the name is `<version>.<group>`; the group a
 * DNS subdomain (empty only for v1, the core group); the version a DNS-1035 label; priorities
 * in range; a local APIService (no service) has no CA bundle and does not skip TLS verification;
 * a service has a namespace, a name and a valid port, and skips verification only without a CA
 * bundle. The name's path-segment syntax is checked with ObjectMeta (nameRule `pathSegment`).
 */
import { type FieldError, FieldPath, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from '../../../apimachinery/validation/names.js';
import { isValidPortNum } from '../../../apimachinery/validation/ports.js';
import { num, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';

const spec = FieldPath.of('spec');

/** The bytes of a base64 `caBundle` (as Go's `len([]byte)`). */
function byteLength(b64: string): number {
  return Buffer.from(b64, 'base64').length;
}

/** A new or updated APIService. */
export function validateAPIService(apiService: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const s = obj(apiService.spec) ?? {};
  const group = str(s.group);
  const version = str(s.version);
  const name = str(obj(apiService.metadata)?.name);
  const requiredName = `${version}.${group}`;
  if (name !== '' && isValidPathSegmentName(name).length === 0 && name !== requiredName) {
    errs.push(invalid(FieldPath.of('metadata', 'name'), name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`));
  }
  if (group === '' && version !== 'v1') errs.push(required(spec.child('group'), 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const m of isDNS1123Subdomain(group)) errs.push(invalid(spec.child('group'), group, m));
  for (const m of isDNS1035Label(version)) errs.push(invalid(spec.child('version'), version, m));
  const groupPriority = num(s.groupPriorityMinimum) ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(invalid(spec.child('groupPriorityMinimum'), groupPriority, 'must be positive and less than 20000'));
  const versionPriority = num(s.versionPriority) ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(invalid(spec.child('versionPriority'), versionPriority, 'must be positive and less than 1000'));
  const caBundle = byteLength(str(s.caBundle));
  const skipVerify = s.insecureSkipTLSVerify === true;
  const service = obj(s.service);
  if (!service) {
    if (caBundle !== 0) errs.push(invalid(spec.child('caBundle'), `${caBundle} bytes`, 'local APIServices may not have a caBundle'));
    if (skipVerify) errs.push(invalid(spec.child('insecureSkipTLSVerify'), true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (str(service.namespace) === '') errs.push(required(spec.child('service', 'namespace')));
  if (str(service.name) === '') errs.push(required(spec.child('service', 'name')));
  const port = num(service.port) ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(spec.child('service', 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  if (skipVerify && caBundle > 0) errs.push(invalid(spec.child('insecureSkipTLSVerify'), true, 'may not be true if caBundle is present'));
  return errs;
}

const STATUSES = ['True', 'False', 'Unknown'];

/** A status write: each condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(apiService: Obj): FieldError[] {
  const conditions = FieldPath.of('status', 'conditions');
  return objs(obj(apiService.status)?.conditions).flatMap((c, i) =>
    STATUSES.includes(str(c.status)) ? [] : [notSupported(conditions.index(i).child('status'), str(c.status), STATUSES)],
  );
}
