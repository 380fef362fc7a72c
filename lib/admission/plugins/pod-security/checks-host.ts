/**
 * The baseline checks on host access (Pod Security Standards v1.30, upstream
 * pod-security-admission policy): Windows hostProcess, host namespaces, privileged containers,
 * hostPath volumes and host ports. Every one applies from policy version v1.0.
 */
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { obj, objs, str } from '../../../apis/core/v1/obj-access.js';
import {
  type Check,
  type Forbidden,
  allContainers,
  containerName,
  containerSecurityContext,
  containersPhrase,
  joinQuote,
  pluralize,
  podSecurityContext,
  settersPhrase,
  sortedSet,
} from './check-helpers.js';

/** `securityContext.windowsOptions.hostProcess` must not be true on the pod or any container. */
function windowsHostProcess(_meta: Obj, spec: Obj): Forbidden | null {
  const hostProcess = (sc: Obj | undefined) => obj(sc?.windowsOptions)?.hostProcess === true;
  const bad = allContainers(spec).filter((c) => hostProcess(containerSecurityContext(c))).map(containerName);
  const pod = hostProcess(podSecurityContext(spec));
  if (!pod && bad.length === 0) return null;
  return { reason: 'hostProcess', detail: `${settersPhrase(pod, bad)} must not set securityContext.windowsOptions.hostProcess=true` };
}

/** `hostNetwork`, `hostPID`, `hostIPC` must not be true. */
function hostNamespaces(_meta: Obj, spec: Obj): Forbidden | null {
  const set = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((f) => spec[f] === true);
  if (set.length === 0) return null;
  return { reason: 'host namespaces', detail: sortedSet(set).join(', ') };
}

/** No container may set `securityContext.privileged=true`. */
function privileged(_meta: Obj, spec: Obj): Forbidden | null {
  const bad = allContainers(spec)
    .filter((c) => containerSecurityContext(c)?.privileged === true)
    .map(containerName);
  if (bad.length === 0) return null;
  return { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` };
}

/** No volume may be a hostPath. */
function hostPathVolumes(_meta: Obj, spec: Obj): Forbidden | null {
  const bad = objs(spec.volumes)
    .filter((v) => v.hostPath !== undefined && v.hostPath !== null)
    .map((v) => str(v.name));
  if (bad.length === 0) return null;
  return { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}` };
}

/** No container port may set a non-zero `hostPort`. */
function hostPorts(_meta: Obj, spec: Obj): Forbidden | null {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of allContainers(spec)) {
    const used = objs(c.ports)
      .map((p) => p.hostPort)
      .filter((hp): hp is number => typeof hp === 'number' && hp !== 0);
    if (used.length === 0) continue;
    bad.push(containerName(c));
    ports.push(...used.map(String));
  }
  if (bad.length === 0) return null;
  const list = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail: `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`,
  };
}

/** The host-access checks, each with its single v1.0 revision. */
export const HOST_CHECKS: readonly Check[] = [
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumVersion: 0, check: windowsHostProcess }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumVersion: 0, check: hostNamespaces }] },
  { id: 'privileged', level: 'baseline', versions: [{ minimumVersion: 0, check: privileged }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minimumVersion: 0, check: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumVersion: 0, check: hostPorts }] },
];
