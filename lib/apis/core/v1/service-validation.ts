/**
 * Service validation with the upstream paths and messages (upstream core validation
 * `ValidateService`, `validateServicePort`, `ValidateServiceUpdate`, `ValidateServiceStatusUpdate`,
 * `ValidateLoadBalancerStatus`). Unknown enum values (type, sessionAffinity, protocols, traffic
 * policies, ipMode) are reported by the schema; explicit empty strings, which upstream's Go
 * defaulting would have replaced, are reported here as upstream validation would.
 * ObjectMeta (DNS-1035 label names) is checked by the caller.
 */
import { duplicate, type FieldError, FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { parseIP, validateCIDR, validateIP, validateNonSpecialIP } from '../../../apimachinery/validation/ip.js';
import { validateLabelMap } from '../../../apimachinery/validation/label-map.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/names.js';
import { isValidPortName, isValidPortNum } from '../../../apimachinery/validation/ports.js';
import { vendorGroup } from '../../vendor.js';
import { str, type Obj } from './obj-access.js';
import { isExternallyAccessible } from './service-defaults.js';
import { isHeadless, validateClusterIPsRelatedFields, validateClusterIPsUpdate, validateIPFamiliesUpdate } from './service-ip-validation.js';

/** Longest ClientIP affinity timeout (one day). */
export const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

/** Annotations upstream validates on Services. */
export const SERVICE_ANNOTATIONS = {
  topologyAwareHints: `${vendorGroup('service')}/topology-aware-hints`,
  topologyMode: `${vendorGroup('service')}/topology-mode`,
  loadBalancerSourceRanges: `${vendorGroup('service.beta')}/load-balancer-source-ranges`,
} as const;

const specPath = FieldPath.of('spec');
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
const specOf = (s: Obj): Obj => (s.spec as Obj | undefined) ?? {};
const qualified = (value: string, path: FieldPath) => isQualifiedName(value).map((m) => invalid(path, value, m));

function validatePort(p: Obj, requireName: boolean, names: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(p.name);
  if (requireName && name === '') errs.push(required(path.child('name')));
  else if (name !== '') {
    errs.push(...isDNS1123Label(name).map((m) => invalid(path.child('name'), name, m)));
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    names.add(name);
  }
  if (typeof p.port === 'number') errs.push(...isValidPortNum(p.port).map((m) => invalid(path.child('port'), p.port, m)));
  if (p.protocol === '') errs.push(required(path.child('protocol')));
  const target = p.targetPort ?? 0;
  if (typeof target === 'number') errs.push(...isValidPortNum(target).map((m) => invalid(path.child('targetPort'), target, m)));
  else errs.push(...isValidPortName(String(target)).map((m) => invalid(path.child('targetPort'), target, m)));
  if (p.appProtocol !== undefined) errs.push(...qualified(str(p.appProtocol), path.child('appProtocol')));
  return errs;
}

function validateTypeSpecific(service: Obj): FieldError[] {
  const spec = specOf(service);
  const firstIP = strings(spec.clusterIPs)[0];
  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      return isHeadless(service)
        ? [invalid(specPath.child('clusterIPs').index(0), firstIP, `may not be set to 'None' for ${spec.type} services`)]
        : [];
    case 'ExternalName': {
      const errs: FieldError[] = [];
      if (strings(spec.clusterIPs).length > 0) errs.push(forbidden(specPath.child('clusterIPs'), 'may not be set for ExternalName services'));
      if (strings(spec.ipFamilies).length > 0) errs.push(forbidden(specPath.child('ipFamilies'), 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined) errs.push(forbidden(specPath.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      const cname = str(spec.externalName).replace(/\.$/, '');
      if (cname === '') errs.push(required(specPath.child('externalName')));
      else errs.push(...isDNS1123Subdomain(cname).map((m) => invalid(specPath.child('externalName'), cname, m)));
      return errs;
    }
    default:
      return [];
  }
}

function validateSessionAffinity(spec: Obj): FieldError[] {
  const path = specPath.child('sessionAffinityConfig');
  if (spec.sessionAffinity === '') return [required(specPath.child('sessionAffinity'))];
  if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig !== undefined) return [forbidden(path, 'must not be set when session affinity is None')];
  if (spec.sessionAffinity !== 'ClientIP') return [];
  const detail = 'when session affinity type is ClientIP';
  const config = spec.sessionAffinityConfig as Obj | undefined;
  if (!config) return [required(path, detail)];
  const clientIP = config.clientIP as Obj | undefined;
  if (!clientIP) return [required(path.child('clientIP'), detail)];
  const timeout = clientIP.timeoutSeconds;
  if (typeof timeout !== 'number') return [required(path.child('clientIP', 'timeoutSeconds'), detail)];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS)
    return [invalid(path.child('clientIP', 'timeoutSeconds'), timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
  return [];
}

function validatePortUniqueness(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ports = list(spec.ports);
  const portsPath = specPath.child('ports');
  if (spec.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(forbidden(portsPath.index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  const numbers = new Set<string>();
  ports.forEach((p, i) => {
    if (p.nodePort) {
      const key = `${str(p.protocol)}/${String(p.nodePort)}`;
      if (nodePorts.has(key)) errs.push(duplicate(portsPath.index(i).child('nodePort'), p.nodePort));
      nodePorts.add(key);
    }
    const key = `${str(p.protocol)}/${String(p.port ?? 0)}`;
    if (numbers.has(key)) errs.push(duplicate(portsPath.index(i), { port: p.port ?? 0, protocol: str(p.protocol) }));
    numbers.add(key);
  });
  return errs;
}

function validateSourceRanges(service: Obj): FieldError[] {
  const spec = specOf(service);
  const errs: FieldError[] = [];
  const notLB = spec.type !== 'LoadBalancer';
  const lbOnly = "may only be used when `type` is 'LoadBalancer'";
  const ranges = strings(spec.loadBalancerSourceRanges);
  const annotation = ((service.metadata as Obj | undefined)?.annotations as Record<string, string> | undefined)?.[SERVICE_ANNOTATIONS.loadBalancerSourceRanges];
  if (ranges.length > 0) {
    const path = specPath.child('LoadBalancerSourceRanges');
    if (notLB) errs.push(forbidden(path, lbOnly));
    ranges.forEach((r, i) => errs.push(...validateCIDR(path.index(i), r.trim())));
  } else if (annotation !== undefined) {
    const path = FieldPath.of('metadata', 'annotations').key(SERVICE_ANNOTATIONS.loadBalancerSourceRanges);
    if (notLB) errs.push(forbidden(path, lbOnly));
    const value = annotation.trim();
    if (value !== '') for (const r of value.split(',')) errs.push(...validateCIDR(path, r.trim()));
  }
  return errs;
}

function validateTrafficFields(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const etp = str(spec.externalTrafficPolicy);
  if (!isExternallyAccessible(spec)) {
    if (etp !== '') errs.push(invalid(specPath.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'));
  } else if (etp === '') {
    errs.push(required(specPath.child('externalTrafficPolicy')));
  }
  const hcnp = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  const hcPath = specPath.child('healthCheckNodePort');
  if (!(spec.type === 'LoadBalancer' && etp === 'Local')) {
    if (hcnp !== 0) errs.push(invalid(hcPath, hcnp, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hcnp === 0) {
    errs.push(required(hcPath));
  } else {
    errs.push(...isValidPortNum(hcnp).map((m) => invalid(hcPath, hcnp, m)));
  }
  const itp = spec.internalTrafficPolicy;
  if (itp === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(str(spec.type))) errs.push(required(specPath.child('internalTrafficPolicy')));
  if (itp === '') errs.push(notSupported(specPath.child('internalTrafficPolicy'), '', ['Cluster', 'Local']));
  if (spec.trafficDistribution === '') errs.push(notSupported(specPath.child('trafficDistribution'), '', ['PreferClose']));
  return errs;
}

function validateLoadBalancerFields(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const isLB = spec.type === 'LoadBalancer';
  if (spec.allocateLoadBalancerNodePorts !== undefined && !isLB)
    errs.push(forbidden(specPath.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  if (isLB && spec.allocateLoadBalancerNodePorts === undefined) errs.push(required(FieldPath.of('allocateLoadBalancerNodePorts')));
  if (spec.loadBalancerClass !== undefined) {
    const path = specPath.child('loadBalancerClass');
    if (isLB) errs.push(...qualified(str(spec.loadBalancerClass), path));
    else errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** Create (and every update): the rules of upstream `ValidateService`. */
export function validateService(service: Obj): FieldError[] {
  const spec = specOf(service);
  const errs: FieldError[] = [];
  const annotations = ((service.metadata as Obj | undefined)?.annotations ?? {}) as Record<string, string>;
  const hints = annotations[SERVICE_ANNOTATIONS.topologyAwareHints];
  const mode = annotations[SERVICE_ANNOTATIONS.topologyMode];
  if (hints !== undefined && mode !== undefined && hints !== mode)
    errs.push(invalid(FieldPath.of('metadata', 'annotations').key(SERVICE_ANNOTATIONS.topologyMode), mode, `must match annotations[${SERVICE_ANNOTATIONS.topologyAwareHints}] when both are specified`));
  const ports = list(spec.ports);
  if (ports.length === 0 && !isHeadless(service) && spec.type !== 'ExternalName') errs.push(required(specPath.child('ports')));
  errs.push(...validateTypeSpecific(service));
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validatePort(p, ports.length > 1, names, specPath.child('ports').index(i))));
  if (spec.selector !== undefined) errs.push(...validateLabelMap(spec.selector, specPath.child('selector')));
  errs.push(...validateSessionAffinity(spec));
  errs.push(...validateClusterIPsRelatedFields(service));
  strings(spec.externalIPs).forEach((ip, i) => {
    const path = specPath.child('externalIPs').index(i);
    const ipErrs = validateIP(path, ip);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateNonSpecialIP(ip, path)));
  });
  if (spec.type === '') errs.push(required(specPath.child('type')));
  errs.push(...validatePortUniqueness(spec));
  errs.push(...validateSourceRanges(service));
  errs.push(...validateLoadBalancerFields(spec));
  errs.push(...validateTrafficFields(spec));
  return errs;
}

/**
 * Update, beyond validateService: cluster IPs and IP families keep their primary value (except
 * to/from ExternalName), `loadBalancerClass` is fixed while the type stays LoadBalancer, and
 * `healthCheckNodePort` is fixed while one is needed.
 */
export function validateServiceUpdate(service: Obj, old: Obj): FieldError[] {
  const spec = specOf(service);
  const oldSpec = specOf(old);
  const errs = [...validateClusterIPsUpdate(service, old), ...validateIPFamiliesUpdate(service, old)];
  if (spec.type === 'LoadBalancer' && oldSpec.type === 'LoadBalancer' && spec.loadBalancerClass !== oldSpec.loadBalancerClass)
    errs.push(invalid(specPath.child('loadBalancerClass'), spec.loadBalancerClass ?? null, 'may not change once set'));
  const needsHealthCheck = (s: Obj) => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
  if (needsHealthCheck(spec) && needsHealthCheck(oldSpec) && spec.healthCheckNodePort !== oldSpec.healthCheckNodePort)
    errs.push(forbidden(specPath.child('healthCheckNodePort'), 'field is immutable'));
  return errs;
}

/** Status write: `status.loadBalancer.ingress` only on LoadBalancer Services, with valid IPs, modes and hostnames. */
export function validateServiceStatusUpdate(service: Obj): FieldError[] {
  const ingress = list(((service.status as Obj | undefined)?.loadBalancer as Obj | undefined)?.ingress);
  const path = FieldPath.of('status', 'loadBalancer', 'ingress');
  if (specOf(service).type !== 'LoadBalancer' && ingress.length > 0) return [forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'")];
  const errs: FieldError[] = [];
  ingress.forEach((ing, i) => {
    const p = path.index(i);
    const ip = str(ing.ip);
    if (ip !== '') errs.push(...validateIP(p.child('ip'), ip));
    if (ing.ipMode === undefined) {
      if (ip !== '') errs.push(required(p.child('ipMode'), 'must be specified when `ip` is set'));
    } else if (ip === '') {
      errs.push(forbidden(p.child('ipMode'), 'may not be specified when `ip` is not set'));
    } else if (ing.ipMode === '') {
      errs.push(notSupported(p.child('ipMode'), '', ['Proxy', 'VIP']));
    }
    const hostname = str(ing.hostname);
    if (hostname !== '') {
      errs.push(...isDNS1123Subdomain(hostname).map((m) => invalid(p.child('hostname'), hostname, m)));
      if (parseIP(hostname)) errs.push(invalid(p.child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
