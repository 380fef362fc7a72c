/**
 * PodSecurity on Namespace create and update (upstream v1.30 `ValidateNamespace`): invalid Pod
 * Security labels are rejected (422, `Namespace "x" is invalid: metadata.labels[…]: Invalid value:
 * …`), an update keeps labels that were already invalid the same way; when the enforce level is
 * tightened, the namespace's existing pods are evaluated against it and the violations returned as
 * warnings, at most 3000 pods and about a second of evaluation; one pod per controller first.
 */
import { newInvalid } from '../../../apimachinery/errors.js';
import { fieldErrorString } from '../../../apimachinery/field-errors.js';
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { obj, objs, str, strMap } from '../../../apis/core/v1/obj-access.js';
import {
  AUDIT_LEVEL_LABEL,
  AUDIT_VERSION_LABEL,
  ENFORCE_LEVEL_LABEL,
  ENFORCE_VERSION_LABEL,
  type LevelVersion,
  type Policy,
  WARN_LEVEL_LABEL,
  WARN_VERSION_LABEL,
  compareLevels,
  equivalentPolicies,
  fullyPrivileged,
  levelVersionString,
  policyToEvaluate,
  sameLevelVersion,
} from './api.js';
import type { PodSecurityConfig } from './config.js';
import { type Evaluator, forbiddenReason } from './evaluator.js';

/** Limits of the existing-pods evaluation (upstream `defaultNamespaceMaxPodsToCheck`, `defaultNamespacePodCheckTimeout`). */
export interface NamespacePodCheckLimits {
  maxPods: number;
  timeoutMs: number;
}
export const DEFAULT_POD_CHECK_LIMITS: NamespacePodCheckLimits = { maxPods: 3000, timeoutMs: 1000 };

/** What the namespace check needs. */
export interface NamespaceCheckEnv {
  config: PodSecurityConfig;
  evaluator: Evaluator;
  /** The pods of a namespace (an informer cache). */
  listPods(namespace: string): Obj[];
  limits: NamespacePodCheckLimits;
}

/** The outcome of a namespace request: warnings to return, or an error to reject it with. */
export interface NamespaceVerdict {
  warnings: string[];
  error?: ReturnType<typeof newInvalid>;
}

const labelsOf = (ns: Obj | null) => strMap(obj(ns?.metadata)?.labels);

/**
 * Checks a namespace create (`oldNs` null) or update. `name` is the namespace's name.
 * @returns the warnings, or a 422 Invalid error for invalid labels.
 */
export function checkNamespace(env: NamespaceCheckEnv, name: string, ns: Obj, oldNs: Obj | null): NamespaceVerdict {
  const labels = labelsOf(ns);
  const { policy, errors } = policyToEvaluate(labels, env.config.defaults);
  const exempt = env.config.exemptions.namespaces.has(name);
  const invalid = () => ({ warnings: [], error: newInvalid({ group: '', kind: 'Namespace' }, name, errors) });
  if (!oldNs) {
    if (errors.length > 0) return invalid();
    return { warnings: exempt ? exemptNamespaceWarnings(env.config, name, policy, labels) : [] };
  }
  const old = policyToEvaluate(labelsOf(oldNs), env.config.defaults);
  const sameErrors = errors.length === old.errors.length && errors.every((e, i) => fieldErrorString(e) === fieldErrorString(old.errors[i]!));
  if (errors.length > 0 && (old.errors.length === 0 || !sameErrors)) return invalid();
  const next = policy.enforce;
  const prev = old.policy.enforce;
  if (sameLevelVersion(next, prev) || next.level === 'privileged') return { warnings: [] };
  if (next.version === prev.version && compareLevels(next.level, prev.level) < 1) return { warnings: [] };
  if (exempt) return { warnings: exemptNamespaceWarnings(env.config, name, policy, labels) };
  return { warnings: evaluatePodsInNamespace(env, name, next) };
}

/** Upstream `exemptNamespaceWarning`: an exempt namespace whose labels select a non-privileged policy. */
function exemptNamespaceWarnings(config: PodSecurityConfig, name: string, policy: Policy, labels: Record<string, string>): string[] {
  if (fullyPrivileged(policy) || equivalentPolicies(policy, config.defaults)) return [];
  const parts: string[] = [];
  const mode = (label: string, lv: LevelVersion, levelLabel: string, versionLabel: string) => {
    if (lv.level !== 'privileged' && (levelLabel in labels || versionLabel in labels)) parts.push(`${label}=${levelVersionString(lv)}`);
  };
  mode('enforce', policy.enforce, ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL);
  mode('audit', policy.audit, AUDIT_LEVEL_LABEL, AUDIT_VERSION_LABEL);
  mode('warn', policy.warn, WARN_LEVEL_LABEL, WARN_VERSION_LABEL);
  return [`namespace "${name}" is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`];
}

/** The controller owner reference's uid of a pod, or undefined. */
function controllerUid(pod: Obj): string | undefined {
  const ref = objs(obj(pod.metadata)?.ownerReferences).find((r) => r.controller === true);
  return ref ? str(ref.uid) : undefined;
}

/**
 * Upstream `prioritizePods`: pods of exempt runtime classes dropped; the first pod of each
 * controller (and every uncontrolled pod) first, the other replicas after.
 */
function prioritizePods(config: PodSecurityConfig, pods: Obj[]): Obj[] {
  const first: Obj[] = [];
  const rest: Obj[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    const rc = str(obj(pod.spec)?.runtimeClassName);
    if (rc !== '' && config.exemptions.runtimeClasses.has(rc)) continue;
    const uid = controllerUid(pod);
    if (uid === undefined) first.push(pod);
    else if (seen.has(uid)) rest.push(pod);
    else {
      seen.add(uid);
      first.push(pod);
    }
  }
  return [...first, ...rest];
}

/**
 * Evaluates the namespace's pods against a new enforce level (upstream `EvaluatePodsInNamespace`):
 * `existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"`,
 * then one warning per distinct set of violated reasons, `<first pod> (and N other pods): <reasons>`,
 * sorted; prefixed by `new PodSecurity enforce level only checked against the first N of M existing
 * pods` when the pod or time limit cut the evaluation short.
 */
export function evaluatePodsInNamespace(env: NamespaceCheckEnv, namespace: string, enforce: LevelVersion): string[] {
  const deadline = Date.now() + env.limits.timeoutMs;
  const pods = prioritizePods(env.config, env.listPods(namespace));
  const total = pods.length;
  const toCheck = pods.slice(0, env.limits.maxPods);
  let checked = toCheck.length;
  const counts = new Map<string, { podName: string; count: number }>();
  for (const [i, pod] of toCheck.entries()) {
    const r = env.evaluator.evaluate(enforce, obj(pod.metadata) ?? {}, obj(pod.spec) ?? {});
    if (!r.allowed) {
      const reason = forbiddenReason(r);
      const name = str(obj(pod.metadata)?.name);
      const c = counts.get(reason);
      if (!c) counts.set(reason, { podName: name, count: 1 });
      else {
        c.count++;
        if (name < c.podName) c.podName = name;
      }
    }
    if (Date.now() > deadline) {
      checked = i + 1;
      break;
    }
  }
  const warnings: string[] = [];
  if (checked < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
  if (counts.size > 0) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`);
  const podWarnings = [...counts].map(([reason, c]) => {
    if (c.count === 1) return `${c.podName}: ${reason}`;
    if (c.count === 2) return `${c.podName} (and 1 other pod): ${reason}`;
    return `${c.podName} (and ${c.count - 1} other pods): ${reason}`;
  });
  podWarnings.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...warnings, ...podWarnings];
}
