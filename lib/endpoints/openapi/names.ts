/**
 * Names in the OpenAPI documents: definition names and references, vendor extensions (with the
 * stock-client spelling where lib/apis/vendor.ts asks for it and the upstream aliases are served),
 * operation ids and tags as the upstream `GetOperationIDAndTags` builds them.
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

/** Definition name of a type id: `api.core.v1.Pod` → OPENAPI_DEFINITION_PREFIX + `api.core.v1.Pod`. */
export function definitionName(id: string): string {
  return `${OPENAPI_DEFINITION_PREFIX}${id}`;
}

/** A group-version-kind as the extension carries it. */
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

const gvkValue = (g: GVK) => ({ group: g.group, kind: g.kind, version: g.version });

/**
 * Writes the vendor extensions of one document (spec 000 § Merge strategy markers): every
 * extension under its vendor name (`schemaExtension(name)`), and — only when `upstreamNames`, i.e.
 * the server serves the upstream aliases (`--upstream-aliases`, issue #9) — the extensions of
 * STOCK_CLIENT_EXTENSIONS under their upstream names (`stockClientExtension(name)`) too. With the
 * aliases off no upstream-named extension is written anywhere.
 */
export class ExtensionWriter {
  constructor(readonly upstreamNames: boolean) {}

  /** Sets extension `name` (a suffix, as `schemaExtension` takes it) on `target`. */
  set(target: JSONObject, name: string, value: unknown): void {
    target[schemaExtension(name)] = value;
    if (this.upstreamNames && STOCK_CLIENT_EXTENSIONS.includes(name)) target[stockClientExtension(name)] = value;
  }

  /**
   * Sets the group-version-kind extension: a list of `{group, kind, version}` on a definition, one
   * such object on an operation (as upstream; clients read the operation's as a single object).
   */
  gvk(target: JSONObject, gvk: GVK | readonly GVK[]): void {
    this.set(target, 'group-version-kind', Array.isArray(gvk) ? gvk.map(gvkValue) : gvkValue(gvk as GVK));
  }

  /** Sets the action extension of an operation (`get`, `list`, `post`, `watchlist`…). */
  action(target: JSONObject, action: string): void {
    this.set(target, 'action', action);
  }
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

/**
 * The word naming a group in operation ids and tags. Upstream drops its own domain suffix from the
 * group (`rbac.authorization.<domain>` → `rbac.authorization`) and keeps any other group whole
 * (`cert-manager.io` → `CertManagerIo`); we drop OPERATION_ID_GROUP_SUFFIX, the vendor domain.
 * So the vendor spelling of a group owns the short word, and its upstream alias (issue #9), being
 * outside the vendor domain, is named by its whole name: `RbacAuthorization` followed by the
 * words of the upstream domain. The alias operations, which `/openapi/v2` holds beside the vendor
 * ones, never take a vendor operation's id, and the v2 and v3 documents name an operation alike.
 * The core group is `core`.
 */
function groupWord(group: string): string {
  const g = group === '' ? 'core' : group;
  return g.endsWith(OPERATION_ID_GROUP_SUFFIX) ? g.slice(0, -OPERATION_ID_GROUP_SUFFIX.length) : g;
}

/**
 * The group-version infix of operation ids: `CoreV1`, `AppsV1`, `RbacAuthorizationV1` for the
 * vendor spelling of the RBAC group, and the whole alias group's words for its alias (groupWord).
 */
export function operationIdInfix(group: string, version: string): string {
  return toValidOperationID(groupWord(group), true) + toValidOperationID(version, true);
}

/** The tag of a group version's operations, from the same word as the ids: `core_v1`, `rbacAuthorization_v1`. */
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
