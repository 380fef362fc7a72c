/**
 * Ingress validation with the upstream v1.30 paths and messages (networking validation
 * `ValidateIngressCreate`, `ValidateIngressUpdate`, `ValidateIngressStatusUpdate`): either a
 * default backend or rules; hosts are DNS names (a leading `*.` label allowed), never IP
 * addresses; every path has a pathType, Exact and Prefix paths are absolute and clean; a backend
 * is exactly one of a Service (name and one of port name / number) or a resource; TLS hosts and
 * Secret names; the class name; on create, the deprecated class annotation must agree with
 * `ingressClassName`. An update keeps accepting invalid TLS Secret names and wildcard-host rules
 * the stored object already had. ObjectMeta is checked by the caller; a Service backend's empty
 * name and a resource backend's empty kind or name are reported by the schema (`Required value`).
 */
import { type FieldError, FieldPath, GoSyntax, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { parseIP } from '../../../apimachinery/validation/ip.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from '../../../apimachinery/validation/names.js';
import { isValidPortName, isValidPortNum } from '../../../apimachinery/validation/ports.js';
import { num, obj, objs, str, strMap, type Obj } from '../../core/v1/obj-access.js';
import { INGRESS_CLASS_ANNOTATION } from '../../vendor.js';
import { isWildcardDNS1123Subdomain } from './host-names.js';

/** The path types of HTTP paths, sorted as upstream lists them. */
export const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

/** What an update tolerates because the stored object already had it. */
interface IngressOptions {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
}
const STRICT: IngressOptions = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false };

const specPath = FieldPath.of('spec');
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * A typed reference (a resource backend, IngressClass parameters): apiGroup a subdomain, kind and
 * name path segments; with `reportMissing`, an empty kind or name is `Required value: kind is
 * required` (where the schema does not report it already).
 */
export function validateTypedReferenceNames(ref: Obj, path: FieldPath, reportMissing = false): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') errs.push(...isDNS1123Subdomain(ref.apiGroup).map((m) => invalid(path.child('apiGroup'), ref.apiGroup, m)));
  for (const key of ['kind', 'name']) {
    const v = str(ref[key]);
    if (v !== '') errs.push(...isValidPathSegmentName(v).map((m) => invalid(path.child(key), v, m)));
    else if (reportMissing) errs.push(required(path.child(key), `${key} is required`));
  }
  return errs;
}

/** Exactly one of a Service (name and exactly one of port name / number) or a resource. */
function validateBackend(backend: Obj, path: FieldPath): FieldError[] {
  const service = obj(backend.service);
  const resource = obj(backend.resource);
  if (service && resource) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) return validateTypedReferenceNames(resource, path.child('resource'));
  if (!service) return [invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = str(service.name);
  if (name !== '') errs.push(...isDNS1035Label(name).map((m) => invalid(path.child('service', 'name'), name, m)));
  const port = obj(service.port) ?? {};
  const portName = str(port.name);
  const portNumber = num(port.number) ?? 0;
  if (portName !== '' && portNumber !== 0) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') errs.push(...isValidPortName(portName).map((m) => invalid(path.child('service', 'port', 'name'), portName, m)));
  else if (portNumber !== 0) errs.push(...isValidPortNum(portNumber).map((m) => invalid(path.child('service', 'port', 'number'), portNumber, m)));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

/** One HTTP path: a pathType (nothing else is checked without one), an absolute clean path, its backend. */
function validatePath(p: Obj, path: FieldPath): FieldError[] {
  if (!isSet(p.pathType)) return [required(path.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = str(p.path);
  const pathType = str(p.pathType);
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalid(path.child('path'), value, 'must be an absolute path'));
    for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(invalid(path.child('path'), value, `must not contain '${seq}'`));
    for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(invalid(path.child('path'), value, `cannot end with '${suffix}'`));
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) errs.push(invalid(path.child('path'), value, 'must be an absolute path'));
  } else {
    errs.push(notSupported(path.child('pathType'), pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(obj(p.backend) ?? {}, path.child('backend')));
  return errs;
}

/** The HTTP value of a rule: at least one path, each valid. */
function validateRuleValue(rule: Obj, path: FieldPath): FieldError[] {
  const http = obj(rule.http);
  if (!http) return [];
  const paths = objs(http.paths);
  const errs: FieldError[] = paths.length === 0 ? [required(path.child('http', 'paths'))] : [];
  paths.forEach((p, i) => errs.push(...validatePath(p, path.child('http', 'paths').index(i))));
  return errs;
}

/** Rules: each host a DNS name or wildcard, not an IP; each rule value valid. */
function validateRules(rules: Obj[], path: FieldPath, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const host = str(rule.host);
    const hostPath = path.index(i).child('host');
    let wildcard = false;
    if (host !== '') {
      if (parseIP(host)) errs.push(invalid(hostPath, host, 'must be a DNS name, not an IP address'));
      wildcard = host.includes('*');
      const msgs = wildcard ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      errs.push(...msgs.map((m) => invalid(hostPath, host, m)));
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, path.index(i)));
  });
  return errs;
}

/** TLS entries: hosts DNS names (wildcards allowed), Secret names DNS subdomains. */
function validateTLS(tls: Obj[], path: FieldPath, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  tls.forEach((t, i) => {
    (Array.isArray(t.hosts) ? t.hosts : []).forEach((h: unknown, j: number) => {
      const host = str(h);
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      errs.push(...msgs.map((m) => invalid(path.index(i).child('hosts').index(j), host, m)));
    });
    const secretName = str(t.secretName);
    if (!opts.allowInvalidSecretName && secretName !== '')
      errs.push(...isDNS1123Subdomain(secretName).map((m) => invalid(path.index(i).child('secretName'), secretName, m)));
  });
  return errs;
}

/** The spec of an Ingress (upstream `ValidateIngressSpec`). */
function validateIngressSpec(spec: Obj, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  const rules = objs(spec.rules);
  const defaultBackend = obj(spec.defaultBackend);
  if (rules.length === 0 && !defaultBackend) {
    const shown = new GoSyntax(Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)');
    errs.push(invalid(specPath, shown, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (defaultBackend) errs.push(...validateBackend(defaultBackend, specPath.child('defaultBackend')));
  if (rules.length > 0) errs.push(...validateRules(rules, specPath.child('rules'), opts));
  const tls = objs(spec.tls);
  if (tls.length > 0) errs.push(...validateTLS(tls, specPath.child('tls'), opts));
  if (typeof spec.ingressClassName === 'string') {
    const name = spec.ingressClassName;
    errs.push(...isDNS1123Subdomain(name).map((m) => invalid(specPath.child('ingressClassName'), name, m)));
  }
  return errs;
}

/** Create: the spec with no leniency, and the class annotation agreeing with `ingressClassName`. */
export function validateIngress(ing: Obj): FieldError[] {
  const spec = obj(ing.spec) ?? {};
  const errs = validateIngressSpec(spec, STRICT);
  const annotations = strMap(obj(ing.metadata)?.annotations);
  const annotated = annotations[INGRESS_CLASS_ANNOTATION];
  if (annotated !== undefined && typeof spec.ingressClassName === 'string' && annotated !== spec.ingressClassName)
    errs.push(invalid(FieldPath.of('annotations').child(INGRESS_CLASS_ANNOTATION), annotated, 'must match `ingressClassName` when both are specified'));
  return errs;
}

/**
 * Update: the spec, tolerating invalid TLS Secret names and invalid rules under wildcard hosts
 * when the stored object already has some. Replaces `validateIngress` on updates.
 */
export function validateIngressUpdate(ing: Obj, old: Obj): FieldError[] {
  const oldSpec = obj(old.spec) ?? {};
  const opts: IngressOptions = {
    allowInvalidSecretName: objs(oldSpec.tls).some((t) => str(t.secretName) !== '' && isDNS1123Subdomain(str(t.secretName)).length > 0),
    allowInvalidWildcardHostRule: objs(oldSpec.rules).some((r) => str(r.host).includes('*') && validateRuleValue(r, FieldPath.of('')).length > 0),
  };
  return validateIngressSpec(obj(ing.spec) ?? {}, opts);
}

/** A status write: load balancer IPs are addresses, hostnames DNS names and not addresses. */
export function validateIngressStatusUpdate(ing: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.of('status', 'loadBalancer', 'ingress');
  objs(obj(obj(ing.status)?.loadBalancer)?.ingress).forEach((lb, i) => {
    const ip = str(lb.ip);
    if (ip !== '' && !parseIP(ip)) errs.push(invalid(path.index(i).child('ip'), ip, 'must be a valid IP address'));
    const hostname = str(lb.hostname);
    if (hostname !== '') {
      errs.push(...isDNS1123Subdomain(hostname).map((m) => invalid(path.index(i).child('hostname'), hostname, m)));
      if (parseIP(hostname)) errs.push(invalid(path.index(i).child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
