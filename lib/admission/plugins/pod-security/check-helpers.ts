/**
 * Shared pieces of the Pod Security checks (upstream pod-security-admission `policy`): the check
 * shape, the containers a check visits, and the wording helpers every message is built from.
 * Checks read decoded JSON pods (storage version v1) defensively: an absent or mistyped field is
 * Go's zero value / nil pointer.
 */
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { obj, objs, str } from '../../../apis/core/v1/obj-access.js';

/** Why a check forbids a pod: a short reason (`host ports`) and an optional detail (`8080, 9090`). */
export interface Forbidden {
  reason: string;
  detail: string;
}

/** Evaluates one check against a pod's (or template's) metadata and spec; null when allowed. */
export type CheckPodFn = (meta: Obj, spec: Obj) => Forbidden | null;

/** One revision of a check, applying from `minimumVersion` (a v1 minor) until the next revision. */
export interface VersionedCheck {
  minimumVersion: number;
  check: CheckPodFn;
  /** Baseline check ids this restricted check replaces at the restricted level. */
  overrides?: readonly string[];
}

/** A Pod Security check: its id, the level it belongs to, and its revisions (increasing versions). */
export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  versions: readonly VersionedCheck[];
}

/** Upstream `joinQuote`: `"a", "b"` (no escaping), '' for none. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** `singular` when `n` is 1, else `plural`. */
export function pluralize(singular: string, plural: string, n: number): string {
  return n === 1 ? singular : plural;
}

/** `container "a"` / `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** The distinct values, sorted as Go's `sets.String.List()` sorts them. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Every container of the spec: init containers, then containers, then ephemeral containers (upstream `visitContainers`). */
export function allContainers(spec: Obj): Obj[] {
  return [...objs(spec.initContainers), ...objs(spec.containers), ...objs(spec.ephemeralContainers)];
}

/** A container's name ('' when absent). */
export function containerName(c: Obj): string {
  return str(c.name);
}

/** A container's `securityContext`, or undefined. */
export function containerSecurityContext(c: Obj): Obj | undefined {
  return obj(c.securityContext);
}

/** The pod's `securityContext`, or undefined. */
export function podSecurityContext(spec: Obj): Obj | undefined {
  return obj(spec.securityContext);
}

/** The check, admitting pods whose `spec.os.name` is `windows` (the v1.25 revisions of the Linux-only restricted checks). */
export function exemptWindows(check: CheckPodFn): CheckPodFn {
  return (meta, spec) => (obj(spec.os)?.name === 'windows' ? null : check(meta, spec));
}

/** The setters phrase of a check that may fail on the pod and on containers: `pod and containers "a", "b"`. */
export function settersPhrase(pod: boolean, containers: readonly string[], extra: readonly string[] = []): string {
  const setters: string[] = [];
  if (pod) setters.push('pod');
  if (containers.length > 0) setters.push(containersPhrase(containers));
  setters.push(...extra);
  return setters.join(' and ');
}
