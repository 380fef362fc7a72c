/**
 * The IP family fields of a Service before allocation (upstream service allocator
 * `initIPFamilyFields`): `ipFamilyPolicy` inferred (the old policy on update; RequireDualStack
 * for headless selector-less Services; else SingleStack), `ipFamilies` inferred from the given
 * `clusterIPs` and the cluster's families, and the rules on single-stack clusters, with
 * upstream's paths and messages. Pure: mutates the Service, returns the field errors.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { type FieldError, FieldPath, goStringSlice, invalid } from '../../../apimachinery/field-errors.js';
import { validateClusterIPsRelatedFields } from '../../../apis/core/v1/service-ip-validation.js';
import type { Obj } from '../../../apis/define.js';
import { familyOfIP, type IPFamily, otherFamily } from './ipam.js';
import { specOf, strings } from './service-fields.js';

const policyPath = FieldPath.of('spec', 'ipFamilyPolicy');
const clusterIPsPath = FieldPath.of('spec', 'clusterIPs');
const ipFamiliesPath = FieldPath.of('spec', 'ipFamilies');

const selectorless = (spec: Obj) => Object.keys((spec.selector as Obj | undefined) ?? {}).length === 0;

/** Same `clusterIPs`, element by element. */
export function sameClusterIPs(a: Obj, b: Obj): boolean {
  return deepEqual(strings(specOf(a).clusterIPs), strings(specOf(b).clusterIPs));
}

/** Same `ipFamilies`, element by element. */
export function sameIPFamilies(a: Obj, b: Obj): boolean {
  return deepEqual(strings(specOf(a).ipFamilies), strings(specOf(b).ipFamilies));
}

/**
 * An update of a PreferDualStack Service that changes neither its type, cluster IPs nor
 * families: left as it is, so that a cluster turning dual- or single-stack does not upgrade or
 * downgrade it behind its owner's back.
 */
export function isUnchangedPreferDualStack(svc: Obj, old: Obj | undefined): boolean {
  if (!old) return false;
  const spec = specOf(svc);
  const oldSpec = specOf(old);
  if (spec.ipFamilyPolicy === undefined || spec.type !== oldSpec.type) return false;
  if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(spec.type as string)) return false;
  if (spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  if (oldSpec.ipFamilyPolicy !== undefined && oldSpec.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameClusterIPs(old, svc) && sameIPFamilies(old, svc);
}

/**
 * Sets `ipFamilyPolicy` and `ipFamilies` of `svc` (create: `old` undefined) for a cluster with
 * the service families `families` (primary first); returns the reasons it cannot be served.
 */
export function initIPFamilyFields(svc: Obj, old: Obj | undefined, families: readonly IPFamily[]): FieldError[] {
  const spec = specOf(svc);
  if (spec.type === 'ExternalName' || isUnchangedPreferDualStack(svc, old)) return [];
  const configured = (f: string) => families.includes(f as IPFamily);
  if (spec.ipFamilyPolicy === undefined) {
    const oldPolicy = old ? specOf(old).ipFamilyPolicy : undefined;
    if (oldPolicy !== undefined) spec.ipFamilyPolicy = oldPolicy;
    else spec.ipFamilyPolicy = spec.clusterIP === 'None' && selectorless(spec) ? 'RequireDualStack' : 'SingleStack';
  }
  const loose = validateClusterIPsRelatedFields(svc);
  if (loose.length > 0) return loose;
  const errs: FieldError[] = [];
  const policy = spec.ipFamilyPolicy as string;
  if (old) {
    const oldSpec = specOf(old);
    if (policy === 'SingleStack') {
      if (sameClusterIPs(old, svc) && strings(spec.clusterIPs).length > 1) spec.clusterIPs = strings(spec.clusterIPs).slice(0, 1);
      if (sameIPFamilies(old, svc) && strings(spec.ipFamilies).length > 1) spec.ipFamilies = strings(spec.ipFamilies).slice(0, 1);
    } else {
      const reduced = (field: string) => strings(spec[field]).length > 0 && strings(spec[field]).length < strings(oldSpec[field]).length;
      if (reduced('clusterIPs')) errs.push(invalid(policyPath, policy, "must be 'SingleStack' to release the secondary cluster IP"));
      if (reduced('ipFamilies')) errs.push(invalid(policyPath, policy, "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (policy === 'SingleStack') {
    if (strings(spec.clusterIPs).length === 2) errs.push(invalid(policyPath, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (strings(spec.ipFamilies).length === 2) errs.push(invalid(policyPath, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  const ips = strings(spec.clusterIPs);
  for (const [i, ip] of ips.entries()) {
    if (ip === 'None') break;
    const family = familyOfIP(ip) ?? 'unknown';
    if (i < strings(spec.ipFamilies).length) continue;
    if (!configured(family)) errs.push(invalid(clusterIPsPath.index(i), goStringSlice(ips), `${family} is not configured on this cluster`));
    else spec.ipFamilies = [...strings(spec.ipFamilies), family];
  }
  if (errs.length > 0) return errs;
  if (spec.clusterIP === 'None' && selectorless(spec)) {
    if (strings(spec.ipFamilies).length === 0) spec.ipFamilies = [families[0]];
    const fams = strings(spec.ipFamilies) as IPFamily[];
    if (fams.length < 2 && policy !== 'SingleStack') spec.ipFamilies = [fams[0], otherFamily(fams[0]!)];
    return [];
  }
  if (policy === 'RequireDualStack' && families.length < 2) errs.push(invalid(policyPath, policy, 'this cluster is not configured for dual-stack services'));
  strings(spec.ipFamilies).forEach((f, i) => {
    if (!configured(f)) errs.push(invalid(ipFamiliesPath.index(i), f, 'not configured on this cluster'));
  });
  if (errs.length > 0) return errs;
  if (strings(spec.ipFamilies).length === 0) spec.ipFamilies = [families[0]];
  const fams = strings(spec.ipFamilies) as IPFamily[];
  if (policy !== 'SingleStack' && fams.length === 1 && families.length === 2) spec.ipFamilies = [fams[0], otherFamily(fams[0]!)];
  return [];
}
