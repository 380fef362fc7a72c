/**
 * RequestInfo: what a request is about, parsed once from its path, method and query
 * (spec 000 § Verb mapping; spec 001 § Authorization: request attributes).
 *
 * Resource paths: `/api/v1/...` (core group) and `/apis/<group>/<version>/...`; anything else,
 * and the discovery paths above the resource level, are non-resource requests whose verb is the
 * lower-cased HTTP method.
 */
import { parseFieldSelector } from '../apimachinery/fields/selector.js';

/** Parsed attributes of one request. */
export interface RequestInfo {
  isResourceRequest: boolean;
  /** URL path without the query, percent-escapes decoded (Go's `URL.Path`). */
  path: string;
  /** API verb: get, list, watch, create, update, patch, delete, deletecollection, proxy ('' for another method on a resource path); or the lower-case HTTP method of a non-resource request. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the subresource (proxy-style subpaths). */
  parts: string[];
}

const API_PREFIXES = new Set(['api', 'apis']);
const GROUPLESS_PREFIX = 'api';
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Leading path segments that set the verb (upstream specialVerbs). */
const SPECIAL_VERBS = new Set(['watch', 'proxy']);

const METHOD_VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * Parses a boolean query parameter the way upstream converts query strings: absent → false;
 * `0` and `false` (any case) → false; anything else, including an empty value and `f`, → true.
 */
export function queryBool(value: string | null | undefined): boolean {
  if (value === null || value === undefined) return false;
  const v = value.toLowerCase();
  return !(v === '0' || v === 'false');
}

/**
 * The name a field selector pins `metadata.name` to (`metadata.name=<x>` or `==`), when the whole
 * selector parses and the name is a valid path segment (not `.` or `..`, no `/` or `%`), as
 * upstream takes it; otherwise undefined.
 */
function exactNameFromFieldSelector(fieldSelector: string | null): string | undefined {
  if (!fieldSelector) return undefined;
  let name: string | undefined;
  try {
    name = parseFieldSelector(fieldSelector).requiresExactMatch('metadata.name');
  } catch {
    return undefined;
  }
  if (name === undefined || name === '.' || name === '..' || name.includes('/') || name.includes('%')) return undefined;
  return name;
}

/** A RequestInfo with every attribute empty except those given. */
export function requestInfoOf(fields: Partial<RequestInfo>): RequestInfo {
  return {
    isResourceRequest: false,
    path: '',
    verb: '',
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
    ...fields,
  };
}

/** The code unit of `/`. */
const SLASH = 0x2f;

/**
 * Upstream's splitPath: the path without leading and trailing slashes, split at every slash;
 * empty segments inside the path (`//`) are kept, so a doubled slash never shifts a segment into
 * another attribute's place.
 */
function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === SLASH) start++;
  while (end > start && path.charCodeAt(end - 1) === SLASH) end--;
  return start === end ? [] : path.slice(start, end).split('/');
}

/**
 * The path as upstream sees it (Go's `URL.Path`): percent-escapes decoded, so that `%2F` is a
 * segment separator and `%61` the letter `a`; a path whose escapes do not decode is kept as sent
 * (no segment of it then names a valid object).
 */
function decodePath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Parses the request as upstream's RequestInfoFactory; never throws. Resource requests: verb
 * from the method (POST create, GET/HEAD get, PUT update, PATCH patch, DELETE delete, any other
 * method ''), or from a leading `watch`/`proxy` segment (`/api/v1/watch/…`, `/api/v1/proxy/…`:
 * that verb whatever the method; `proxy` paths have no subresource); a GET without a name is
 * `list`, or `watch` with `?watch` true; a DELETE without a name is `deletecollection`;
 * `namespaces/<ns>/<resource>…` gives the namespace, `namespaces/<ns>/status|finalize` the
 * namespace's own subresources.
 */
export function parseRequestInfo(method: string, rawPath: string, query: URLSearchParams): RequestInfo {
  const path = decodePath(rawPath);
  const info = requestInfoOf({ path, verb: method.toLowerCase() });
  let parts = splitPath(path);
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return info;
  info.apiPrefix = parts[0]!;
  parts = parts.slice(1);
  if (info.apiPrefix !== GROUPLESS_PREFIX) {
    if (parts.length < 3) return info;
    info.apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  info.apiVersion = parts[0]!;
  parts = parts.slice(1);
  if (parts.length === 0) return info;
  info.isResourceRequest = true;
  if (SPECIAL_VERBS.has(parts[0]!)) {
    info.verb = parts[0]!;
    parts = parts.slice(1);
  } else {
    info.verb = METHOD_VERBS[method.toUpperCase()] ?? '';
  }
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      info.namespace = parts[1]!;
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
    }
  }
  info.resource = parts[0] ?? '';
  info.name = parts[1] ?? '';
  if (info.verb === 'proxy') {
    info.parts = parts.slice(2);
  } else {
    info.subresource = parts[2] ?? '';
    info.parts = parts.slice(3);
  }
  // A collection GET (not one through the legacy /watch/ prefix) may name its object by field selector.
  const collectionGet = info.name === '' && info.verb === 'get';
  if (info.verb === 'get' && queryBool(query.get('watch'))) info.verb = 'watch';
  if (info.name === '' && info.verb === 'get') info.verb = 'list';
  if (collectionGet) info.name = exactNameFromFieldSelector(query.get('fieldSelector')) ?? '';
  if (info.name === '' && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}
