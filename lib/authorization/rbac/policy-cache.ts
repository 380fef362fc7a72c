/**
 * The RBAC objects held in memory, fed by informers over the Role, ClusterRole, RoleBinding and
 * ClusterRoleBinding stores, with the indexes a decision needs (spec 001 § RBAC mode; issue #11
 * item 4): roles by `namespace/name` (rules compiled once per change), and bindings by subject —
 * user name, group name, and service-account user name `system:serviceaccount:<ns>:<name>`
 * (ClusterRoleBindings globally, RoleBindings per namespace). Resolving a user's rules touches
 * only the bindings that name the user, one of its groups or its service account; a change
 * reaches the indexes with the watch event that carries it.
 */
import { newNotFound, StatusError } from '../../apimachinery/errors.js';
import { vendorGroup } from '../../apis/vendor.js';
import type { Informer, InformerHandler } from '../../client/informer.js';
import type { UserInfo } from '../../request/user.js';
import { compileRule, type CompiledRule, type PolicyRule, policyRuleOf } from './rules.js';

/** The group of the RBAC kinds. */
export const RBAC_GROUP = vendorGroup('rbac.authorization');

/** Service-account user names: `system:serviceaccount:<namespace>:<name>`. */
export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';

/** A binding subject as stored. */
export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

/** A binding's role reference as stored. */
export interface RoleRef {
  kind: string;
  name: string;
  apiGroup?: string;
}

/** One RoleBinding (namespace set) or ClusterRoleBinding (namespace ''), as indexed. */
export interface BindingEntry {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  name: string;
  namespace: string;
  roleRef: RoleRef;
  subjects: Subject[];
  /** The visit that last saw this binding (deduplicates bindings reached through several keys). */
  visit: number;
}

/** The four informers the cache reads. */
export interface RbacInformers {
  roles: Informer;
  clusterRoles: Informer;
  roleBindings: Informer;
  clusterRoleBindings: Informer;
}

/**
 * Called for each rule that applies to a user, with the binding and subject that grant it, or
 * with an error text for a binding whose role cannot be resolved; return false to stop.
 */
export type RuleVisitor = (rule: CompiledRule | null, grant: { binding: BindingEntry; subject: Subject } | null, error?: string) => boolean;

type Stored = Parameters<InformerHandler>[1];

const USER_KEY = 'u\u0000';
const GROUP_KEY = 'g\u0000';

/** Whether `subject` (of a binding in `namespace`, '' for cluster bindings) names `user` (upstream `appliesToUser`). */
export function subjectAppliesTo(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace || namespace;
      return ns !== '' && user.name === `${SERVICE_ACCOUNT_USER_PREFIX}${ns}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** The index key of a subject, or undefined when it can never apply. */
function subjectKey(subject: Subject, namespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return USER_KEY + subject.name;
    case 'Group':
      return GROUP_KEY + subject.name;
    case 'ServiceAccount': {
      const ns = subject.namespace || namespace;
      return ns === '' ? undefined : `${USER_KEY}${SERVICE_ACCOUNT_USER_PREFIX}${ns}:${subject.name}`;
    }
    default:
      return undefined;
  }
}

/** Index of bindings by subject key (then binding name). */
class SubjectIndex {
  private readonly byKey = new Map<string, Map<string, BindingEntry>>();
  /** `bindingsOf` answers, dropped for a key when its bindings change. */
  private readonly sorted = new Map<string, readonly BindingEntry[]>();

  add(b: BindingEntry): void {
    for (const key of new Set(b.subjects.map((s) => subjectKey(s, b.namespace)).filter((k): k is string => k !== undefined))) {
      let m = this.byKey.get(key);
      if (!m) this.byKey.set(key, (m = new Map()));
      m.set(b.name, b);
      this.sorted.delete(key);
    }
  }

  remove(b: BindingEntry): void {
    for (const s of b.subjects) {
      const key = subjectKey(s, b.namespace);
      if (key === undefined) continue;
      const m = this.byKey.get(key);
      if (!m) continue;
      m.delete(b.name);
      this.sorted.delete(key);
      if (m.size === 0) this.byKey.delete(key);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /**
   * The bindings naming `key`, ordered by name: the rules of a subject come out in the same order
   * whatever order its bindings were created or listed in (a first start creates them, a restart
   * lists them by name).
   */
  bindingsOf(key: string): readonly BindingEntry[] | undefined {
    let list = this.sorted.get(key);
    if (!list) {
      const m = this.byKey.get(key);
      if (!m) return undefined;
      list = [...m.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.sorted.set(key, list);
    }
    return list;
  }
}

const objKey = (namespace: string, name: string) => (namespace ? `${namespace}/${name}` : name);

function metaOf(obj: Stored): { name: string; namespace: string } {
  const m = obj.metadata ?? {};
  return { name: String(m.name ?? ''), namespace: String(m.namespace ?? '') };
}

function compiledRulesOf(obj: Stored): CompiledRule[] {
  const rules = (obj as { rules?: unknown }).rules;
  return Array.isArray(rules) ? rules.map((r) => compileRule(policyRuleOf(r))) : [];
}

function bindingOf(obj: Stored, kind: BindingEntry['kind']): BindingEntry {
  const { name, namespace } = metaOf(obj);
  const o = obj as { subjects?: unknown; roleRef?: unknown };
  const ref = (o.roleRef ?? {}) as Record<string, unknown>;
  const subjects = (Array.isArray(o.subjects) ? o.subjects : []).map((s) => {
    const x = (s ?? {}) as Record<string, unknown>;
    return { kind: String(x.kind ?? ''), name: String(x.name ?? ''), namespace: x.namespace ? String(x.namespace) : undefined, apiGroup: x.apiGroup ? String(x.apiGroup) : undefined };
  });
  return {
    kind,
    name,
    namespace: kind === 'RoleBinding' ? namespace : '',
    roleRef: { kind: String(ref.kind ?? ''), name: String(ref.name ?? ''), apiGroup: ref.apiGroup ? String(ref.apiGroup) : undefined },
    subjects,
    visit: 0,
  };
}

/** The indexed RBAC objects of one server. */
export class RbacPolicyCache {
  private readonly roles = new Map<string, CompiledRule[]>();
  private readonly clusterRoles = new Map<string, CompiledRule[]>();
  private readonly clusterBindings = new SubjectIndex();
  private readonly clusterBindingByName = new Map<string, BindingEntry>();
  private readonly namespaceBindings = new Map<string, SubjectIndex>();
  private readonly namespaceBindingByKey = new Map<string, BindingEntry>();
  private visits = 0;
  /** Moves with every Role, ClusterRole, RoleBinding or ClusterRoleBinding event (before it is indexed). */
  generation = 0;

  /** Registers the cache's handlers on `informers` (before they run). */
  constructor(private readonly informers: RbacInformers) {
    informers.roles.addHandler((type, obj) => {
      this.generation++;
      const { name, namespace } = metaOf(obj);
      if (type === 'DELETED') this.roles.delete(objKey(namespace, name));
      else this.roles.set(objKey(namespace, name), compiledRulesOf(obj));
    });
    informers.clusterRoles.addHandler((type, obj) => {
      this.generation++;
      const { name } = metaOf(obj);
      if (type === 'DELETED') this.clusterRoles.delete(name);
      else this.clusterRoles.set(name, compiledRulesOf(obj));
    });
    informers.clusterRoleBindings.addHandler((type, obj) => {
      this.generation++;
      const { name } = metaOf(obj);
      const old = this.clusterBindingByName.get(name);
      if (old) this.clusterBindings.remove(old);
      this.clusterBindingByName.delete(name);
      if (type === 'DELETED') return;
      const b = bindingOf(obj, 'ClusterRoleBinding');
      this.clusterBindingByName.set(name, b);
      this.clusterBindings.add(b);
    });
    informers.roleBindings.addHandler((type, obj) => {
      this.generation++;
      const { name, namespace } = metaOf(obj);
      const key = objKey(namespace, name);
      const old = this.namespaceBindingByKey.get(key);
      if (old) {
        const idx = this.namespaceBindings.get(namespace);
        idx?.remove(old);
        if (idx && idx.size === 0) this.namespaceBindings.delete(namespace);
      }
      this.namespaceBindingByKey.delete(key);
      if (type === 'DELETED') return;
      const b = bindingOf(obj, 'RoleBinding');
      this.namespaceBindingByKey.set(key, b);
      let idx = this.namespaceBindings.get(namespace);
      if (!idx) this.namespaceBindings.set(namespace, (idx = new SubjectIndex()));
      idx.add(b);
    });
  }

  /** Resolves once every informer has loaded its first list. */
  async waitForSync(): Promise<void> {
    await Promise.all([this.informers.roles, this.informers.clusterRoles, this.informers.roleBindings, this.informers.clusterRoleBindings].map((i) => i.waitForSync()));
  }

  /** Counts of indexed objects (for the benchmark and diagnostics). */
  stats(): { roles: number; clusterRoles: number; roleBindings: number; clusterRoleBindings: number; namespaces: number } {
    return {
      roles: this.roles.size,
      clusterRoles: this.clusterRoles.size,
      roleBindings: this.namespaceBindingByKey.size,
      clusterRoleBindings: this.clusterBindingByName.size,
      namespaces: this.namespaceBindings.size,
    };
  }

  private compiledRoleRules(ref: RoleRef, namespace: string): CompiledRule[] {
    switch (ref.kind) {
      case 'Role': {
        const rules = namespace ? this.roles.get(objKey(namespace, ref.name)) : undefined;
        if (!rules) throw newNotFound({ group: RBAC_GROUP, resource: 'role' }, ref.name);
        return rules;
      }
      case 'ClusterRole': {
        const rules = this.clusterRoles.get(ref.name);
        if (!rules) throw newNotFound({ group: RBAC_GROUP, resource: 'clusterrole' }, ref.name);
        return rules;
      }
      default:
        throw new Error(`unsupported role reference kind: ${JSON.stringify(ref.kind)}`);
    }
  }

  /**
   * The rules of the role `ref` names for a binding in `namespace` ('' for a ClusterRoleBinding)
   * (upstream `GetRoleReferenceRules`).
   * @throws StatusError NotFound (`role.<group> "x" not found` / `clusterrole.<group> …`, as
   *   upstream's listers) when the role does not exist; Error for an unknown kind.
   */
  roleReferenceRules(ref: RoleRef, namespace: string): PolicyRule[] {
    return this.compiledRoleRules(ref, namespace).map((r) => r.source);
  }

  /**
   * Visits the rules that apply to `user` in `namespace` ('' = cluster bindings only), cluster
   * bindings first (upstream `VisitRulesFor`); stops when `visit` returns false.
   */
  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    const keys = [USER_KEY + user.name];
    for (const g of user.groups) keys.push(GROUP_KEY + g);
    const stamp = ++this.visits;
    const indexes = [this.clusterBindings];
    const nsIndex = namespace ? this.namespaceBindings.get(namespace) : undefined;
    if (nsIndex) indexes.push(nsIndex);
    for (const index of indexes) {
      for (const key of keys) {
        const bindings = index.bindingsOf(key);
        if (!bindings) continue;
        for (const binding of bindings) {
          if (binding.visit === stamp) continue;
          binding.visit = stamp;
          const subject = binding.subjects.find((s) => subjectAppliesTo(user, s, binding.namespace));
          if (!subject) continue;
          let rules: CompiledRule[];
          try {
            rules = this.compiledRoleRules(binding.roleRef, binding.namespace);
          } catch (err) {
            if (!visit(null, null, err instanceof StatusError ? err.status.message : (err as Error).message)) return;
            continue;
          }
          const grant = { binding, subject };
          for (const rule of rules) if (!visit(rule, grant, undefined)) return;
        }
      }
    }
  }

  /**
   * Every rule `user` holds in `namespace` and the errors met resolving its bindings (upstream
   * `RulesFor`: the rules are complete only when there are no errors).
   */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (rule, _grant, error) => {
      if (rule) rules.push(rule.source);
      if (error) errors.push(error);
      return true;
    });
    return { rules, errors };
  }
}
