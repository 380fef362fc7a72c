/**
 * The Pod Security checks on security profiles and kernel settings (Pod Security Standards v1.30,
 * upstream pod-security-admission policy): AppArmor (fields and the deprecated annotations),
 * SELinux options, seccomp (baseline: no Unconfined; restricted: RuntimeDefault or Localhost
 * required, Windows pods exempt from v1.25), /proc mount type, and the safe sysctls of each
 * policy version (v1.0, v1.27, v1.29).
 */
import { goQuote } from '../../../apimachinery/go-quote.js';
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { obj, objs, str, strMap } from '../../../apis/core/v1/obj-access.js';
import { APPARMOR_CONTAINER_ANNOTATION_PREFIXES, SECCOMP_CONTAINER_ANNOTATION_PREFIXES, SECCOMP_POD_ANNOTATIONS } from '../../../apis/vendor.js';
import {
  type Check,
  type Forbidden,
  allContainers,
  containerName,
  containerSecurityContext,
  containersPhrase,
  exemptWindows,
  joinQuote,
  pluralize,
  podSecurityContext,
  settersPhrase,
  sortedSet,
} from './check-helpers.js';

/** A profile object's `type` where the profile is set (non-null), else undefined. */
function profileType(sc: Obj | undefined, field: string): string | undefined {
  const p = obj(sc?.[field]);
  return p ? str(p.type) : undefined;
}

/** Explicit bad profile types on the pod and containers: `{pod, containers, values}`. */
function badProfiles(spec: Obj, field: string, ok: (t: string) => boolean): { pod: boolean; containers: string[]; values: string[] } {
  const values: string[] = [];
  const podType = profileType(podSecurityContext(spec), field);
  const pod = podType !== undefined && !ok(podType);
  if (pod) values.push(podType);
  const containers: string[] = [];
  for (const c of allContainers(spec)) {
    const t = profileType(containerSecurityContext(c), field);
    if (t !== undefined && !ok(t)) {
      containers.push(containerName(c));
      values.push(t);
    }
  }
  return { pod, containers, values: sortedSet(values) };
}

const allowedAppArmorType = (t: string) => t === 'RuntimeDefault' || t === 'Localhost';
const allowedAppArmorAnnotation = (v: string) => v === '' || v === 'runtime/default' || v.startsWith('localhost/');

/** AppArmor: profile types other than RuntimeDefault/Localhost, and annotations other than runtime/default, localhost/*, empty. */
function appArmorProfile(meta: Obj, spec: Obj): Forbidden | null {
  const { pod, containers, values } = badProfiles(spec, 'appArmorProfile', allowedAppArmorType);
  const annotations: string[] = [];
  for (const [k, v] of Object.entries(strMap(meta.annotations))) {
    if (APPARMOR_CONTAINER_ANNOTATION_PREFIXES.some((p) => k.startsWith(p)) && !allowedAppArmorAnnotation(v)) annotations.push(`${k}=${goQuote(v)}`);
  }
  annotations.sort();
  const extra = annotations.length > 0 ? [pluralize('annotation', 'annotations', annotations.length)] : [];
  if (!pod && containers.length === 0 && extra.length === 0) return null;
  const all = [...values, ...annotations];
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', all.length),
    detail: `${settersPhrase(pod, containers, extra)} must not set AppArmor profile type to ${joinQuote(all)}`,
  };
}

const SELINUX_TYPES_1_0: ReadonlySet<string> = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

/** SELinux: only the container types above; user and role may not be set. */
function seLinuxOptions(_meta: Obj, spec: Obj): Forbidden | null {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (sc: Obj | undefined): boolean => {
    const o = obj(sc?.seLinuxOptions);
    if (!o) return true;
    let ok = true;
    if (!SELINUX_TYPES_1_0.has(str(o.type))) {
      ok = false;
      badTypes.push(str(o.type));
    }
    if (str(o.user) !== '') [ok, setUser] = [false, true];
    if (str(o.role) !== '') [ok, setRole] = [false, true];
    return ok;
  };
  const pod = !valid(podSecurityContext(spec));
  const containers = allContainers(spec)
    .filter((c) => !valid(containerSecurityContext(c)))
    .map(containerName);
  if (!pod && containers.length === 0) return null;
  const data: string[] = [];
  const types = sortedSet(badTypes);
  if (types.length > 0) data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) data.push('user may not be set');
  if (setRole) data.push('role may not be set');
  return { reason: 'seLinuxOptions', detail: `${settersPhrase(pod, containers)} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
}

const validSeccomp = (t: string) => t === 'Localhost' || t === 'RuntimeDefault';
const validSeccompAnnotation = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

/** Seccomp before v1.19: the pod and container annotations may only name runtime/default, docker/default or localhost/*. */
function seccompBaselineAnnotations(meta: Obj, spec: Obj): Forbidden | null {
  const annotations = strMap(meta.annotations);
  const bad: string[] = [];
  const test = (key: string) => {
    const v = annotations[key];
    if (v !== undefined && !validSeccompAnnotation(v)) bad.push(`${key}=${goQuote(v)}`);
  };
  SECCOMP_POD_ANNOTATIONS.forEach(test);
  for (const c of allContainers(spec)) for (const prefix of SECCOMP_CONTAINER_ANNOTATION_PREFIXES) test(prefix + containerName(c));
  if (bad.length === 0) return null;
  const list = sortedSet(bad);
  return { reason: 'seccompProfile', detail: `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}` };
}

/** Seccomp from v1.19: an explicit `seccompProfile.type` must be RuntimeDefault or Localhost (Unconfined is forbidden). */
function seccompBaselineFields(_meta: Obj, spec: Obj): Forbidden | null {
  const { pod, containers, values } = badProfiles(spec, 'seccompProfile', validSeccomp);
  if (!pod && containers.length === 0) return null;
  return { reason: 'seccompProfile', detail: `${settersPhrase(pod, containers)} must not set securityContext.seccompProfile.type to ${joinQuote(values)}` };
}

/** Restricted seccomp: as baseline, and every container must be covered by a valid pod- or container-level profile. */
function seccompRestricted(meta: Obj, spec: Obj): Forbidden | null {
  const explicit = seccompBaselineFields(meta, spec);
  if (explicit) return explicit;
  const podSet = profileType(podSecurityContext(spec), 'seccompProfile') !== undefined;
  if (podSet) return null;
  const implicit = allContainers(spec)
    .filter((c) => profileType(containerSecurityContext(c), 'seccompProfile') === undefined)
    .map(containerName);
  if (implicit.length === 0) return null;
  return { reason: 'seccompProfile', detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
}

/** /proc mount: a container's `securityContext.procMount`, when set, must be `Default`. */
function procMount(_meta: Obj, spec: Obj): Forbidden | null {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of allContainers(spec)) {
    const pm = containerSecurityContext(c)?.procMount;
    if (pm === undefined || pm === null || pm === 'Default') continue;
    bad.push(containerName(c));
    types.push(str(pm));
  }
  if (bad.length === 0) return null;
  return { reason: 'procMount', detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` };
}

const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];

/** The sysctls check for one policy version's safe set. */
function sysctls(allowed: readonly string[]): (meta: Obj, spec: Obj) => Forbidden | null {
  const safe = new Set(allowed);
  return (_meta, spec) => {
    const bad = objs(podSecurityContext(spec)?.sysctls)
      .map((s) => str(s.name))
      .filter((n) => !safe.has(n));
    return bad.length === 0 ? null : { reason: 'forbidden sysctls', detail: bad.join(', ') };
  };
}

/** The profile checks with their revisions; the restricted seccomp check replaces the baseline one. */
export const PROFILE_CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumVersion: 0, check: appArmorProfile }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [{ minimumVersion: 0, check: seLinuxOptions }] },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    versions: [
      { minimumVersion: 0, check: seccompBaselineAnnotations },
      { minimumVersion: 19, check: seccompBaselineFields },
    ],
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [
      { minimumVersion: 19, check: seccompRestricted, overrides: ['seccompProfile_baseline'] },
      { minimumVersion: 25, check: exemptWindows(seccompRestricted), overrides: ['seccompProfile_baseline'] },
    ],
  },
  { id: 'procMount', level: 'baseline', versions: [{ minimumVersion: 0, check: procMount }] },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [
      { minimumVersion: 0, check: sysctls(SYSCTLS_1_0) },
      { minimumVersion: 27, check: sysctls(SYSCTLS_1_27) },
      { minimumVersion: 29, check: sysctls(SYSCTLS_1_29) },
    ],
  },
];
