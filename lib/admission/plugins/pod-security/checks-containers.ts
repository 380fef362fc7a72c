/**
 * The Pod Security checks on container privileges and volume types (Pod Security Standards
 * v1.30, upstream pod-security-admission policy): capabilities (baseline: only the default set
 * may be added; restricted from v1.22: drop ALL, add only NET_BIND_SERVICE), restricted volume
 * types, allowPrivilegeEscalation=false (v1.8), runAsNonRoot (v1.0) and runAsUser≠0 (v1.23).
 * The Linux-only restricted checks exempt Windows pods from v1.25.
 */
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { list, obj, objs, str } from '../../../apis/core/v1/obj-access.js';
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

/** A container's `securityContext.capabilities`, or undefined. */
const capabilitiesOf = (c: Obj) => obj(containerSecurityContext(c)?.capabilities);
const names = (v: unknown) => list(v).map((x) => str(x));

const DEFAULT_CAPABILITIES: ReadonlySet<string> = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

/** Baseline: `capabilities.add` only from the default set. */
function capabilitiesBaseline(_meta: Obj, spec: Obj): Forbidden | null {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of allContainers(spec)) {
    const extra = names(capabilitiesOf(c)?.add).filter((x) => !DEFAULT_CAPABILITIES.has(x));
    if (extra.length === 0) continue;
    bad.push(containerName(c));
    caps.push(...extra);
  }
  if (bad.length === 0) return null;
  return { reason: 'non-default capabilities', detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add` };
}

/** Restricted: every container drops ALL and adds nothing but NET_BIND_SERVICE. */
function capabilitiesRestricted(_meta: Obj, spec: Obj): Forbidden | null {
  const missingDropAll: string[] = [];
  const adding: string[] = [];
  const caps: string[] = [];
  for (const c of allContainers(spec)) {
    const capabilities = capabilitiesOf(c);
    if (!capabilities) {
      missingDropAll.push(containerName(c));
      continue;
    }
    if (!names(capabilities.drop).includes('ALL')) missingDropAll.push(containerName(c));
    const forbidden = names(capabilities.add).filter((x) => x !== 'NET_BIND_SERVICE');
    if (forbidden.length > 0) {
      adding.push(containerName(c));
      caps.push(...forbidden);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length > 0) details.push(`${containersPhrase(adding)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`);
  return details.length === 0 ? null : { reason: 'unrestricted capabilities', detail: details.join('; ') };
}

/** The inline volume sources the restricted level allows. */
const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
/** The restricted volume sources, in upstream's order of precedence. */
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const present = (v: Obj, field: string) => v[field] !== undefined && v[field] !== null;

/** Restricted: volumes only of the allowed inline sources (replaces the baseline hostPath check). */
function restrictedVolumes(_meta: Obj, spec: Obj): Forbidden | null {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of objs(spec.volumes)) {
    if (ALLOWED_VOLUME_SOURCES.some((f) => present(v, f))) continue;
    bad.push(str(v.name));
    types.push(RESTRICTED_VOLUME_SOURCES.find((f) => present(v, f)) ?? 'unknown');
  }
  if (bad.length === 0) return null;
  const list = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}`,
  };
}

/** Restricted: every container sets `allowPrivilegeEscalation: false`. */
function allowPrivilegeEscalation(_meta: Obj, spec: Obj): Forbidden | null {
  const bad = allContainers(spec)
    .filter((c) => containerSecurityContext(c)?.allowPrivilegeEscalation !== false)
    .map(containerName);
  if (bad.length === 0) return null;
  return { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false` };
}

/** Restricted: runAsNonRoot true at the pod level or on every container, never false. */
function runAsNonRoot(_meta: Obj, spec: Obj): Forbidden | null {
  const podValue = podSecurityContext(spec)?.runAsNonRoot;
  const pod = podValue === false;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of allContainers(spec)) {
    const v = containerSecurityContext(c)?.runAsNonRoot;
    if (typeof v === 'boolean') {
      if (!v) explicit.push(containerName(c));
    } else if (podValue !== true) {
      implicit.push(containerName(c));
    }
  }
  if (pod || explicit.length > 0) return { reason: 'runAsNonRoot != true', detail: `${settersPhrase(pod, explicit)} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length > 0) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true` };
  return null;
}

/** Restricted: no `runAsUser: 0` on the pod or a container. */
function runAsUser(_meta: Obj, spec: Obj): Forbidden | null {
  const pod = podSecurityContext(spec)?.runAsUser === 0;
  const bad = allContainers(spec)
    .filter((c) => containerSecurityContext(c)?.runAsUser === 0)
    .map(containerName);
  if (!pod && bad.length === 0) return null;
  return { reason: 'runAsUser=0', detail: `${settersPhrase(pod, bad)} must not set runAsUser=0` };
}

/** The container checks with their revisions. */
export const CONTAINER_CHECKS: readonly Check[] = [
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minimumVersion: 0, check: capabilitiesBaseline }] },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [
      { minimumVersion: 22, check: capabilitiesRestricted, overrides: ['capabilities_baseline'] },
      { minimumVersion: 25, check: exemptWindows(capabilitiesRestricted), overrides: ['capabilities_baseline'] },
    ],
  },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimumVersion: 0, check: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    versions: [
      { minimumVersion: 8, check: allowPrivilegeEscalation },
      { minimumVersion: 25, check: exemptWindows(allowPrivilegeEscalation) },
    ],
  },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minimumVersion: 0, check: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minimumVersion: 23, check: runAsUser }] },
];
