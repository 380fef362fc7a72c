/**
 * FlowSchema validation with upstream's paths and messages (v1.30 `ValidateFlowSchema`,
 * `ValidateFlowSchemaStatusUpdate`): precedence 1..10000 with 1 only for `exempt`, a supported
 * distinguisher, a priority level name, rules with subjects (User, Group, ServiceAccount and their
 * fields) and resource or non-resource rules (`*` alone, supported verbs, namespaces or cluster
 * scope, URL paths), the fixed spec of the mandatory schemas, unique condition types. ObjectMeta
 * (DNS subdomain names) is checked by the caller.
 */
import {
  type FieldError,
  FieldPath,
  duplicate,
  forbidden,
  GoSyntax,
  goStringSlice,
  invalid,
  notSupported,
  required,
} from '../../../apimachinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { list, num, obj, objs, str } from '../../core/v1/obj-access.js';
import type { Obj } from '../../define.js';
import { mandatorySpec } from './bootstrap.js';
import { specsEqual } from './semantic.js';
import { EXEMPT, MAX_MATCHING_PRECEDENCE, WILDCARD } from './types.js';

/** Upstream's supported verbs and distinguisher methods, sorted as its `sets.String.List()`. */
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];

const strings = (v: unknown): string[] => list(v).map(str);
const hasWildcard = (values: readonly string[]) => values.includes(WILDCARD);

/** A list of verbs: not empty, `*` alone, otherwise only supported verbs. */
function validateVerbs(verbs: string[], path: FieldPath): FieldError[] {
  if (verbs.length === 0) return [required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) return verbs.length > 1 ? [invalid(path, goStringSlice(verbs), "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => SUPPORTED_VERBS.includes(v)) ? [] : [notSupported(path, goStringSlice(verbs), SUPPORTED_VERBS)];
}

/** One non-resource URL (upstream `ValidateNonResourceURLPath`): a slash-led path, `/*` only as its suffix. */
export function validateNonResourceURLPath(url: string, path: FieldPath): FieldError | undefined {
  if (url === '') return invalid(path, url, 'must not be empty');
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return invalid(path, url, 'must start with slash');
  if (url.includes(' ')) return invalid(path, url, 'must not contain white-space');
  if (url.includes('//')) return invalid(path, url, 'must not contain double slash');
  const wildcards = url.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && url.slice(-2) !== '/*')) return invalid(path, url, 'wildcard can only do suffix matching');
  return undefined;
}

function validateNonResourceRule(rule: Obj, path: FieldPath): FieldError[] {
  const errs = validateVerbs(strings(rule.verbs), path.child('verbs'));
  const urls = strings(rule.nonResourceURLs);
  const urlsPath = path.child('nonResourceURLs');
  if (urls.length === 0) errs.push(required(urlsPath, 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1) errs.push(invalid(urlsPath, goStringSlice(urls), "if '*' is present, must not specify other non-resource URLs"));
  } else {
    urls.forEach((url, i) => {
      const err = validateNonResourceURLPath(url, urlsPath.index(i));
      if (err) errs.push(err);
    });
  }
  return errs;
}

const NAMESPACE_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

function validateResourceRule(rule: Obj, path: FieldPath): FieldError[] {
  const errs = validateVerbs(strings(rule.verbs), path.child('verbs'));
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && hasWildcard(groups)) errs.push(invalid(path.child('apiGroups'), goStringSlice(groups), "if '*' is present, must not specify other api groups"));
  const resources = strings(rule.resources);
  if (resources.length === 0) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && hasWildcard(resources)) errs.push(invalid(path.child('resources'), goStringSlice(resources), "if '*' is present, must not specify other resources"));
  const namespaces = strings(rule.namespaces);
  const nsPath = path.child('namespaces');
  if (namespaces.length === 0 && rule.clusterScope !== true) {
    errs.push(required(nsPath, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) errs.push(invalid(nsPath, goStringSlice(namespaces), "if '*' is present, must not specify other namespaces"));
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of isDNS1123Label(ns)) errs.push(invalid(nsPath.index(i), ns, NAMESPACE_INTRO + msg));
    });
  }
  return errs;
}

function validateServiceAccountSubject(sa: Obj | undefined, path: FieldPath): FieldError[] {
  if (!sa) return [required(path, "serviceAccount is required when subject kind is 'ServiceAccount'")];
  const errs: FieldError[] = [];
  const name = str(sa.name);
  if (name === '') errs.push(required(path.child('name')));
  else if (name !== WILDCARD) for (const msg of isDNS1123Subdomain(name)) errs.push(invalid(path.child('name'), name, msg));
  const namespace = str(sa.namespace);
  if (namespace === '') errs.push(required(path.child('namespace'), 'must specify namespace for service account'));
  else for (const msg of isDNS1123Label(namespace)) errs.push(invalid(path.child('namespace'), namespace, msg));
  return errs;
}

/** A User or Group subject: present, with a name. */
function validateNamedSubject(subject: Obj | undefined, kind: 'user' | 'group', path: FieldPath): FieldError[] {
  if (!subject) return [required(path, `${kind} is required when subject kind is '${kind === 'user' ? 'User' : 'Group'}'`)];
  return str(subject.name) === '' ? [required(path.child('name'))] : [];
}

const FORBIDDEN_MEMBER: Record<string, string> = {
  user: "user is forbidden when subject kind is not 'User'",
  group: "group is forbidden when subject kind is not 'Group'",
  serviceAccount: "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
};

/** One subject: the member its kind names is valid, the other two are absent. */
function validateSubject(subject: Obj, path: FieldPath): FieldError[] {
  const kind = str(subject.kind);
  const errs: FieldError[] = [];
  let own: string;
  if (kind === 'ServiceAccount') {
    own = 'serviceAccount';
    errs.push(...validateServiceAccountSubject(obj(subject.serviceAccount), path.child(own)));
  } else if (kind === 'User' || kind === 'Group') {
    own = kind === 'User' ? 'user' : 'group';
    errs.push(...validateNamedSubject(obj(subject[own]), own as 'user' | 'group', path.child(own)));
  } else {
    return [notSupported(path.child('kind'), kind, SUBJECT_KINDS)];
  }
  // upstream's order of the forbidden members: user, group for ServiceAccount; serviceAccount, then the other for User and Group
  const others = own === 'serviceAccount' ? ['user', 'group'] : own === 'user' ? ['serviceAccount', 'group'] : ['serviceAccount', 'user'];
  for (const other of others) if (obj(subject[other])) errs.push(forbidden(path.child(other), FORBIDDEN_MEMBER[other]!));
  return errs;
}

function validateRule(rule: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = objs(rule.subjects);
  if (subjects.length > 0) subjects.forEach((s, i) => errs.push(...validateSubject(s, path.child('subjects').index(i))));
  else errs.push(required(path.child('subjects'), 'subjects must contain at least one value'));
  const resourceRules = objs(rule.resourceRules);
  const nonResourceRules = objs(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errs.push(...validateResourceRule(r, path.child('resourceRules').index(i))));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourceRule(r, path.child('nonResourceRules').index(i))));
  return errs;
}

function validateSpec(name: string, spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = num(spec.matchingPrecedence) ?? 0;
  const precedencePath = path.child('matchingPrecedence');
  if (precedence <= 0) errs.push(invalid(precedencePath, precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) errs.push(invalid(precedencePath, precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && name !== EXEMPT) errs.push(invalid(precedencePath, precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = obj(spec.distinguisherMethod);
  if (method && !DISTINGUISHER_METHODS.includes(str(method.type))) {
    const shown = new GoSyntax(`flowcontrol.FlowDistinguisherMethod{Type:${JSON.stringify(str(method.type))}}`);
    errs.push(notSupported(path.child('distinguisherMethod', 'type'), shown, DISTINGUISHER_METHODS));
  }
  const level = str(obj(spec.priorityLevelConfiguration)?.name);
  const levelPath = path.child('priorityLevelConfiguration', 'name');
  if (level === '') errs.push(required(levelPath, 'must reference a priority level'));
  else for (const msg of isDNS1123Subdomain(level)) errs.push(invalid(levelPath, level, msg));
  objs(spec.rules).forEach((rule, i) => errs.push(...validateRule(rule, path.child('rules').index(i))));
  return errs;
}

/** Status conditions (upstream `ValidateFlowSchemaStatus`, same for priority levels): unique, non-empty types. */
export function validateConditions(status: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(obj(status)?.conditions).forEach((c, i) => {
    const type = str(c.type);
    const path = FieldPath.of('status', 'conditions').index(i).child('type');
    if (seen.has(type)) errs.push(duplicate(path, type));
    seen.add(type);
    if (type === '') errs.push(required(path, 'must not be empty'));
  });
  return errs;
}

/** Create and update (upstream `ValidateFlowSchema`): the spec, the fixed spec of a mandatory schema, the status. */
export function validateFlowSchema(fs: Obj): FieldError[] {
  const name = str(obj(fs.metadata)?.name);
  const spec = obj(fs.spec) ?? {};
  const errs = validateSpec(name, spec, FieldPath.of('spec'));
  const fixed = mandatorySpec('FlowSchema', name);
  if (fixed && !specsEqual(spec, fixed)) errs.push(invalid('spec', spec, `spec of '${name}' must equal the fixed value`));
  errs.push(...validateConditions(fs.status));
  return errs;
}

/** A status write (upstream `ValidateFlowSchemaStatusUpdate`): the conditions only. */
export function validateFlowSchemaStatusUpdate(fs: Obj): FieldError[] {
  return validateConditions(fs.status);
}
