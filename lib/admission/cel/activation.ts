/**
 * What admission expressions see (upstream v1.30 `k8s.io/apiserver/pkg/admission/plugin/cel`
 * activation; spec 001 § Admission control): the AdmissionRequest built from the attributes and
 * the resource the request matched as, and the activation of `object`, `oldObject`, `request`,
 * `namespaceObject`, `params`, `authorizer` and `variables` shared by webhook match conditions
 * and ValidatingAdmissionPolicy.
 */
import type { Obj } from '../../apis/define.js';
import type { AdmissionAttributes } from '../interface.js';
import type { MatchedResource } from '../matching/rules.js';

/**
 * The AdmissionRequest (admission.<vendor>/v1, without `object` and `oldObject`) for `attrs`
 * matched as `matched`: `{ uid, kind {group, version, kind}, resource {group, version, resource},
 * subResource, requestKind, requestResource, requestSubResource, name, namespace, operation,
 * userInfo {username, uid, groups, extra}, dryRun, options }`. Every field is present ('' for an
 * empty string, [] and {} for empty lists and maps, `options` null for CONNECT), so expressions
 * read empty fields as upstream's zero values. `kind`/`resource` are the matched version,
 * `requestKind`/`requestResource` the addressed one. Groups are in the vendor spelling.
 * `uid` is the review's uid (upstream's expressions see '': pass '' for them).
 */
export function admissionRequestValue(attrs: AdmissionAttributes, matched: MatchedResource, uid: string): Obj {
  const user = attrs.user;
  return {
    uid,
    kind: { group: matched.group, version: matched.version, kind: matched.kind },
    resource: { group: matched.group, version: matched.version, resource: matched.resource },
    subResource: matched.subresource,
    requestKind: { group: attrs.requestGroup, version: attrs.requestVersion, kind: attrs.requestKind },
    requestResource: { group: attrs.requestGroup, version: attrs.requestVersion, resource: attrs.resource },
    requestSubResource: attrs.subresource,
    name: attrs.name,
    namespace: attrs.namespace,
    operation: attrs.operation,
    userInfo: {
      username: user.name,
      uid: user.uid ?? '',
      groups: [...user.groups],
      extra: Object.fromEntries(Object.entries(user.extra ?? {}).map(([k, v]) => [k, [...v]])),
    },
    dryRun: attrs.dryRun,
    options: attrs.options ?? null,
  };
}

/**
 * `obj` (in the storage version, as the attributes hold it) in the version `matched` selects: the
 * served version's conversion when the match is not the storage version, else `obj` itself
 * (shared: do not mutate it). null stays null.
 */
export function objectInMatchedVersion(obj: Obj | null, matched: MatchedResource): Obj | null {
  if (obj === null) return null;
  return matched.served?.conversion ? matched.served.conversion.toServed(obj) : obj;
}

/**
 * The namespace as expressions see it (upstream `CreateNamespaceObject`): spec, status and the
 * metadata fields name, generateName, namespace, uid, resourceVersion, generation,
 * creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels, annotations and
 * finalizers (no managed fields, no owner references). null stays null.
 */
export function namespaceObjectValue(ns: Obj | null | undefined): Obj | null {
  if (!ns) return null;
  const meta = (ns.metadata ?? {}) as Obj;
  const kept: Obj = {};
  for (const key of NAMESPACE_META_FIELDS) if (meta[key] !== undefined) kept[key] = meta[key];
  const out: Obj = { apiVersion: ns.apiVersion ?? 'v1', kind: ns.kind ?? 'Namespace', metadata: kept };
  if (ns.spec !== undefined) out.spec = ns.spec;
  if (ns.status !== undefined) out.status = ns.status;
  return out;
}

const NAMESPACE_META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'finalizers',
] as const;

/**
 * The activation of an admission expression: `object` and `oldObject` (converted to `matched`'s
 * version; null when absent — `object` on DELETE, `oldObject` on CREATE), `request` (usually
 * {@link admissionRequestValue} with uid ''), `namespaceObject` (null for cluster-scoped
 * requests; see {@link namespaceObjectValue}), `params` (null when the policy has none),
 * `authorizer` (an AuthorizerValue of lib/cel, e.g. `bindAuthorizer(...).value`) and
 * `variables`, the last two only when given. Values are JSON (plus the authorizer value); the
 * environment converts them when a program is evaluated.
 */
export function admissionActivation(input: {
  attrs: AdmissionAttributes;
  matched: MatchedResource;
  request: Obj;
  namespaceObject: Obj | null;
  params?: Obj | null;
  authorizer?: unknown;
  variables?: unknown;
}): Record<string, unknown> {
  const { attrs, matched } = input;
  const activation: Record<string, unknown> = {
    object: objectInMatchedVersion(attrs.object, matched),
    oldObject: objectInMatchedVersion(attrs.oldObject, matched),
    request: input.request,
    namespaceObject: input.namespaceObject,
    params: input.params ?? null,
  };
  if (input.authorizer !== undefined) activation.authorizer = input.authorizer;
  if (input.variables !== undefined) activation.variables = input.variables;
  return activation;
}
