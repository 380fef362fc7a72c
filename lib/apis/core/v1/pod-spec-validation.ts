/**
 * Validation of a PodSpec, for a Pod (`resourceIsPod`) or a pod template, and of a
 * PodTemplateSpec, with the upstream paths and messages (`ValidatePodSpec`,
 * `ValidatePodTemplateSpec`). Enums and required fields are checked by the schema.
 */
import { type FieldError, type FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { validateAnnotations, validateLabels } from '../../../apimachinery/validation/object-meta.js';
import { validateContainers, validateEphemeralContainers, validateInitContainers, type PodContext } from './container-validation.js';
import { num, obj, objs, str, type Obj } from './obj-access.js';
import { validateContainerResources } from './resources-validation.js';
import {
  validateAffinity,
  validateDNSConfig,
  validateHostAliases,
  validatePodResourceClaims,
  validateReadinessGates,
  validateSchedulingGates,
  validateTolerations,
  validateTopologySpreadConstraints,
} from './scheduling-validation.js';
import { validatePodSecurityContext } from './security-validation.js';
import { validateVolumes } from './volume-validation.js';

const MAX_INT32 = 2147483647;

/** All containers of a spec with their paths (init, regular, ephemeral). */
function eachContainer(spec: Obj, path: FieldPath): [Obj, FieldPath][] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) => objs(spec[k]).map((c, i): [Obj, FieldPath] => [c, path.child(k).index(i)]));
}

/** Pod `securityContext` fields a windows pod may not set. */
const WINDOWS_POD_SECURITY_FIELDS = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'sysctls', 'runAsUser', 'runAsGroup', 'supplementalGroups'];
const WINDOWS_CONTAINER_FIELDS = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

/** `spec.os`: a supported name and the fields each OS forbids. */
function validateOS(spec: Obj, path: FieldPath): FieldError[] {
  const os = obj(spec.os);
  if (!os) return [];
  const name = str(os.name);
  if (!name) return [required(path.child('os', 'name'), 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [notSupported(path.child('os'), name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const podSc = obj(spec.securityContext) ?? {};
  if (name === 'linux') {
    if (podSc.windowsOptions !== undefined) errs.push(forbidden(path.child('securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    for (const [c, p] of eachContainer(spec, path))
      if (obj(c.securityContext)?.windowsOptions !== undefined) errs.push(forbidden(p.child('securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    return errs;
  }
  const windows = 'cannot be set for a windows pod';
  for (const f of WINDOWS_POD_SECURITY_FIELDS) if (podSc[f] !== undefined) errs.push(forbidden(path.child('securityContext', f), windows));
  for (const f of ['hostUsers', 'shareProcessNamespace']) if (spec[f] !== undefined) errs.push(forbidden(path.child(f), windows));
  for (const f of ['hostPID', 'hostIPC']) if (spec[f] === true) errs.push(forbidden(path.child(f), windows));
  for (const [c, p] of eachContainer(spec, path)) {
    const sc = obj(c.securityContext) ?? {};
    for (const f of WINDOWS_CONTAINER_FIELDS) if (sc[f] !== undefined) errs.push(forbidden(p.child('securityContext', f), windows));
  }
  return errs;
}

function validateHostNetworkPorts(spec: Obj, resourceIsPod: boolean, path: FieldPath): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  objs(spec.containers).forEach((c, i) =>
    objs(c.ports).forEach((p, j) => {
      const hp = num(p.hostPort) ?? 0;
      const cp = num(p.containerPort) ?? 0;
      if ((resourceIsPod || hp !== 0) && hp !== cp)
        errs.push(invalid(path.child('containers').index(i).child('ports').index(j).child('hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
    }),
  );
  return errs;
}

function validateHostUsers(spec: Obj, path: FieldPath): FieldError[] {
  if (spec.hostUsers !== false) return [];
  const when = 'when `pod.Spec.HostUsers` is false';
  const errs: FieldError[] = [];
  if (spec.hostNetwork === true) errs.push(forbidden(path.child('hostNetwork'), when));
  if (spec.hostPID === true) errs.push(forbidden(path.child('HostPID'), when));
  if (spec.hostIPC === true) errs.push(forbidden(path.child('HostIPC'), when));
  return errs;
}

const subdomainField = (spec: Obj, key: string, path: FieldPath): FieldError[] => {
  const v = str(spec[key]);
  return v ? isDNS1123Subdomain(v).map((m) => invalid(path.child(key), v, m)) : [];
};
const labelField = (spec: Obj, key: string, path: FieldPath): FieldError[] => {
  const v = str(spec[key]);
  return v ? isDNS1123Label(v).map((m) => invalid(path.child(key), v, m)) : [];
};

/**
 * Validates a PodSpec at `path`. `podName` (a Pod's name, when known) checks ephemeral claim
 * names; `resourceIsPod` applies the rules that hold for Pods but not for templates.
 */
export function validatePodSpec(spec: Obj, path: FieldPath, opts: { podName?: string; resourceIsPod: boolean }): FieldError[] {
  const { errs, byName } = validateVolumes(spec.volumes, opts.podName, path.child('volumes'));
  const ctx: PodContext = {
    volumes: byName,
    claimNames: new Set(objs(spec.resourceClaims).map((c) => str(c.name)).filter((n) => n !== '')),
    gracePeriod: num(spec.terminationGracePeriodSeconds),
    hostUsers: spec.hostUsers !== false,
  };
  errs.push(...validatePodResourceClaims(spec.resourceClaims, path.child('resourceClaims')));
  errs.push(...validateContainers(spec.containers, ctx, path.child('containers')));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, ctx, path.child('initContainers')));
  errs.push(...validateEphemeralContainers(spec.ephemeralContainers, spec.containers, spec.initContainers, ctx, path.child('ephemeralContainers')));
  errs.push(...validateHostNetworkPorts(spec, opts.resourceIsPod, path));
  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec.securityContext, spec, path.child('securityContext')));
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')));
  errs.push(...validateDNSConfig(spec.dnsConfig, spec.dnsPolicy, path.child('dnsConfig')));
  errs.push(...validateReadinessGates(spec.readinessGates, path.child('readinessGates')));
  errs.push(...validateSchedulingGates(spec.schedulingGates, path.child('schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, path.child('topologySpreadConstraints')));
  errs.push(...validateHostUsers(spec, path));
  for (const key of ['serviceAccountName', 'nodeName', 'priorityClassName', 'runtimeClassName']) errs.push(...subdomainField(spec, key, path));
  const deadline = num(spec.activeDeadlineSeconds);
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32))
    errs.push(invalid(path.child('activeDeadlineSeconds'), deadline, `must be between 1 and ${MAX_INT32}, inclusive`));
  errs.push(...labelField(spec, 'hostname', path), ...labelField(spec, 'subdomain', path));
  errs.push(...validateTolerations(spec.tolerations, path.child('tolerations')));
  errs.push(...validateHostAliases(spec.hostAliases, path.child('hostAliases')));
  if (obj(spec.overhead)) errs.push(...validateContainerResources({ limits: spec.overhead }, ctx.claimNames, path.child('overhead')));
  errs.push(...validateOS(spec, path));
  return errs;
}

/**
 * Validates a PodTemplateSpec at `path` (e.g. `spec.template`): template labels and annotations
 * (reported at `<path>.labels` / `<path>.annotations`, as upstream), the pod spec, and no
 * ephemeral containers.
 */
export function validatePodTemplateSpec(template: unknown, path: FieldPath): FieldError[] {
  const t = obj(template) ?? {};
  const meta = obj(t.metadata) ?? {};
  const spec = obj(t.spec) ?? {};
  const errs = [...validateLabels(meta.labels, path.child('labels')), ...validateAnnotations(meta.annotations, path.child('annotations'))];
  errs.push(...validatePodSpec(spec, path.child('spec'), { resourceIsPod: false }));
  if (objs(spec.ephemeralContainers).length > 0) errs.push(forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}
