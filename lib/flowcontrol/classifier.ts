/**
 * Classification of requests by FlowSchemas (upstream v1.30 `util/flowcontrol/rule.go` and the
 * classifier of apf_controller.go): schemas are tried by ascending `matchingPrecedence`, then
 * name; the first with a rule that matches the request decides its priority level, and its
 * distinguisher (`ByUser`: the user name, `ByNamespace`: the namespace, none: '') tells its flow.
 * A rule matches when one subject matches (User, Group or ServiceAccount by name, `*` for any)
 * and — for a resource request — one resource rule matches (verb, API group, resource with its
 * subresource, and namespace, or `clusterScope` for a request without one), or — for a
 * non-resource request — one non-resource rule (verb, URL exactly, `*`, or a `/prefix/*`).
 */
import type { Obj } from '../apis/define.js';
import type { RequestInfo } from '../request/request-info.js';
import type { UserInfo } from '../request/user.js';

const WILDCARD = '*';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** A set of names where `*` matches every name. */
class NameSet {
  private readonly all: boolean;
  private readonly names: Set<string>;
  constructor(names: unknown) {
    const list = Array.isArray(names) ? (names as string[]) : [];
    this.all = list.includes(WILDCARD);
    this.names = new Set(list);
  }
  has(name: string): boolean {
    return this.all || this.names.has(name);
  }
}

interface CompiledResourceRule {
  verbs: NameSet;
  apiGroups: NameSet;
  resources: NameSet;
  clusterScope: boolean;
  namespaces: NameSet;
}

interface CompiledNonResourceRule {
  verbs: NameSet;
  exact: Set<string>;
  all: boolean;
  /** `/prefix/*` rules as `/prefix/`. */
  prefixes: string[];
}

type SubjectMatcher = (user: UserInfo) => boolean;

interface CompiledRule {
  subjects: SubjectMatcher[];
  resourceRules: CompiledResourceRule[];
  nonResourceRules: CompiledNonResourceRule[];
}

/** A FlowSchema as the classifier uses it. */
export interface DigestedFlowSchema {
  name: string;
  uid: string;
  matchingPrecedence: number;
  /** `spec.priorityLevelConfiguration.name`. */
  priorityLevel: string;
  distinguisher: 'ByUser' | 'ByNamespace' | '';
  rules: CompiledRule[];
}

function compileSubject(s: Obj): SubjectMatcher {
  switch (s.kind) {
    case 'User': {
      const name = (s.user as Obj | undefined)?.name as string;
      return name === WILDCARD ? () => true : (u) => u.name === name;
    }
    case 'Group': {
      const name = (s.group as Obj | undefined)?.name as string;
      return name === WILDCARD ? () => true : (u) => u.groups.includes(name);
    }
    case 'ServiceAccount': {
      const sa = (s.serviceAccount ?? {}) as Obj;
      const prefix = `${SERVICE_ACCOUNT_PREFIX}${sa.namespace as string}:`;
      if (sa.name === WILDCARD) return (u) => u.name.startsWith(prefix) && u.name.indexOf(':', prefix.length) < 0;
      const full = `${prefix}${sa.name as string}`;
      return (u) => u.name === full;
    }
    default:
      return () => false;
  }
}

function compileRule(r: Obj): CompiledRule {
  const list = (v: unknown) => (Array.isArray(v) ? (v as Obj[]) : []);
  return {
    subjects: list(r.subjects).map(compileSubject),
    resourceRules: list(r.resourceRules).map((rr) => ({
      verbs: new NameSet(rr.verbs),
      apiGroups: new NameSet(rr.apiGroups),
      resources: new NameSet(rr.resources),
      clusterScope: rr.clusterScope === true,
      namespaces: new NameSet(rr.namespaces),
    })),
    nonResourceRules: list(r.nonResourceRules).map((nr) => {
      const urls = Array.isArray(nr.nonResourceURLs) ? (nr.nonResourceURLs as string[]) : [];
      return {
        verbs: new NameSet(nr.verbs),
        exact: new Set(urls),
        all: urls.includes(WILDCARD),
        prefixes: urls.filter((u) => u.endsWith('/*')).map((u) => u.slice(0, -1)),
      };
    }),
  };
}

/** Digests one FlowSchema object (already validated and defaulted by the API). */
export function digestFlowSchema(fs: Obj): DigestedFlowSchema {
  const meta = (fs.metadata ?? {}) as Obj;
  const spec = (fs.spec ?? {}) as Obj;
  const d = ((spec.distinguisherMethod as Obj | undefined)?.type as string | undefined) ?? '';
  return {
    name: meta.name as string,
    uid: (meta.uid as string | undefined) ?? '',
    matchingPrecedence: (spec.matchingPrecedence as number | undefined) ?? 1000,
    priorityLevel: ((spec.priorityLevelConfiguration as Obj | undefined)?.name as string | undefined) ?? '',
    distinguisher: d === 'ByUser' || d === 'ByNamespace' ? d : '',
    rules: (Array.isArray(spec.rules) ? (spec.rules as Obj[]) : []).map(compileRule),
  };
}

function matchesResource(info: RequestInfo, rules: CompiledResourceRule[]): boolean {
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  for (const r of rules) {
    if (!r.verbs.has(info.verb) || !r.resources.has(resource) || !r.apiGroups.has(info.apiGroup)) continue;
    if (info.namespace === '' ? r.clusterScope : r.namespaces.has(info.namespace)) return true;
  }
  return false;
}

function matchesNonResource(info: RequestInfo, rules: CompiledNonResourceRule[]): boolean {
  for (const r of rules) {
    if (!r.verbs.has(info.verb)) continue;
    if (r.all || r.exact.has(info.path)) return true;
    for (const p of r.prefixes) if (info.path.startsWith(p) || info.path === p.slice(0, -1)) return true;
  }
  return false;
}

/** Whether `fs` matches a request of `user` described by `info`. */
export function matchesFlowSchema(fs: DigestedFlowSchema, user: UserInfo, info: RequestInfo): boolean {
  for (const rule of fs.rules) {
    if (!rule.subjects.some((s) => s(user))) continue;
    if (info.isResourceRequest ? matchesResource(info, rule.resourceRules) : matchesNonResource(info, rule.nonResourceRules)) return true;
  }
  return false;
}

/** Orders schemas as upstream: ascending matchingPrecedence, then name. */
export function sortFlowSchemas(schemas: DigestedFlowSchema[]): DigestedFlowSchema[] {
  return schemas.sort((a, b) => a.matchingPrecedence - b.matchingPrecedence || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The flow distinguisher of a request under `fs`. */
export function distinguisherOf(fs: DigestedFlowSchema, user: UserInfo, info: RequestInfo): string {
  if (fs.distinguisher === 'ByUser') return user.name;
  if (fs.distinguisher === 'ByNamespace') return info.namespace;
  return '';
}

/** The first schema of `sorted` matching the request, undefined when none does. */
export function classify(sorted: readonly DigestedFlowSchema[], user: UserInfo, info: RequestInfo): DigestedFlowSchema | undefined {
  for (const fs of sorted) if (matchesFlowSchema(fs, user, info)) return fs;
  return undefined;
}
