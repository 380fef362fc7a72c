/**
 * Per-subject grant indexes for RBAC decisions (spec 001 § RBAC mode; issue #11 item 4 and its
 * decision-latency bar). Resolving a user's bindings costs time proportional to the bindings that
 * name the user, its groups or its service account; a user with hundreds of bindings would pay
 * that on every request. A {@link SubjectGrants} is that walk done once: every rule the subject
 * holds in one namespace, in upstream's visit order (cluster bindings first), bucketed by verb
 * and resource so that a decision looks at a handful of candidate rules. {@link GrantIndexCache}
 * keeps the indexes of recently seen subjects and drops them all whenever the policy changes,
 * so a grant or revocation takes effect with the watch event that carries it.
 */
import type { UserInfo } from '../../request/user.js';
import type { BindingEntry, RbacPolicyCache, Subject } from './policy-cache.js';
import { type CompiledRule, requestAllowedBy, type RuleRequest } from './rules.js';

/** The binding and subject through which a rule applies. */
export interface Grant {
  binding: BindingEntry;
  subject: Subject;
}

/** A rule the subject holds, with its position in upstream's visit order. */
export interface GrantedRule {
  seq: number;
  rule: CompiledRule;
  grant: Grant;
}

/** The rules of one resource (and verb): those for every name, and those listing names, by name. */
class ResourceBucket {
  readonly anyName: GrantedRule[] = [];
  byName: Map<string, GrantedRule[]> | undefined;

  /** Adds `g`; returns how many entries that took. */
  add(g: GrantedRule): number {
    const names = g.rule.resourceNames;
    if (names.length === 0) {
      this.anyName.push(g);
      return 1;
    }
    this.byName ??= new Map();
    for (const name of names) {
      const list = this.byName.get(name);
      if (list) list.push(g);
      else this.byName.set(name, [g]);
    }
    return names.length;
  }

  /** The first rule of the bucket that allows `r`, if it comes before `best`. */
  allowing(r: RuleRequest, best: GrantedRule | undefined): GrantedRule | undefined {
    best = firstAllowing(this.anyName, r, best);
    return r.name !== '' && this.byName ? firstAllowing(this.byName.get(r.name), r, best) : best;
  }
}

function bucketOf(m: Map<string, ResourceBucket>, resource: string): ResourceBucket {
  let b = m.get(resource);
  if (!b) m.set(resource, (b = new ResourceBucket()));
  return b;
}

/** The first rule of `list` (in visit order) that allows `r`, if it comes before `best`. */
function firstAllowing(list: readonly GrantedRule[] | undefined, r: RuleRequest, best: GrantedRule | undefined): GrantedRule | undefined {
  if (!list) return best;
  for (const g of list) {
    if (best && g.seq >= best.seq) return best;
    if (requestAllowedBy(r, g.rule)) return g;
  }
  return best;
}

/**
 * Every rule one subject (user name + groups) holds in one namespace, bucketed for lookup:
 * by verb then `<resource>[/<subresource>]` (then name, for rules with resourceNames), by verb
 * for rules over all resources (`*`, `*`/sub), by resource for rules over all verbs, rules over
 * all verbs and resources, and non-resource rules. Each bucket keeps visit order, so the first
 * allowing rule overall — the one upstream's walk would stop at — is the allowing candidate with
 * the lowest `seq`.
 */
export class SubjectGrants {
  /** Errors met resolving the subject's bindings (roles that do not exist), in visit order. */
  readonly errors: string[] = [];
  /** Bucket entries held (the index's size). */
  size = 0;
  private readonly byVerbResource = new Map<string, Map<string, ResourceBucket>>();
  private readonly byVerb = new Map<string, GrantedRule[]>();
  private readonly byResource = new Map<string, ResourceBucket>();
  private readonly anyVerbAnyResource: GrantedRule[] = [];
  private readonly nonResource: GrantedRule[] = [];

  /** Builds the index of `user` in `namespace` ('' = cluster bindings only) from `cache`. */
  constructor(cache: RbacPolicyCache, user: UserInfo, namespace: string) {
    let seq = 0;
    cache.visitRulesFor(user, namespace, (rule, grant, error) => {
      if (error) this.errors.push(error);
      if (rule && grant) this.add({ seq: seq++, rule, grant });
      return true;
    });
  }

  private add(g: GrantedRule): void {
    const { rule } = g;
    if (rule.allURLs || rule.urls.length > 0 || rule.urlPrefixes.length > 0) {
      this.nonResource.push(g);
      this.size++;
    }
    const anyResource = rule.allResources || rule.anyResourceSubresources.length > 0;
    const named = rule.allResources ? [] : rule.resources;
    if (rule.allVerbs) {
      if (anyResource) {
        this.anyVerbAnyResource.push(g);
        this.size++;
      }
      for (const res of named) this.size += bucketOf(this.byResource, res).add(g);
      return;
    }
    for (const verb of rule.verbs) {
      if (anyResource) {
        const list = this.byVerb.get(verb);
        if (list) list.push(g);
        else this.byVerb.set(verb, [g]);
        this.size++;
      }
      if (named.length === 0) continue;
      let byResource = this.byVerbResource.get(verb);
      if (!byResource) this.byVerbResource.set(verb, (byResource = new Map()));
      for (const res of named) this.size += bucketOf(byResource, res).add(g);
    }
  }

  /** The rule (and its grant) upstream's walk would stop at for `r`, or undefined. */
  allowing(r: RuleRequest): GrantedRule | undefined {
    if (!r.isResourceRequest) return firstAllowing(this.nonResource, r, undefined);
    let best = this.byVerbResource.get(r.verb)?.get(r.combined)?.allowing(r, undefined);
    best = firstAllowing(this.byVerb.get(r.verb), r, best);
    best = this.byResource.get(r.combined)?.allowing(r, best) ?? best;
    return firstAllowing(this.anyVerbAnyResource, r, best);
  }

  /** {@link allowing} as a {@link GrantDecision}. */
  decide(r: RuleRequest): GrantDecision {
    const g = this.allowing(r);
    return g ? { grant: g.grant, errors: NO_ERRORS } : { errors: this.errors };
  }
}

/** Bounds of a {@link GrantIndexCache}. */
export interface GrantIndexLimits {
  /** Most subjects × namespaces kept (default 4,096). */
  maxEntries: number;
  /** Most bucket entries kept over all indexes (default 262,144 — tens of MiB at most). */
  maxRules: number;
}

const DEFAULT_LIMITS: GrantIndexLimits = { maxEntries: 4096, maxRules: 262_144 };

/** What RBAC decides for one request: the grant that allows it, or the errors met looking. */
export interface GrantDecision {
  grant?: Grant;
  /** Errors of bindings whose role does not exist (all of the subject's, when nothing allows). */
  errors: readonly string[];
}

const NO_ERRORS: readonly string[] = Object.freeze([]);

/** Upstream's walk itself: the subject's rules in visit order until one allows `r`. */
function walk(cache: RbacPolicyCache, user: UserInfo, namespace: string, r: RuleRequest): GrantDecision {
  let found: Grant | undefined;
  let errors: string[] | undefined;
  cache.visitRulesFor(user, namespace, (rule, grant, error) => {
    if (rule && grant && requestAllowedBy(r, rule)) {
      found = grant;
      return false;
    }
    if (error) (errors ??= []).push(error);
    return true;
  });
  return found ? { grant: found, errors: NO_ERRORS } : { errors: errors ?? NO_ERRORS };
}

/** Marks a subject seen once since the last policy change (decided by walking, not indexed yet). */
const SEEN = 'seen';

/**
 * Decisions over the {@link SubjectGrants} of recently seen subjects (user name + groups, per
 * namespace). A subject's first decision after a policy change walks its bindings as upstream
 * does — one-off subjects never pay for an index —; its second builds the index, which serves
 * every later decision. Least recently used entries are evicted first; all are dropped when
 * {@link RbacPolicyCache.generation} moves (any Role, ClusterRole or binding event).
 */
export class GrantIndexCache {
  private readonly entries = new Map<string, SubjectGrants | typeof SEEN>();
  private generation = -1;
  private rules = 0;
  private readonly limits: GrantIndexLimits;

  constructor(
    private readonly cache: RbacPolicyCache,
    limits: Partial<GrantIndexLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** What the rules `user` holds in `namespace` ('' = cluster bindings only) decide for `r`. */
  decide(user: UserInfo, namespace: string, r: RuleRequest): GrantDecision {
    if (this.generation !== this.cache.generation) {
      this.entries.clear();
      this.rules = 0;
      this.generation = this.cache.generation;
    }
    const key = `${namespace}\u0000${user.name}\u0000${user.groups.join('\u0000')}`;
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.keep(key, SEEN);
      return walk(this.cache, user, namespace, r);
    }
    this.entries.delete(key);
    if (entry !== SEEN) {
      this.entries.set(key, entry);
      return entry.decide(r);
    }
    const grants = new SubjectGrants(this.cache, user, namespace);
    this.keep(key, grants);
    return grants.decide(r);
  }

  /** Stores `value` as the most recently used entry, then evicts down to the limits. */
  private keep(key: string, value: SubjectGrants | typeof SEEN): void {
    this.entries.set(key, value);
    if (value !== SEEN) this.rules += value.size;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.rules <= this.limits.maxRules) break;
      if (k === key) break;
      this.entries.delete(k);
      if (v !== SEEN) this.rules -= v.size;
    }
  }

  /** Subjects × namespaces remembered (seen once or indexed), and the indexes' bucket entries. */
  stats(): { entries: number; rules: number } {
    return { entries: this.entries.size, rules: this.rules };
  }
}
