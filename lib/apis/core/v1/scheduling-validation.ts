/**
 * Validation of the scheduling and networking parts of a PodSpec with the upstream paths and
 * messages: node and pod (anti-)affinity, tolerations, topology spread constraints, DNS config,
 * host aliases, readiness and scheduling gates, resource claims.
 */
import { duplicate, type FieldError, type FieldPath, forbidden, invalid, required } from '../../../apimachinery/field-errors.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { validateIP } from '../../../apimachinery/validation/ip.js';
import { validateLabelName } from '../../../apimachinery/validation/label-map.js';
import { isDNS1123Label, isDNS1123Subdomain, isValidLabelValue } from '../../../apimachinery/validation/names.js';
import { list, num, obj, objs, str, strMap, type Obj } from './obj-access.js';

const selector = (v: unknown, path: FieldPath): FieldError[] => validateLabelSelectorObject(obj(v) as never, path);

/** The label keys a `metav1.LabelSelector` mentions (matchLabels and matchExpressions). */
function selectorKeys(sel: Obj): Set<string> {
  return new Set([...Object.keys(strMap(sel.matchLabels)), ...objs(sel.matchExpressions).map((e) => str(e.key))]);
}

function validateNodeSelectorRequirement(rq: Obj, allowInvalidValues: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = list(rq.values);
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      if (rq.operator !== undefined) errs.push(invalid(path.child('operator'), rq.operator, 'not a valid selector operator'));
  }
  if (str(rq.key)) errs.push(...validateLabelName(str(rq.key), path.child('key')));
  if (!allowInvalidValues) values.forEach((v, i) => errs.push(...isValidLabelValue(str(v)).map((m) => invalid(path.child('values').index(i), v, m))));
  return errs;
}

function validateNodeFieldRequirement(rq: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (list(rq.values).length !== 1) errs.push(required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else if (rq.operator !== undefined) errs.push(invalid(path.child('operator'), rq.operator, 'not a valid selector operator'));
  if (rq.key !== undefined && rq.key !== 'metadata.name') errs.push(invalid(path.child('key'), rq.key, 'not a valid field selector key'));
  else list(rq.values).forEach((v, i) => errs.push(...isDNS1123Subdomain(str(v)).map((m) => invalid(path.child('values').index(i), v, m))));
  return errs;
}

function validateNodeSelectorTerm(term: Obj, allowInvalidValues: boolean, path: FieldPath): FieldError[] {
  return [
    ...objs(term.matchExpressions).flatMap((rq, j) => validateNodeSelectorRequirement(rq, allowInvalidValues, path.child('matchExpressions').index(j))),
    ...objs(term.matchFields).flatMap((rq, j) => validateNodeFieldRequirement(rq, path.child('matchFields').index(j))),
  ];
}

function validateWeight(weight: unknown, path: FieldPath): FieldError[] {
  const w = num(weight);
  return w !== undefined && (w <= 0 || w > 100) ? [invalid(path, w, 'must be in the range 1-100')] : [];
}

/** A NodeSelector (upstream `ValidateNodeSelector`): at least one term, each term checked. */
export function validateNodeSelector(sel: Obj, path: FieldPath): FieldError[] {
  const p = path.child('nodeSelectorTerms');
  const terms = objs(sel.nodeSelectorTerms);
  if (terms.length === 0) return [required(p, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, false, p.index(i)));
}

function validateNodeAffinity(na: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const requiredSel = obj(na.requiredDuringSchedulingIgnoredDuringExecution);
  if (requiredSel) {
    const p = path.child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
    const terms = objs(requiredSel.nodeSelectorTerms);
    if (terms.length === 0) errs.push(required(p, 'must have at least one node selector term'));
    terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(t, false, p.index(i))));
  }
  objs(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    const p = path.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
    errs.push(...validateWeight(t.weight, p.child('weight')));
    errs.push(...validateNodeSelectorTerm(obj(t.preference) ?? {}, true, p.child('preference')));
  });
  return errs;
}

function validateLabelKeys(keys: unknown, sel: unknown, path: FieldPath): FieldError[] {
  const ks = list(keys).map(str);
  if (ks.length === 0) return [];
  if (!obj(sel)) return [forbidden(path, 'must not be specified when labelSelector is not set')];
  return ks.flatMap((k, i) => validateLabelName(k, path.index(i)));
}

function validatePodAffinityTerm(term: Obj, path: FieldPath): FieldError[] {
  const errs = [...selector(term.labelSelector, path.child('labelSelector')), ...selector(term.namespaceSelector, path.child('namespaceSelector'))];
  for (const ns of list(term.namespaces).map(str)) errs.push(...isDNS1123Label(ns).map((m) => invalid(path.child('namespace'), ns, m)));
  errs.push(...validateLabelKeys(term.matchLabelKeys, term.labelSelector, path.child('matchLabelKeys')));
  errs.push(...validateLabelKeys(term.mismatchLabelKeys, term.labelSelector, path.child('mismatchLabelKeys')));
  const sel = obj(term.labelSelector);
  if (sel) {
    const keys = selectorKeys(sel);
    list(term.matchLabelKeys).forEach((k, i) => {
      if (keys.has(str(k))) errs.push(invalid(path.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and labelSelector'));
    });
  }
  const mismatch = new Set(list(term.mismatchLabelKeys).map(str));
  list(term.matchLabelKeys).forEach((k, i) => {
    if (mismatch.has(str(k))) errs.push(invalid(path.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  const topologyKey = str(term.topologyKey);
  if (!topologyKey) errs.push(required(path.child('topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, path.child('topologyKey')));
  return errs;
}

function validatePodAffinityRules(a: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objs(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
    errs.push(...validatePodAffinityTerm(t, path.child('requiredDuringSchedulingIgnoredDuringExecution').index(i))),
  );
  objs(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    const p = path.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
    errs.push(...validateWeight(t.weight, p.child('weight')));
    errs.push(...validatePodAffinityTerm(obj(t.podAffinityTerm) ?? {}, p.child('podAffinityTerm')));
  });
  return errs;
}

/** Validates `spec.affinity` at `path`. */
export function validateAffinity(affinity: unknown, path: FieldPath): FieldError[] {
  const a = obj(affinity);
  if (!a) return [];
  const errs: FieldError[] = [];
  if (obj(a.nodeAffinity)) errs.push(...validateNodeAffinity(obj(a.nodeAffinity)!, path.child('nodeAffinity')));
  if (obj(a.podAffinity)) errs.push(...validatePodAffinityRules(obj(a.podAffinity)!, path.child('podAffinity')));
  if (obj(a.podAntiAffinity)) errs.push(...validatePodAffinityRules(obj(a.podAntiAffinity)!, path.child('podAntiAffinity')));
  return errs;
}

/** Validates a list of tolerations at `path` (upstream ValidateTolerations). */
export function validateTolerations(tolerations: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objs(tolerations).forEach((t, i) => {
    const p = path.index(i);
    const key = str(t.key);
    const operator = str(t.operator);
    if (key) errs.push(...validateLabelName(key, p.child('key')));
    if (!key && operator !== 'Exists')
      errs.push(invalid(p.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute')
      errs.push(invalid(p.child('effect'), str(t.effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    const value = str(t.value);
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(invalid(p.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists' && value) {
      errs.push(invalid(p.child('operator'), value, "value must be empty when `operator` is 'Exists'"));
    }
  });
  return errs;
}

/** Validates `spec.topologySpreadConstraints` at `path`. */
export function validateTopologySpreadConstraints(constraints: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const all = objs(constraints);
  all.forEach((c, i) => {
    const p = path.index(i);
    const maxSkew = num(c.maxSkew);
    if (maxSkew !== undefined && maxSkew <= 0) errs.push(invalid(p.child('maxSkew'), maxSkew, 'must be greater than zero'));
    if (!str(c.topologyKey)) errs.push(required(p.child('topologyKey'), 'can not be empty'));
    if (all.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable))
      errs.push(duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${str(c.topologyKey)}, ${str(c.whenUnsatisfiable)}}`));
    const minDomains = num(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(invalid(p.child('minDomains'), minDomains, 'must be greater than zero'));
      if (c.whenUnsatisfiable !== 'DoNotSchedule')
        errs.push(invalid(p.child('minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${str(c.whenUnsatisfiable)}`));
    }
    const keys = list(c.matchLabelKeys).map(str);
    const sel = obj(c.labelSelector);
    if (keys.length > 0 && !sel) errs.push(forbidden(p.child('matchLabelKeys'), 'must not be specified when labelSelector is not set'));
    const inSelector = sel ? selectorKeys(sel) : new Set<string>();
    keys.forEach((k, j) => {
      errs.push(...validateLabelName(k, p.child('matchLabelKeys').index(j)));
      if (inSelector.has(k)) errs.push(invalid(p.child('matchLabelKeys').index(j), k, 'exists in both matchLabelKeys and labelSelector'));
    });
    errs.push(...selector(c.labelSelector, p.child('labelSelector')));
  });
  return errs;
}

/** Validates `spec.dnsConfig` (at `path`) against the DNS policy. */
export function validateDNSConfig(dnsConfig: unknown, dnsPolicy: unknown, path: FieldPath): FieldError[] {
  const c = obj(dnsConfig);
  const nameservers = list(c?.nameservers).map(str);
  if (dnsPolicy === 'None') {
    if (!c) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (nameservers.length === 0) return [required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!c) return [];
  const errs: FieldError[] = [];
  if (nameservers.length > 3) errs.push(invalid(path.child('nameservers'), nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => errs.push(...validateIP(path.child('nameservers').index(i), ns)));
  const searches = list(c.searches).map(str);
  if (searches.length > 32) errs.push(invalid(path.child('searches'), searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048)
    errs.push(invalid(path.child('searches'), searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((s, i) => {
    const name = s.endsWith('.') ? s.slice(0, -1) : s;
    errs.push(...isDNS1123Subdomain(name).map((m) => invalid(path.child('searches').index(i), name, m)));
  });
  objs(c.options).forEach((o, i) => {
    if (!str(o.name)) errs.push(required(path.child('options').index(i), 'must not be empty'));
  });
  return errs;
}

/** Validates `spec.hostAliases` at `path`. */
export function validateHostAliases(aliases: unknown, path: FieldPath): FieldError[] {
  return objs(aliases).flatMap((a, i) => [
    ...validateIP(path.index(i).child('ip'), str(a.ip)),
    ...list(a.hostnames).flatMap((h, j) => isDNS1123Subdomain(str(h)).map((m) => invalid(path.index(i).child('hostnames').index(j), h, m))),
  ]);
}

/** Validates `spec.readinessGates` at `path`: condition types are qualified names. */
export function validateReadinessGates(gates: unknown, path: FieldPath): FieldError[] {
  return objs(gates).flatMap((g, i) => (str(g.conditionType) ? validateLabelName(str(g.conditionType), path.index(i).child('conditionType')) : []));
}

/** Validates `spec.schedulingGates` at `path`: qualified, unique names. */
export function validateSchedulingGates(gates: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(gates).forEach((g, i) => {
    const name = str(g.name);
    if (name) errs.push(...validateLabelName(name, path.index(i)));
    if (seen.has(name)) errs.push(duplicate(path.index(i), name));
    seen.add(name);
  });
  return errs;
}

/** Validates `spec.resourceClaims` at `path` (v1.30 shape with `source`). */
export function validatePodResourceClaims(claims: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(claims).forEach((c, i) => {
    const p = path.index(i);
    const name = str(c.name);
    if (name && seen.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name) errs.push(...isDNS1123Label(name).map((m) => invalid(p.child('name'), name, m)));
    seen.add(name);
    const source = obj(c.source) ?? {};
    const claimName = source.resourceClaimName;
    const templateName = source.resourceClaimTemplateName;
    if (claimName !== undefined && templateName !== undefined)
      errs.push(invalid(p.child('source'), source, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (claimName === undefined && templateName === undefined)
      errs.push(invalid(p.child('source'), source, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    for (const [key, v] of [['resourceClaimName', claimName], ['resourceClaimTemplateName', templateName]] as const) {
      if (typeof v === 'string') errs.push(...isDNS1123Subdomain(v).map((m) => invalid(p.child('source', key), v, m)));
    }
  });
  return errs;
}
