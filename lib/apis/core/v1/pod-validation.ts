/**
 * Pod validation with the upstream paths and messages: `validatePod` (the spec and pod-only rules,
 * `ValidatePodCreate`), `validatePodUpdate` (what may change on a running pod, `ValidatePodUpdate`)
 * and `validatePodStatusUpdate` (`ValidatePodStatusUpdate`). spec 001 § Errors (422 causes).
 */
import { duplicate, type FieldError, FieldPath, forbidden, invalid, required } from '../../../apimachinery/field-errors.js';
import { deepCopy } from '../../../apimachinery/deep-equal.js';
import { isDualStackIPs, validateIP } from '../../../apimachinery/validation/ip.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/names.js';
import { validateImageWhitespace } from './container-validation.js';
import { num, obj, objs, str, strMap, type Obj } from './obj-access.js';
import { validatePodSpec } from './pod-spec-validation.js';
import { validateTolerations } from './scheduling-validation.js';
import { diffLines, semanticEqual } from './semantic-equal.js';

const specPath = FieldPath.of('spec');
const statusPath = FieldPath.of('status');

/** Validates a Pod on create (and as the base of an update): spec plus pod-only rules. */
export function validatePod(pod: Obj): FieldError[] {
  const spec = obj(pod.spec) ?? {};
  const name = str(obj(pod.metadata)?.name);
  const errs = validatePodSpec(spec, specPath, { podName: name || undefined, resourceIsPod: true });
  if (!str(spec.serviceAccountName)) {
    objs(spec.volumes).forEach((v, vi) =>
      objs(obj(v.projected)?.sources).forEach((s, si) => {
        if (obj(s.serviceAccountToken))
          errs.push(
            forbidden(specPath.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken'), 'must not be specified when serviceAccountName is not set'),
          );
      }),
    );
  }
  for (const key of ['containers', 'initContainers']) objs(spec[key]).forEach((c, i) => errs.push(...validateImageWhitespace(c, specPath.child(key).index(i))));
  if (objs(spec.ephemeralContainers).length > 0) errs.push(forbidden(specPath.child('ephemeralContainers'), 'cannot be set on create'));
  if (str(spec.nodeName) && objs(spec.schedulingGates).length > 0)
    errs.push(forbidden(specPath.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  return errs;
}

/** The spec fields a pod update may change (upstream message order). */
const UPDATABLE = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

function validateContainerUpdates(next: Obj[], old: Obj[], path: FieldPath): { errs: FieldError[]; stop: boolean } {
  if (next.length !== old.length) return { errs: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    if (!str(c.image)) errs.push(required(path.index(i).child('image')));
    errs.push(...validateImageWhitespace(c, path.index(i)));
  });
  return { errs, stop: false };
}

/** Old tolerations must all remain (only tolerationSeconds may change); new ones may be added. */
function validateOnlyAddedTolerations(next: Obj[], old: Obj[], path: FieldPath): FieldError[] {
  for (const o of old) {
    const kept = next.some((n) => semanticEqual({ ...o, tolerationSeconds: n.tolerationSeconds }, n));
    if (!kept) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, path);
}

function validateOnlyDeletedGates(next: Obj[], old: Obj[], path: FieldPath): FieldError[] {
  const before = new Set(old.map((g) => str(g.name)));
  return next.flatMap((g, i) =>
    before.has(str(g.name)) ? [] : [forbidden(path.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${str(g.name)}'`)],
  );
}

/**
 * The update rules of a Pod beyond `validatePod`: containers may not be added or removed, the
 * deadline may only be set or lowered, tolerations only added, scheduling gates only removed,
 * and nothing else in the spec may change except images and a negative grace period to 1.
 */
export function validatePodUpdate(pod: Obj, old: Obj): FieldError[] {
  const spec = obj(pod.spec) ?? {};
  const oldSpec = obj(old.spec) ?? {};
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers']) {
    const r = validateContainerUpdates(objs(spec[key]), objs(oldSpec[key]), specPath.child(key));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const deadline = num(spec.activeDeadlineSeconds);
  const oldDeadline = num(oldSpec.activeDeadlineSeconds);
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > 2147483647)
      return [...errs, invalid(specPath.child('activeDeadlineSeconds'), deadline, 'must be between 0 and 2147483647, inclusive')];
    if (oldDeadline !== undefined && oldDeadline < deadline)
      return [...errs, invalid(specPath.child('activeDeadlineSeconds'), deadline, 'must be less than or equal to previous value')];
  } else if (oldDeadline !== undefined) {
    errs.push(invalid(specPath.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(objs(spec.tolerations), objs(oldSpec.tolerations), specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedGates(objs(spec.schedulingGates), objs(oldSpec.schedulingGates), specPath.child('schedulingGates')));
  if (semanticEqual(spec, oldSpec)) return errs;

  const munged = deepCopy(spec);
  for (const key of ['containers', 'initContainers'])
    objs(munged[key]).forEach((c, i) => {
      c.image = objs(oldSpec[key])[i]?.image;
    });
  munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  munged.schedulingGates = oldSpec.schedulingGates;
  munged.tolerations = oldSpec.tolerations;
  const oldGrace = num(oldSpec.terminationGracePeriodSeconds);
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (objs(oldSpec.schedulingGates).length > 0 && !semanticEqual(munged.nodeSelector, oldSpec.nodeSelector)) {
    const next = strMap(munged.nodeSelector);
    const removedOrChanged = Object.entries(strMap(oldSpec.nodeSelector)).some(([k, v]) => next[k] !== v);
    if (removedOrChanged) errs.push(invalid(specPath.child('nodeSelector'), munged.nodeSelector ?? {}, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
    munged.nodeSelector = oldSpec.nodeSelector;
  }
  if (!semanticEqual(munged, oldSpec))
    errs.push(forbidden(specPath, `pod updates may not change fields other than ${UPDATABLE.join(',')}\n${diffLines(oldSpec, munged, 'spec')}`));
  return errs;
}

/** Terminated containers may not come back unless the restart policy restarts them. */
function validateStateTransitions(next: Obj[], old: Obj[], restartPolicy: string, path: FieldPath, restartable: ReadonlySet<string>): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  old.forEach((o, i) => {
    const terminated = obj(obj(o.state)?.terminated);
    if (!terminated) return;
    if ((num(terminated.exitCode) ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
    if (restartable.has(str(o.name))) return;
    for (const n of next)
      if (str(n.name) === str(o.name) && !obj(obj(n.state)?.terminated)) errs.push(forbidden(path.index(i).child('state'), 'may not be transitioned to non-terminated state'));
  });
  return errs;
}

function validateIPList(ips: Obj[], path: FieldPath): FieldError[] {
  const errs = ips.flatMap((ip, i) => validateIP(path.index(i), str(ip.ip)));
  if (ips.length > 1) {
    const values = ips.map((ip) => str(ip.ip));
    if (!isDualStackIPs(values) || values.length > 2) errs.push(invalid(path, ips, 'may specify no more than one IP for each IP family'));
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(str(ip.ip))) errs.push(duplicate(path.index(i), ip));
      seen.add(str(ip.ip));
    });
  }
  return errs;
}

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

/** Validates a write to the `status` subresource of a Pod. */
export function validatePodStatusUpdate(pod: Obj, old: Obj): FieldError[] {
  const status = obj(pod.status) ?? {};
  const oldStatus = obj(old.status) ?? {};
  const spec = obj(pod.spec) ?? {};
  const oldSpec = obj(old.spec) ?? {};
  const errs: FieldError[] = [];
  objs(status.conditions).forEach((c, i) => {
    const type = str(c.type);
    if (type && !SYSTEM_CONDITIONS.has(type))
      errs.push(...isQualifiedName(type).map((m) => invalid(FieldPath.of('metadata', 'conditions').index(i).child('Type'), type, m)));
  });
  const nominated = str(status.nominatedNodeName);
  if (nominated && nominated !== str(oldStatus.nominatedNodeName))
    errs.push(...isDNS1123Subdomain(nominated).map((m) => invalid(statusPath.child('nominatedNodeName'), nominated, m)));
  if (str(status.qosClass) !== str(oldStatus.qosClass)) errs.push(invalid(statusPath.child('qosClass'), str(status.qosClass), 'field is immutable'));
  const restartPolicy = str(oldSpec.restartPolicy);
  const sidecars = new Set(objs(oldSpec.initContainers).filter((c) => c.restartPolicy === 'Always').map((c) => str(c.name)));
  errs.push(...validateStateTransitions(objs(status.containerStatuses), objs(oldStatus.containerStatuses), restartPolicy, statusPath.child('containerStatuses'), new Set()));
  errs.push(...validateStateTransitions(objs(status.initContainerStatuses), objs(oldStatus.initContainerStatuses), restartPolicy, statusPath.child('initContainerStatuses'), sidecars));
  errs.push(...validateStateTransitions(objs(status.ephemeralContainerStatuses), objs(oldStatus.ephemeralContainerStatuses), 'Never', statusPath.child('ephemeralContainerStatuses'), new Set()));
  const claims = new Set(objs(spec.resourceClaims).map((c) => str(c.name)));
  const seenClaims = new Set<string>();
  objs(status.resourceClaimStatuses).forEach((c, i) => {
    const p = statusPath.child('resourceClaimStatuses').index(i).child('name');
    const name = str(c.name);
    if (!claims.has(name)) errs.push(invalid(p, name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (seenClaims.has(name)) errs.push(duplicate(p, name));
    seenClaims.add(name);
    if (typeof c.resourceClaimName === 'string') errs.push(...isDNS1123Subdomain(c.resourceClaimName).map((m) => invalid(p, c.resourceClaimName, m)));
  });
  errs.push(...validateIPList(objs(status.podIPs), statusPath.child('podIPs')));
  const hostIPs = objs(status.hostIPs);
  if (hostIPs.length > 0 && str(hostIPs[0]!.ip) !== str(status.hostIP))
    errs.push(invalid(statusPath.child('hostIPs').index(0).child('ip'), str(hostIPs[0]!.ip), 'must be equal to `hostIP`'));
  errs.push(...validateIPList(hostIPs, statusPath.child('hostIPs')));
  return errs;
}
