/**
 * Names in the OpenAPI documents: definition names and references, vendor extensions (with the
 * stock-client spelling where lib/apis/vendor.ts asks for it), operation ids and tags as the
 * upstream `GetOperationIDAndTags` builds them.
 */
import {
  OPENAPI_DEFINITION_PREFIX,
  OPERATION_ID_GROUP_SUFFIX,
  STOCK_CLIENT_EXTENSIONS,
  schemaExtension,
  stockClientExtension,
} from '../../apis/vendor.js';

/** A JSON Schema / OpenAPI object under construction. */
export type JSONObject = Record<string, unknown>;

/** Sorted copy of an object's entries (upstream serializes maps in key order). */
export function sortedObject<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Definition name of a type id: `api.core.v1.Pod` → `io.orch.api.core.v1.Pod`. */
export function definitionName(id: string): string {
  return `${OPENAPI_DEFINITION_PREFIX}${id}`;
}

/** Sets a schema extension (`x-orch-<name>`) and, for the stock-client names, `x-kubernetes-<name>` too. */
export function setExtension(target: JSONObject, name: string, value: unknown): void {
  target[schemaExtension(name)] = value;
  if (STOCK_CLIENT_EXTENSIONS.includes(name)) target[stockClientExtension(name)] = value;
}

/** A group-version-kind as the extension carries it. */
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

const gvkValue = (g: GVK) => ({ group: g.group, kind: g.kind, version: g.version });

/**
 * Sets the group-version-kind extension: a list of `{group, kind, version}` on a definition, one
 * such object on an operation (as upstream; clients read the operation's as a single object).
 */
export function setGVKExtension(target: JSONObject, gvk: GVK | readonly GVK[]): void {
  setExtension(target, 'group-version-kind', Array.isArray(gvk) ? gvk.map(gvkValue) : gvkValue(gvk as GVK));
}

/** Sets the action extension of an operation (`get`, `list`, `post`, `watchlist`…). */
export function setActionExtension(target: JSONObject, action: string): void {
  setExtension(target, 'action', action);
}

/**
 * Upstream `ToValidOperationID`: keeps letters, `_` and non-leading digits; any other character
 * is dropped and capitalizes the next kept one.
 */
export function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  [...s].forEach((ch, i) => {
    if (/\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
  });
  return out;
}

function groupWord(group: string): string {
  const g = group === '' ? 'core' : group;
  return g.endsWith(OPERATION_ID_GROUP_SUFFIX) ? g.slice(0, -OPERATION_ID_GROUP_SUFFIX.length) : g;
}

/** The group-version infix of operation ids: `CoreV1`, `AppsV1`, `RbacAuthorizationV1`. */
export function operationIdInfix(group: string, version: string): string {
  return toValidOperationID(groupWord(group), true) + toValidOperationID(version, true);
}

/** The tag of a group version's operations: `core_v1`, `rbacAuthorization_v1`. */
export function operationTag(group: string, version: string): string {
  return `${toValidOperationID(groupWord(group), false)}_${toValidOperationID(version, false)}`;
}

/** URL prefix of a group version: `/api/v1` or `/apis/<group>/<version>`. */
export function groupVersionPrefix(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** Name of a group version's OpenAPI v3 document: `api/v1` or `apis/<group>/<version>`. */
export function v3DocumentPath(group: string, version: string): string {
  return groupVersionPrefix(group, version).slice(1);
}
