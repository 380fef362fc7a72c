/**
 * Rule coverage for reconciliation (upstream `pkg/registry/rbac/validation` `Covers` /
 * `BreakdownRule`): which permissions of the expected rules the existing rules lack, broken down
 * to one verb on one group/resource/name (or one verb on one URL) as upstream appends them.
 */
import type { PolicyRule } from '../../apis/rbac/bootstrap-policy/index.js';

/** One rule split into single-verb, single-group, single-resource (single-name) rules, in upstream's order. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if ((rule.resourceNames ?? []).length > 0) {
          for (const name of rule.resourceNames!) out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        } else {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] });
  }
  return out;
}

const has = (list: readonly string[] | undefined, v: string) => (list ?? []).includes(v);

/** Whether `owner` resources cover `resource` (`*`, exact, `<res>/*`, `*\/<sub>`). */
function coversResource(owner: readonly string[], resource: string): boolean {
  if (owner.includes('*') || owner.includes(resource)) return true;
  const slash = resource.indexOf('/');
  if (slash < 0) return false;
  return owner.includes(`${resource.slice(0, slash)}/*`) || owner.includes(`*${resource.slice(slash)}`);
}

/** Whether `owner` URLs cover `url` (`*`, exact, or a trailing-`*` prefix). */
function coversURL(owner: readonly string[], url: string): boolean {
  return owner.some((o) => o === '*' || o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1))));
}

/** Whether one rule covers one broken-down rule (upstream `ruleCovers`). */
function ruleCovers(owner: PolicyRule, piece: PolicyRule): boolean {
  const verb = piece.verbs[0]!;
  if (!has(owner.verbs, '*') && !has(owner.verbs, verb)) return false;
  if (piece.nonResourceURLs) return coversURL(owner.nonResourceURLs ?? [], piece.nonResourceURLs[0]!);
  const group = piece.apiGroups![0]!;
  if (!has(owner.apiGroups, '*') && !has(owner.apiGroups, group)) return false;
  if (!coversResource(owner.resources ?? [], piece.resources![0]!)) return false;
  const names = owner.resourceNames ?? [];
  return names.length === 0 || (piece.resourceNames !== undefined && names.includes(piece.resourceNames[0]!));
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** Whether two rules list the same verbs, groups, resources, names and URLs in the same order (absent = empty). */
function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return sameList(a.verbs, b.verbs) && sameList(a.apiGroups, b.apiGroups) && sameList(a.resources, b.resources) &&
    sameList(a.resourceNames, b.resourceNames) && sameList(a.nonResourceURLs, b.nonResourceURLs);
}

/**
 * The broken-down pieces of `wanted` that no rule of `owner` covers (empty: `owner` covers all).
 * A wanted rule that `owner` holds unchanged (at the same position, as a role the policy wrote
 * last time does) covers its own pieces and is not broken down: a restart compares the ~70
 * default roles without building their thousands of pieces.
 */
export function uncoveredRules(owner: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const [i, rule] of wanted.entries()) {
    if (i < owner.length && sameRule(owner[i]!, rule)) continue;
    for (const piece of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, piece))) missing.push(piece);
    }
  }
  return missing;
}
