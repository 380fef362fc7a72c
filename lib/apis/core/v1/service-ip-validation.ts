/**
 * The dual-stack fields of a Service — `clusterIP`, `clusterIPs`, `ipFamilies`,
 * `ipFamilyPolicy` — checked alone and across updates, with the upstream paths and messages
 * (upstream core validation `ValidateServiceClusterIPsRelatedFields`,
 * `validateUpgradeDowngradeClusterIPs`, `validateUpgradeDowngradeIPFamilies`). Unknown family
 * and policy names are reported by the schema's enums.
 */
import { duplicate, type FieldError, FieldPath, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { isDualStackIPs, isIPv6String, validateIP } from '../../../apimachinery/validation/ip.js';
import type { Obj } from '../../define.js';

/** IP family names, in upstream's sorted order. */
export const IP_FAMILIES = ['IPv4', 'IPv6'];
/** IP family policies, in upstream's sorted order. */
export const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

const specPath = FieldPath.of('spec');
const clusterIPsPath = specPath.child('clusterIPs');
const ipFamiliesPath = specPath.child('ipFamilies');
const policyPath = specPath.child('ipFamilyPolicy');

const strings = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
const specOf = (s: Obj): Obj => (s.spec as Obj | undefined) ?? {};

/** A headless Service: `clusterIPs` is exactly `["None"]`. */
export function isHeadless(service: Obj): boolean {
  const ips = strings(specOf(service).clusterIPs);
  return ips.length === 1 && ips[0] === 'None';
}

/** Standalone checks (create and update); ExternalName Services are checked elsewhere. */
export function validateClusterIPsRelatedFields(service: Obj): FieldError[] {
  const spec = specOf(service);
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = (spec.clusterIP as string | undefined) ?? '';
  const clusterIPs = strings(spec.clusterIPs);
  const families = strings(spec.ipFamilies);
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(required(clusterIPsPath));
    else if (clusterIPs[0] !== clusterIP) errs.push(invalid(clusterIPsPath, clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length > 0) {
    errs.push(invalid(clusterIPsPath, clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (f === '') errs.push(notSupported(ipFamiliesPath.index(i), f, IP_FAMILIES));
    if (seen.has(f)) errs.push(duplicate(ipFamiliesPath.index(i), f));
    seen.add(f);
  });
  if (spec.ipFamilyPolicy === '') errs.push(notSupported(policyPath, '', IP_FAMILY_POLICIES));
  let hasInvalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalid(clusterIPsPath, clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateIP(clusterIPsPath.index(i), ip);
    hasInvalidIPs ||= ipErrs.length > 0;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2) errs.push(invalid(clusterIPsPath, clusterIPs, 'may only hold up to 2 values'));
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1 && !isDualStackIPs(clusterIPs))
    errs.push(invalid(clusterIPsPath, clusterIPs, 'may specify no more than one IP for each IP family'));
  if (!isHeadless(service)) {
    clusterIPs.slice(0, families.length).forEach((ip, i) => {
      const v6 = isIPv6String(ip);
      if (families[i] === 'IPv4' && v6) errs.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !v6) errs.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** `clusterIPs` may gain or lose a secondary IP, never change the primary (except to/from ExternalName). */
export function validateClusterIPsUpdate(service: Obj, old: Obj): FieldError[] {
  if (specOf(service).type === 'ExternalName' || specOf(old).type === 'ExternalName') return [];
  if (isHeadless(service) && isHeadless(old)) return [];
  const ips = strings(specOf(service).clusterIPs);
  const oldIPs = strings(specOf(old).clusterIPs);
  const changed = (i: number) => invalid(clusterIPsPath.index(i), ips, 'may not change once set');
  const errs: FieldError[] = [];
  if (oldIPs.length === ips.length) {
    for (const [i, ip] of oldIPs.entries()) if (ip !== ips[i]) errs.push(changed(i));
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalid(clusterIPsPath.index(0), ips, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(changed(0));
    if (ips.length === 1 && specOf(service).ipFamilyPolicy !== 'SingleStack')
      errs.push(invalid(policyPath, specOf(service).ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(changed(0));
  }
  return errs;
}

/** `ipFamilies` may gain or lose a secondary family, never change the primary (headless excepted). */
export function validateIPFamiliesUpdate(service: Obj, old: Obj): FieldError[] {
  if (specOf(service).type === 'ExternalName' || specOf(old).type === 'ExternalName') return [];
  if (isHeadless(service) || isHeadless(old)) return [];
  const families = strings(specOf(service).ipFamilies);
  const oldFamilies = strings(specOf(old).ipFamilies);
  const ips = strings(specOf(service).clusterIPs);
  const errs: FieldError[] = [];
  if (oldFamilies.length === families.length) {
    for (const [i, f] of oldFamilies.entries()) if (f !== families[i]) errs.push(invalid(ipFamiliesPath.index(0), families, 'may not change once set'));
  } else if (oldFamilies.length > families.length) {
    if (ips.length === 0) errs.push(invalid(ipFamiliesPath.index(0), families, 'primary ipFamily can not be unset'));
    if (families.length > 0 && families[0] !== oldFamilies[0]) errs.push(invalid(ipFamiliesPath.index(0), ips, 'may not change once set'));
    if (families.length === 1 && specOf(service).ipFamilyPolicy !== 'SingleStack')
      errs.push(invalid(policyPath, specOf(service).ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
    errs.push(invalid(ipFamiliesPath.index(0), ips, 'may not change once set'));
  }
  return errs;
}
