/**
 * Rule coverage for escalation prevention (spec 001 § RBAC mode: escalation prevention; upstream
 * `Covers`, `BreakdownRule`, `CompactRules`, `CompactString` and the message of
 * `ConfirmNoEscalation`, v1.30). A set of owner rules covers a rule when every one-verb,
 * one-group, one-resource (one-name) piece of it is covered by some owner rule on its own.
 * API groups compare through `canonicalGroup`, as in matching.
 */
import { canonicalGroup } from '../../apis/vendor.js';
import { ALL, type PolicyRule } from './rules.js';

/**
 * Splits `rule` into rules of one group, one resource, one verb and at most one name (resource
 * rules), or one URL and one verb (non-resource rules), in upstream's order.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length > 0) for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]) => wanted.every((w) => set.includes(w));

function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ALL) || hasAll(owner, wanted)) return true;
  return wanted.every((path) => {
    if (owner.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owner.includes(`${ALL}${path.slice(slash)}`);
  });
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith(ALL) && path.startsWith(owner.replace(/\*+$/, '')));
}

/** Whether the single owner rule `owner` covers `sub` (upstream `ruleCovers`). */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerGroups = (owner.apiGroups ?? []).map(canonicalGroup);
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = ownerGroups.includes(ALL) || hasAll(ownerGroups, (sub.apiGroups ?? []).map(canonicalGroup));
  const resources = resourcesCover(owner.resources ?? [], sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, p)));
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** Whether `owner` covers every rule of `servant`; the uncovered pieces (broken down) when not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}

/**
 * Merges the verbs of simple rules (one group, one resource, nothing else) naming the same
 * group and resource (upstream `CompactRules`): other rules first, in order, then the merged.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple =
      (r.resourceNames ?? []).length === 0 && (r.nonResourceURLs ?? []).length === 0 && r.apiGroups?.length === 1 && r.resources?.length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0]]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...r.verbs);
    else simple.set(key, { apiGroups: [...r.apiGroups!], resources: [...r.resources!], verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
export function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

/** Upstream `CompactString`: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, empty fields left out. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: readonly string[] | undefined) => {
    if (v && v.length > 0) parts.push(`${label}:${goQuotedList(v)}`);
  };
  add('APIGroups', r.apiGroups);
  add('Resources', r.resources);
  add('NonResourceURLs', r.nonResourceURLs);
  add('ResourceNames', r.resourceNames);
  add('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * The reason upstream's `ConfirmNoEscalation` gives: `user "u" (groups=["a" "b"]) is attempting
 * to grant RBAC permissions not currently held:` then one compacted missing rule a line, sorted
 * and without duplicates; `; resolution errors: [<aggregate>]` when some of the user's bindings could
 * not be resolved.
 */
export function escalationMessage(user: { name: string; groups: readonly string[] }, missing: readonly PolicyRule[], resolutionErrors: readonly string[]): string {
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (resolutionErrors.length > 0) msg += `; resolution errors: [${aggregateMessage(resolutionErrors)}]`;
  return msg;
}

/**
 * The text of upstream's error aggregate: duplicates dropped, one message alone, several as
 * `[a, b]`.
 */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
