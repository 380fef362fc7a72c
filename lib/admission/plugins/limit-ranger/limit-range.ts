/**
 * One LimitRange applied to one object (spec 001 § Admission control; upstream v1.30
 * LimitRanger's PodMutateLimitFunc, PodValidateLimitFunc, PersistentVolumeClaimValidateLimitFunc):
 *  - defaults: each container and init container without a request (limit) for a resource gets
 *    the `defaultRequest` (`default`) of the `Container` items, and the Pod is annotated with what
 *    was set (`LimitRanger plugin set: cpu, memory request for container app; …`);
 *  - checks: `Container` items' min / max / maxLimitRequestRatio per container and init
 *    container, `Pod` items' against the pod's effective requests and limits, and
 *    `PersistentVolumeClaim` items' min / max against a claim's requests.
 * Resource names of an item are checked in sorted order (upstream iterates a Go map).
 */
import type { Quantity } from '../../../apimachinery/quantity.js';
import type { Obj } from '../../../apis/define.js';
import { obj, objs } from '../../../apis/core/v1/obj-access.js';
import { LIMIT_RANGER_ANNOTATION } from '../../../apis/vendor.js';
import { aggregate, limitRequestRatioConstraint, maxConstraint, maxRequestConstraint, minConstraint } from './constraints.js';
import { type ResourceList, podResources, resourceList } from './resources.js';

/** The items of a LimitRange's `spec.limits`. */
function items(limitRange: Obj): Obj[] {
  return objs(obj(limitRange.spec)?.limits);
}

/** An item's quantity map as sorted [resource, quantity] pairs. */
function sorted(v: unknown): [string, Quantity][] {
  return [...resourceList(v)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The raw default `requests` and `limits` of the `Container` items (a later item wins for a resource). */
function containerDefaults(limitRange: Obj): { requests: Obj; limits: Obj } {
  const requests: Obj = {};
  const limits: Obj = {};
  for (const item of items(limitRange)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, obj(item.defaultRequest) ?? {});
    Object.assign(limits, obj(item.default) ?? {});
  }
  return { requests, limits };
}

/** Copies into `resources[which]` each default the container lacks; returns the names set, sorted. */
function fill(container: Obj, which: 'requests' | 'limits', defaults: Obj): string[] {
  const set: string[] = [];
  const resources = obj(container.resources) ?? {};
  const have = obj(resources[which]) ?? {};
  for (const name of Object.keys(defaults).sort()) {
    if (Object.hasOwn(have, name)) continue;
    have[name] = defaults[name];
    set.push(name);
  }
  if (set.length > 0) {
    resources[which] = have;
    container.resources = resources;
  }
  return set;
}

/**
 * Sets the `Container` defaults of `limitRange` on `pod` (mutated in place) and, when anything
 * was set, the annotation LIMIT_RANGER_ANNOTATION describing it. Idempotent.
 */
export function applyPodDefaults(limitRange: Obj, pod: Obj): void {
  const defaults = containerDefaults(limitRange);
  const spec = obj(pod.spec) ?? {};
  const notes: string[] = [];
  const visit = (containers: Obj[], what: string) => {
    for (const c of containers) {
      const requests = fill(c, 'requests', defaults.requests);
      const limits = fill(c, 'limits', defaults.limits);
      if (requests.length > 0) notes.push(`${requests.join(', ')} request for ${what} ${String(c.name ?? '')}`);
      if (limits.length > 0) notes.push(`${limits.join(', ')} limit for ${what} ${String(c.name ?? '')}`);
    }
  };
  visit(objs(spec.containers), 'container');
  visit(objs(spec.initContainers), 'init container');
  if (notes.length === 0) return;
  const meta = (obj(pod.metadata) ?? {}) as Obj;
  meta.annotations = { ...(obj(meta.annotations) ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  pod.metadata = meta;
}

/** The min, max and ratio checks of one item against one set of requests and limits. */
function checkItem(item: Obj, type: string, requests: ResourceList, limits: ResourceList, out: string[]): void {
  const push = (m: string | undefined) => m !== undefined && out.push(m);
  for (const [name, q] of sorted(item.min)) push(minConstraint(type, name, q, requests, limits));
  for (const [name, q] of sorted(item.max)) push(maxConstraint(type, name, q, requests, limits));
  for (const [name, q] of sorted(item.maxLimitRequestRatio)) push(limitRequestRatioConstraint(type, name, q, requests, limits));
}

/** The violations of `limitRange` by `pod`, aggregated as upstream words them; undefined when none. */
export function podViolations(limitRange: Obj, pod: Obj): string | undefined {
  const spec = obj(pod.spec) ?? {};
  const out: string[] = [];
  for (const item of items(limitRange)) {
    const type = String(item.type ?? '');
    if (type === 'Container') {
      for (const c of [...objs(spec.containers), ...objs(spec.initContainers)]) {
        const resources = obj(c.resources);
        checkItem(item, type, resourceList(resources?.requests), resourceList(resources?.limits), out);
      }
    } else if (type === 'Pod') {
      checkItem(item, type, podResources(pod, 'requests'), podResources(pod, 'limits'), out);
    }
  }
  return aggregate(out);
}

/** The violations of `limitRange` by the claim `pvc` (its `spec.resources.requests` only); undefined when none. */
export function claimViolations(limitRange: Obj, pvc: Obj): string | undefined {
  const requests = resourceList(obj(obj(pvc.spec)?.resources)?.requests);
  const out: string[] = [];
  for (const item of items(limitRange)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [name, q] of sorted(item.min)) {
      const m = minConstraint('PersistentVolumeClaim', name, q, requests, new Map());
      if (m !== undefined) out.push(m);
    }
    for (const [name, q] of sorted(item.max)) {
      const m = maxRequestConstraint('PersistentVolumeClaim', name, q, requests);
      if (m !== undefined) out.push(m);
    }
  }
  return aggregate(out);
}
