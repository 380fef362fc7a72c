/**
 * LimitRanger (spec 001 § Admission control, default-enabled; upstream v1.30 plugin of the same
 * name), in both phases:
 *  - mutating: a Pod being created gets the `Container` defaults of every LimitRange of its
 *    namespace (see limit-range.ts);
 *  - validating: a Pod being created, and a PersistentVolumeClaim being created or updated, must
 *    satisfy every LimitRange; the first LimitRange violated rejects the request with 403
 *    `<resource> "<name>" is forbidden: <violations>`.
 * Subresources, Pod updates (containers are immutable) and updates of objects being deleted are
 * left alone, as upstream.
 */
import { StatusError, newForbidden } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import { obj, str } from '../../../apis/core/v1/obj-access.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginFactory } from '../../plugin-deps.js';
import { applyPodDefaults, claimViolations, podViolations } from './limit-range.js';
import { LimitRangeLookup, type LimitRangeSource } from './lookup.js';

/** The name a rejection names (upstream admission.NewForbidden): the request's, else the object's name or generateName, else `Unknown`. */
function forbidden(a: AdmissionAttributes, reason: string): StatusError {
  const meta = obj(a.object?.metadata) ?? {};
  const name = a.name || str(meta.name) || str(meta.generateName) || 'Unknown';
  return newForbidden({ group: a.group, resource: a.resource }, name, reason);
}

/** Whether LimitRanger looks at the request at all (upstream SupportsAttributes and the deletion check). */
function supports(a: AdmissionAttributes): boolean {
  if (a.subresource !== '' || a.group !== '' || a.object === null) return false;
  if (a.kind === 'Pod') {
    if (a.operation !== 'CREATE') return false;
  } else if (a.kind !== 'PersistentVolumeClaim') {
    return false;
  }
  return !obj(a.oldObject?.metadata)?.deletionTimestamp;
}

/** The LimitRanger plugin. */
export class LimitRanger implements AdmissionPlugin {
  readonly name = 'LimitRanger';

  constructor(private readonly ranges: LimitRangeSource) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (!supports(a) || a.kind !== 'Pod') return;
    for (const limitRange of await this.limitRanges(a)) applyPodDefaults(limitRange, a.object as Obj);
  }

  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (!supports(a)) return;
    const check = a.kind === 'Pod' ? podViolations : claimViolations;
    for (const limitRange of await this.limitRanges(a)) {
      const violations = check(limitRange, a.object as Obj);
      if (violations !== undefined) throw forbidden(a, violations);
    }
  }

  private async limitRanges(a: AdmissionAttributes): Promise<Obj[]> {
    try {
      return await this.ranges.forNamespace(a.namespace);
    } catch (err) {
      throw err instanceof StatusError && err.status.code === 403 ? err : forbidden(a, err instanceof Error ? err.message : String(err));
    }
  }
}

/** The factory: LimitRanges from their informer, with a live list when it has none for the namespace. */
export const limitRangerPlugin: AdmissionPluginFactory = {
  name: 'LimitRanger',
  create(deps) {
    const limitRanges = deps.resource('', 'limitranges');
    return new LimitRanger(new LimitRangeLookup(limitRanges.lister, (ns) => limitRanges.list(ns)));
  },
};
