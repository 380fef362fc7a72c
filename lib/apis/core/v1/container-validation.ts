/**
 * Validation of a PodSpec's containers, init containers and ephemeral containers with the
 * upstream paths and messages: DNS-label names unique across all containers, image present,
 * ports (range, IANA names unique per container, host port conflicts), env, volume mounts
 * referencing existing volumes, devices, resources, resize policies, probes, lifecycle, security.
 */
import { duplicate, type FieldError, type FieldPath, forbidden, invalid, notFound, notSupported, required } from '../../../apimachinery/field-errors.js';
import { isValidPortName, isValidPortNum } from '../../../apimachinery/validation/ports.js';
import { isDNS1123Label } from '../../../apimachinery/validation/names.js';
import { validateEnv, validateEnvFrom } from './env-validation.js';
import { list, num, obj, objs, str, type Obj } from './obj-access.js';
import { validateLifecycle, validateProbe } from './probe-validation.js';
import { validateContainerResources } from './resources-validation.js';
import { validateSecurityContext } from './security-validation.js';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './volume-validation.js';

/** What container validation needs to know about the pod. */
export interface PodContext {
  /** Valid volumes by name (from validateVolumes). */
  volumes: ReadonlyMap<string, Obj>;
  /** Names of `spec.resourceClaims`. */
  claimNames: ReadonlySet<string>;
  /** `spec.terminationGracePeriodSeconds` (for sleep hooks). */
  gracePeriod: number | undefined;
  /** `spec.hostUsers`, true unless explicitly false. */
  hostUsers: boolean;
}

function validatePorts(ports: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(ports).forEach((p, i) => {
    const pp = path.index(i);
    const name = str(p.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => invalid(pp.child('name'), name, m)));
      else if (names.has(name)) errs.push(duplicate(pp.child('name'), name));
      else names.add(name);
    }
    const containerPort = num(p.containerPort);
    if (containerPort === 0) errs.push(required(pp.child('containerPort')));
    else if (containerPort !== undefined) errs.push(...isValidPortNum(containerPort).map((m) => invalid(pp.child('containerPort'), containerPort, m)));
    const hostPort = num(p.hostPort) ?? 0;
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((m) => invalid(pp.child('hostPort'), hostPort, m)));
  });
  return errs;
}

const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RRO_MODES = ['Disabled', 'Enabled', 'IfPossible'];

function validateVolumeMounts(c: Obj, ctx: PodContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const devices = new Map(objs(c.volumeDevices).map((d) => [str(d.name), str(d.devicePath)]));
  const seen = new Set<string>();
  const privileged = obj(c.securityContext)?.privileged === true;
  objs(c.volumeMounts).forEach((m, i) => {
    const p = path.index(i);
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (!ctx.volumes.has(name)) errs.push(notFound(p.child('name'), name));
    if (seen.has(mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must be unique'));
    seen.add(mountPath);
    if (devices.has(name)) errs.push(invalid(p.child('name'), name, 'must not already exist in volumeDevices'));
    if ([...devices.values()].includes(mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    if (subPath) errs.push(...validateLocalDescendingPath(subPath, path.child('subPath')));
    if (subPathExpr) {
      if (subPath) errs.push(invalid(p.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, path.child('subPathExpr')));
    }
    const propagation = m.mountPropagation;
    if (typeof propagation === 'string') {
      if (!MOUNT_PROPAGATIONS.includes(propagation)) errs.push(notSupported(path.child('mountPropagation'), propagation, MOUNT_PROPAGATIONS));
      if (propagation === 'Bidirectional' && !privileged)
        errs.push(forbidden(path.child('mountPropagation'), 'Bidirectional mount propagation is available only to privileged containers'));
    }
    const rro = m.recursiveReadOnly;
    if (typeof rro === 'string' && rro !== 'Disabled') {
      const rroPath = path.child('recursiveReadOnly');
      if (!RRO_MODES.includes(rro)) errs.push(notSupported(rroPath, rro, RRO_MODES));
      else {
        if (m.readOnly !== true) errs.push(forbidden(rroPath, 'may only be specified when readOnly is true'));
        if (propagation !== undefined && propagation !== 'None') errs.push(forbidden(rroPath, 'may only be specified when mountPropagation is None or not specified'));
      }
    }
  });
  return errs;
}

function validateVolumeDevices(c: Obj, ctx: PodContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = new Map(objs(c.volumeMounts).map((m) => [str(m.name), str(m.mountPath)]));
  const names = new Set<string>();
  const paths = new Set<string>();
  objs(c.volumeDevices).forEach((d, i) => {
    const p = path.index(i);
    const name = str(d.name);
    const devicePath = str(d.devicePath);
    const vol = ctx.volumes.get(name);
    if (names.has(name)) errs.push(invalid(p.child('name'), name, 'must be unique'));
    if (vol && !obj(vol.persistentVolumeClaim) && !obj(vol.ephemeral))
      errs.push(invalid(p.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!vol) errs.push(notFound(p.child('name'), name));
    if (paths.has(devicePath)) errs.push(invalid(p.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath && validatePathNoBacksteps(devicePath, p).length > 0) errs.push(invalid(p.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mounts.has(name)) errs.push(invalid(p.child('name'), name, 'must not already exist in volumeMounts'));
    if ([...mounts.values()].includes(devicePath)) errs.push(invalid(p.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errs;
}

function validateResizePolicy(policies: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(policies).forEach((p, i) => {
    const resource = str(p.resourceName);
    const restart = str(p.restartPolicy);
    if (seen.has(resource)) errs.push(duplicate(path.index(i), resource));
    seen.add(resource);
    if (!resource) errs.push(required(path));
    else if (resource !== 'cpu' && resource !== 'memory') errs.push(notSupported(path, resource, ['cpu', 'memory']));
    if (!restart) errs.push(required(path));
    else if (restart !== 'NotRequired' && restart !== 'RestartContainer') errs.push(notSupported(path, restart, ['NotRequired', 'RestartContainer']));
  });
  return errs;
}

/** The checks every kind of container gets (upstream validateContainerCommon). */
function validateContainerCommon(c: Obj, ctx: PodContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (name) errs.push(...isDNS1123Label(name).map((m) => invalid(path.child('name'), name, m)));
  if (!str(c.image)) errs.push(required(path.child('image')));
  errs.push(...validatePorts(c.ports, path.child('ports')));
  errs.push(...validateEnv(c.env, path.child('env')));
  errs.push(...validateEnvFrom(c.envFrom, path.child('envFrom')));
  errs.push(...validateVolumeMounts(c, ctx, path.child('volumeMounts')));
  errs.push(...validateVolumeDevices(c, ctx, path.child('volumeDevices')));
  errs.push(...validateContainerResources(c.resources, ctx.claimNames, path.child('resources')));
  errs.push(...validateResizePolicy(c.resizePolicy, path.child('resizePolicy')));
  errs.push(...validateSecurityContext(c.securityContext, ctx.hostUsers, path.child('securityContext')));
  return errs;
}

function validateProbesAndLifecycle(c: Obj, ctx: PodContext, path: FieldPath): FieldError[] {
  return [
    ...(obj(c.lifecycle) ? validateLifecycle(c.lifecycle, ctx.gracePeriod, path.child('lifecycle')) : []),
    ...validateProbe(c.livenessProbe, 'liveness', ctx.gracePeriod, path.child('livenessProbe')),
    ...validateProbe(c.readinessProbe, 'readiness', ctx.gracePeriod, path.child('readinessProbe')),
    ...validateProbe(c.startupProbe, 'startup', ctx.gracePeriod, path.child('startupProbe')),
  ];
}

/** Host ports (protocol/hostIP/port) may not be used twice among `containers`. */
function checkHostPortConflicts(containers: Obj[], path: FieldPath, indexOffset = 0): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    objs(c.ports).forEach((p, pi) => {
      const port = num(p.hostPort) ?? 0;
      if (port === 0) return;
      const key = `${str(p.protocol)}/${str(p.hostIP)}/${port}`;
      if (seen.has(key)) errs.push(duplicate(path.index(ci + indexOffset).child('ports').index(pi).child('hostPort'), key));
      seen.add(key);
    });
  });
  return errs;
}

/** Validates `spec.containers` at `path`. */
export function validateContainers(containers: unknown, ctx: PodContext, path: FieldPath): FieldError[] {
  if (Array.isArray(containers) && containers.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const all = objs(containers);
  all.forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, ctx, p));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    names.add(name);
    errs.push(...validateProbesAndLifecycle(c, ctx, p));
    if (c.restartPolicy !== undefined) errs.push(forbidden(p.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(all, path));
  return errs;
}

const INIT_ONLY = 'may not be set for init containers without restartPolicy=Always';

/** Validates `spec.initContainers` at `path`; names must also differ from regular containers. */
export function validateInitContainers(initContainers: unknown, containers: unknown, ctx: PodContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(objs(containers).map((c) => str(c.name)));
  objs(initContainers).forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, ctx, p));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name) names.add(name);
    errs.push(...checkHostPortConflicts([c], path, i));
    if (c.restartPolicy === 'Always') errs.push(...validateProbesAndLifecycle(c, ctx, p));
    else for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) if (c[k] !== undefined) errs.push(forbidden(p.child(k), INIT_ONLY));
    if (list(c.resizePolicy).length > 0) errs.push(invalid(p.child('resizePolicy'), c.resizePolicy, 'must not be set for init containers'));
  });
  return errs;
}

/** Container fields an ephemeral container may not set. */
const EPHEMERAL_FORBIDDEN = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

const isZero = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && Object.values(v as Obj).every(isZero));

/** Validates `spec.ephemeralContainers` at `path`. */
export function validateEphemeralContainers(ephemeral: unknown, containers: unknown, initContainers: unknown, ctx: PodContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...objs(containers), ...objs(initContainers)].map((c) => str(c.name)));
  const all = new Set(others);
  objs(ephemeral).forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, ctx, p));
    errs.push(...validateImageWhitespace(c, p));
    const name = str(c.name);
    if (all.has(name)) errs.push(duplicate(p.child('name'), name));
    else all.add(name);
    const target = str(c.targetContainerName);
    if (target && !others.has(target)) errs.push(notFound(p.child('targetContainerName'), target));
    for (const k of EPHEMERAL_FORBIDDEN) if (!isZero(c[k])) errs.push(forbidden(p.child(k), 'cannot be set for an Ephemeral Container'));
    objs(c.volumeMounts).forEach((m, j) => {
      for (const k of ['subPath', 'subPathExpr'])
        if (str(m[k])) errs.push(forbidden(p.child('volumeMounts').index(j).child(k), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

/** Pod-only check (not for templates): no leading or trailing whitespace in `image`. */
export function validateImageWhitespace(c: Obj, path: FieldPath): FieldError[] {
  const image = str(c.image);
  return image.trim() !== image ? [invalid(path.child('image'), image, 'must not have leading or trailing whitespace')] : [];
}
