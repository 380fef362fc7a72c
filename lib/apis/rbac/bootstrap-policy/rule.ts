/**
 * Building blocks of the default RBAC policy (upstream `pkg/apis/rbac/v1` `NewRule` and the
 * helpers of `plugin/pkg/auth/authorizer/rbac/bootstrappolicy`): a rule builder that sorts every
 * list as upstream's `RuleOrDie` does, the verb sets, the API groups in the vendor spelling, and
 * the metadata every default object carries. spec 001 § RBAC mode.
 */
import { BOOTSTRAPPING_LABEL, RBAC_AUTOUPDATE_ANNOTATION, vendorGroup } from '../../vendor.js';
import { RBAC_GROUP } from '../v1/types.js';

/** A PolicyRule of `rbac.authorization.<vendor>/v1`; absent lists are left out, as upstream serializes them. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A Subject of a binding. */
export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  apiGroup?: string;
  name: string;
  namespace?: string;
}

/** ObjectMeta of a default object: name, namespace for namespaced ones, labels and annotations. */
export interface DefaultMeta {
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** A default Role or ClusterRole. */
export interface DefaultRole {
  metadata: DefaultMeta;
  rules: PolicyRule[];
  /** ClusterRoles only: the selectors whose roles' rules are aggregated into this one. */
  aggregationRule?: { clusterRoleSelectors: { matchLabels: Record<string, string> }[] };
}

/** A default RoleBinding or ClusterRoleBinding. */
export interface DefaultBinding {
  metadata: DefaultMeta;
  roleRef: { apiGroup: string; kind: 'Role' | 'ClusterRole'; name: string };
  subjects?: Subject[];
}

/** Verb sets of upstream's bootstrap policy. */
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const READ_WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
export const READ = ['get', 'list', 'watch'];
export const READ_UPDATE = ['get', 'list', 'watch', 'update', 'patch'];

/** API groups of the rules; those of the vendor domain are built from vendor.ts. */
export const G = {
  legacy: '',
  apps: 'apps',
  authentication: vendorGroup('authentication'),
  authorization: vendorGroup('authorization'),
  autoscaling: 'autoscaling',
  batch: 'batch',
  certificates: vendorGroup('certificates'),
  coordination: vendorGroup('coordination'),
  discovery: vendorGroup('discovery'),
  extensions: 'extensions',
  policy: 'policy',
  rbac: RBAC_GROUP,
  storage: vendorGroup('storage'),
  resMetrics: vendorGroup('metrics'),
  customMetrics: vendorGroup('custom.metrics'),
  externalMetrics: vendorGroup('external.metrics'),
  networking: vendorGroup('networking'),
  events: vendorGroup('events'),
  node: vendorGroup('node'),
  admissionRegistration: vendorGroup('admissionregistration'),
} as const;

/** Chained builder of one PolicyRule (upstream `NewRule(verbs...).Groups(...).Resources(...)`). */
export class RuleBuilder {
  private readonly r: Required<PolicyRule>;

  constructor(verbs: readonly string[]) {
    this.r = { verbs: [...verbs], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [] };
  }

  /** Adds API groups. */
  groups(...g: string[]): this {
    this.r.apiGroups.push(...g);
    return this;
  }

  /** Adds resources (`resource/subresource` allowed). */
  resources(...res: string[]): this {
    this.r.resources.push(...res);
    return this;
  }

  /** Limits the rule to object names. */
  names(...n: string[]): this {
    this.r.resourceNames.push(...n);
    return this;
  }

  /** Adds non-resource URLs. */
  urls(...u: string[]): this {
    this.r.nonResourceURLs.push(...u);
    return this;
  }

  /**
   * The rule, every list sorted and empty lists left out (upstream `Rule()`).
   * @throws Error on a rule upstream's builder rejects: no verbs, resources and URLs mixed, a
   *   resource rule without groups or resources, resource names on a URL rule.
   */
  rule(): PolicyRule {
    const { verbs, apiGroups, resources, resourceNames, nonResourceURLs } = this.r;
    if (verbs.length === 0) throw new Error('verbs are required');
    if (nonResourceURLs.length > 0) {
      if (apiGroups.length > 0 || resources.length > 0 || resourceNames.length > 0) throw new Error('non-resource rules cannot have groups, resources or names');
    } else if (apiGroups.length === 0 || resources.length === 0) {
      throw new Error('resource rules must have groups and resources');
    }
    const out: PolicyRule = { verbs: [...verbs].sort() };
    if (apiGroups.length > 0) out.apiGroups = [...apiGroups].sort();
    if (resources.length > 0) out.resources = [...resources].sort();
    if (resourceNames.length > 0) out.resourceNames = [...resourceNames].sort();
    if (nonResourceURLs.length > 0) out.nonResourceURLs = [...nonResourceURLs].sort();
    return out;
  }
}

/** Starts a rule with `verbs` (upstream `rbacv1helpers.NewRule`). */
export function rule(...verbs: string[]): RuleBuilder {
  return new RuleBuilder(verbs);
}

/** The rule upstream's `eventsRule()` grants every component that records events. */
export function eventsRule(): PolicyRule {
  return rule('create', 'update', 'patch').groups(G.legacy, G.events).resources('events').rule();
}

/** Value of {@link BOOTSTRAPPING_LABEL} on every default object. */
export const BOOTSTRAPPING_VALUE = 'rbac-defaults';

/** Metadata of a default object: the bootstrapping label and autoupdate "true" beside `labels`. */
export function defaultMeta(name: string, labels: Record<string, string> = {}, namespace?: string): DefaultMeta {
  return {
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    labels: { ...labels, [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE },
    annotations: { [RBAC_AUTOUPDATE_ANNOTATION]: 'true' },
  };
}

/** A User subject. */
export function user(name: string): Subject {
  return { kind: 'User', apiGroup: RBAC_GROUP, name };
}

/** A Group subject. */
export function group(name: string): Subject {
  return { kind: 'Group', apiGroup: RBAC_GROUP, name };
}

/** A ServiceAccount subject. */
export function serviceAccount(namespace: string, name: string): Subject {
  return { kind: 'ServiceAccount', name, namespace };
}

/** A ClusterRoleBinding named like its ClusterRole (upstream `NewClusterBinding(name)`). */
export function clusterBinding(roleName: string, subjects: Subject[]): DefaultBinding {
  return {
    metadata: defaultMeta(roleName),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    ...(subjects.length > 0 ? { subjects } : {}),
  };
}
