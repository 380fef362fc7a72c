/**
 * Who may act on an object (issue #22 § Who may), as the `who-can` kubectl plugin computes it:
 * the subjects of every RoleBinding and ClusterRoleBinding whose role has a rule matching the
 * verb, group, resource and name. Pure code (no DOM, no imports), so unit tests can run it; the
 * candidates are confirmed afterwards with SubjectAccessReviews (`reviewSpec`).
 */

/** One RBAC rule (`rules[]` of a Role or ClusterRole). */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A Role or ClusterRole (a Role has a namespace). */
export interface RoleObject {
  metadata: { name: string; namespace?: string };
  rules?: PolicyRule[] | null;
}

/** A subject of a binding. */
export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

/** A RoleBinding or ClusterRoleBinding (a RoleBinding has a namespace). */
export interface BindingObject {
  metadata: { name: string; namespace?: string };
  roleRef: { kind: string; name: string; apiGroup?: string };
  subjects?: Subject[] | null;
}

/** The RBAC objects read: cluster-wide ones and those of the object's namespace. */
export interface RbacObjects {
  clusterRoles: RoleObject[];
  roles: RoleObject[];
  clusterRoleBindings: BindingObject[];
  roleBindings: BindingObject[];
}

/** What is asked: may anyone `verb` this resource (and name) in this namespace? */
export interface AccessQuery {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  /** The object's name; left out for verbs on the collection (list, watch, create). */
  name?: string;
  /** The object's namespace; undefined for a cluster-scoped object. */
  namespace?: string;
}

/** A subject that a binding grants the access to, with the bindings that do. */
export interface Candidate {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  /** The namespace of a ServiceAccount. */
  namespace?: string;
  /** `RoleBinding ns/name → Role name` and the like, one per granting binding. */
  via: string[];
}

/** The verbs that act on one named object; the others act on the collection. */
const NAMED_VERBS = new Set(['get', 'update', 'patch', 'delete']);

/** The query for `verb` on an object: the name only for verbs on a named object. issue #22 § Who may. */
export function accessQuery(verb: string, group: string, resource: string, name: string, namespace?: string): AccessQuery {
  return { verb, group, resource, name: NAMED_VERBS.has(verb) ? name : undefined, namespace };
}

const has = (list: string[] | undefined, value: string) => !!list && (list.includes('*') || list.includes(value));

/**
 * Whether one rule allows the access, with RBAC's wildcards: `*` verbs, groups and resources,
 * `*` and `*` + `/sub` for subresources; `resourceNames` (when set) must name the object, so
 * they never match a verb on the collection. issue #22 § Who may.
 */
export function ruleMatches(rule: PolicyRule, q: AccessQuery): boolean {
  if (!has(rule.verbs, q.verb)) return false;
  if (!has(rule.apiGroups, q.group)) return false;
  const resources = rule.resources ?? [];
  const full = q.subresource ? `${q.resource}/${q.subresource}` : q.resource;
  const resourceOk = resources.includes('*') || resources.includes(full) || (!!q.subresource && resources.includes(`*/${q.subresource}`));
  if (!resourceOk) return false;
  const names = rule.resourceNames ?? [];
  if (names.length === 0) return true;
  return q.name !== undefined && names.includes(q.name);
}

function roleOf(rbac: RbacObjects, b: BindingObject, bindingNamespace: string | undefined): RoleObject | undefined {
  if (b.roleRef.kind === 'ClusterRole') return rbac.clusterRoles.find((r) => r.metadata.name === b.roleRef.name);
  if (b.roleRef.kind === 'Role' && bindingNamespace) return rbac.roles.find((r) => r.metadata.name === b.roleRef.name && r.metadata.namespace === bindingNamespace);
  return undefined;
}

function subjectKey(s: Subject, bindingNamespace: string | undefined): { key: string; c: Omit<Candidate, 'via'> } | undefined {
  if (s.kind === 'User' || s.kind === 'Group') return { key: `${s.kind}/${s.name}`, c: { kind: s.kind, name: s.name } };
  if (s.kind === 'ServiceAccount') {
    const namespace = s.namespace || bindingNamespace;
    if (!namespace) return undefined;
    return { key: `ServiceAccount/${namespace}/${s.name}`, c: { kind: 'ServiceAccount', name: s.name, namespace } };
  }
  return undefined;
}

/**
 * The subjects whose bound rules match `q`: ClusterRoleBindings everywhere, RoleBindings of the
 * object's namespace only (to a Role of that namespace or a ClusterRole). Sorted by kind, then
 * namespace and name; each subject once, with every granting binding. issue #22 § Who may.
 */
export function whoCan(rbac: RbacObjects, q: AccessQuery): Candidate[] {
  const found = new Map<string, Candidate>();
  const consider = (b: BindingObject, label: string, bindingNamespace: string | undefined) => {
    const role = roleOf(rbac, b, bindingNamespace);
    if (!role || !(role.rules ?? []).some((r) => ruleMatches(r, q))) return;
    for (const s of b.subjects ?? []) {
      const k = subjectKey(s, bindingNamespace);
      if (!k) continue;
      const c = found.get(k.key) ?? { ...k.c, via: [] };
      c.via.push(`${label} → ${b.roleRef.kind} ${b.roleRef.name}`);
      found.set(k.key, c);
    }
  };
  for (const b of rbac.clusterRoleBindings) consider(b, `ClusterRoleBinding ${b.metadata.name}`, undefined);
  if (q.namespace) {
    for (const b of rbac.roleBindings) {
      if (b.metadata.namespace === q.namespace) consider(b, `RoleBinding ${q.namespace}/${b.metadata.name}`, q.namespace);
    }
  }
  const order = { User: 0, Group: 1, ServiceAccount: 2 };
  return [...found.values()].sort(
    (a, b) => order[a.kind] - order[b.kind] || (a.namespace ?? '').localeCompare(b.namespace ?? '') || a.name.localeCompare(b.name),
  );
}

/** The `spec` of the SubjectAccessReview that confirms one candidate. issue #22 § Who may. */
export function reviewSpec(c: Candidate, q: AccessQuery): Record<string, unknown> {
  const resourceAttributes = {
    verb: q.verb,
    group: q.group,
    resource: q.resource,
    ...(q.subresource && { subresource: q.subresource }),
    ...(q.name !== undefined && { name: q.name }),
    ...(q.namespace && { namespace: q.namespace }),
  };
  if (c.kind === 'Group') return { groups: [c.name], resourceAttributes };
  if (c.kind === 'ServiceAccount') return { user: `system:serviceaccount:${c.namespace}:${c.name}`, resourceAttributes };
  return { user: c.name, resourceAttributes };
}

/** How a candidate is named in the table (issue #22 § Who may): its name, `namespace/name` for a ServiceAccount. */
export function candidateLabel(c: Candidate): string {
  if (c.kind === 'ServiceAccount') return `${c.namespace}/${c.name}`;
  return c.name;
}
