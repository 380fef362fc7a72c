/**
 * The Pod Security evaluator (upstream pod-security-admission `policy.checkRegistry`): for each
 * policy version v1.0 … v1.<newest revision>, the check functions of the baseline and of the
 * restricted level, in upstream's fixed order — baseline check ids sorted, then restricted ids
 * sorted; at the restricted level a restricted check replaces the baseline checks it overrides.
 * Newer versions and `latest` use the newest revision set. The privileged level runs no check.
 */
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import type { LevelVersion } from './api.js';
import type { Check, CheckPodFn, Forbidden, VersionedCheck } from './check-helpers.js';
import { CONTAINER_CHECKS } from './checks-containers.js';
import { HOST_CHECKS } from './checks-host.js';
import { PROFILE_CHECKS } from './checks-profiles.js';

/** Every check of policy v1.30. */
export const DEFAULT_CHECKS: readonly Check[] = [...HOST_CHECKS, ...PROFILE_CHECKS, ...CONTAINER_CHECKS];

/** The combined outcome of a level's checks: allowed, or the forbidden results in check order. */
export interface AggregateResult {
  allowed: boolean;
  forbidden: Forbidden[];
}

/** `host namespaces, privileged` — the reasons alone (upstream `ForbiddenReason`, used for existing pods). */
export function forbiddenReason(r: AggregateResult): string {
  return r.forbidden.map((f) => f.reason || 'unknown forbidden reason').join(', ');
}

/** `host namespaces (hostNetwork), privileged (container "c" must …)` (upstream `ForbiddenDetail`). */
export function forbiddenDetail(r: AggregateResult): string {
  return r.forbidden.map((f) => (f.detail ? `${f.reason} (${f.detail})` : f.reason)).join(', ');
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The revision of `check` in force at `minor`, or undefined before its first. */
function revisionAt(check: Check, minor: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const v of check.versions) if (v.minimumVersion <= minor) found = v;
  return found;
}

/** Evaluates pods against a level and version; built once from a list of checks. */
export class Evaluator {
  private readonly baseline: CheckPodFn[][] = [];
  private readonly restricted: CheckPodFn[][] = [];
  /** The newest minor any check has a revision for; newer versions evaluate as this one. */
  readonly maxVersion: number;

  constructor(checks: readonly Check[]) {
    this.maxVersion = Math.max(...checks.map((c) => c.versions[c.versions.length - 1]!.minimumVersion));
    const baselineChecks = checks.filter((c) => c.level === 'baseline').sort((a, b) => byId(a.id, b.id));
    const restrictedChecks = checks.filter((c) => c.level === 'restricted').sort((a, b) => byId(a.id, b.id));
    for (let minor = 0; minor <= this.maxVersion; minor++) {
      const base = baselineChecks.map((c) => ({ id: c.id, rev: revisionAt(c, minor) })).filter((x) => x.rev);
      const strict = restrictedChecks.map((c) => ({ id: c.id, rev: revisionAt(c, minor) })).filter((x) => x.rev);
      const overridden = new Set(strict.flatMap((x) => x.rev!.overrides ?? []));
      this.baseline.push(base.map((x) => x.rev!.check));
      this.restricted.push([...base.filter((x) => !overridden.has(x.id)), ...strict].map((x) => x.rev!.check));
    }
  }

  /** Runs the checks of `lv` against a pod's (or pod template's) metadata and spec. */
  evaluate(lv: LevelVersion, meta: Obj, spec: Obj): AggregateResult {
    if (lv.level === 'privileged') return { allowed: true, forbidden: [] };
    const minor = lv.version === 'latest' || lv.version > this.maxVersion ? this.maxVersion : lv.version;
    const fns = (lv.level === 'baseline' ? this.baseline : this.restricted)[minor]!;
    const forbidden: Forbidden[] = [];
    for (const fn of fns) {
      const f = fn(meta, spec);
      if (f) forbidden.push(f);
    }
    return { allowed: forbidden.length === 0, forbidden };
  }
}
