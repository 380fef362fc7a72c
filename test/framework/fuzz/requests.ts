/**
 * fast-check arbitraries of whole requests for the bad-input suite (issue #19 item 6): methods
 * (the API's, HEAD, OPTIONS and unknown ones) × paths (resources of several groups, namespaced and
 * not, names and subresources, then broken: unknown groups, versions and resources, overlong
 * names, percent-encoding, `..`, double slashes, raw UTF-8 and invalid bytes) × query parameters
 * (every list, watch and write option with valid and garbage values, repeated) × content types ×
 * bodies (bodies.ts). Each request carries the status class its input alone decides, when it
 * does: 404 for an unknown resource, 400 for an undecodable JSON body, 415 for an unsupported
 * media type, 413 for an oversized body.
 */
import fc from 'fast-check';
import type { KindDefinition } from '../../../lib/apis/define.js';
import { PROTOBUF_MEDIA_TYPE, UPSTREAM_PROTOBUF_MEDIA_TYPE } from '../../../lib/apis/vendor.js';
import { bodyArbitrary, type FuzzBody } from './bodies.js';
import type { WireRequest } from './http.js';

/** A resource the generator aims at: where it is served and the kind its bodies are made of. */
export interface FuzzTarget {
  /** `/api/v1` or `/apis/apps/v1`. */
  prefix: string;
  resource: string;
  kind: KindDefinition;
  /** Subresources it serves (`status`, `scale`). */
  subresources: readonly string[];
}

/** A generated request: what goes on the wire, the body's description and the status it must get, when determinable. */
export interface FuzzRequest extends WireRequest {
  bodyLabel: string;
  /** The exact status the input decides, or undefined. */
  expect?: number;
  /** Why `expect` (`unknown resource`). */
  expectWhy?: string;
  /** True for a request that may open a watch stream. */
  mayWatch: boolean;
  [fc.toStringMethod](): string;
}

/** Options of {@link requestArbitrary}. */
export interface RequestArbitraryOptions {
  targets: readonly FuzzTarget[];
  /** Namespaces that exist. */
  namespaces: readonly string[];
  /** Object names that may exist (creates use them too, so later requests meet them). */
  names: readonly string[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'FOO', 'PROPFIND', 'TRACE', 'get'] as const;

/** Media types a body may be sent as; `undefined` sends no Content-Type. */
const CONTENT_TYPES: readonly (string | undefined)[] = [
  'application/json',
  'application/json; charset=utf-8',
  'application/yaml',
  PROTOBUF_MEDIA_TYPE,
  UPSTREAM_PROTOBUF_MEDIA_TYPE,
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/apply-patch+cbor',
  undefined,
  'text/plain',
  'application/xml',
  'application/json; charset=latin1',
  ';;;',
  '*/*',
  'application/',
  'application/json; =x',
  'applic\u00e4tion/json',
  'a'.repeat(2000),
];

/** Media types a body must be one of for any handler to decode it (the patch types for PATCH). */
const DECODABLE = new Set(['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE, UPSTREAM_PROTOBUF_MEDIA_TYPE, 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);

const ACCEPTS: readonly (string | undefined)[] = [undefined, 'application/json', PROTOBUF_MEDIA_TYPE, 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'text/html', 'application/yaml', '*/*;q=0', ',,,'];

const GARBAGE_VALUES = ['', '-1', '0', '1', 'abc', '9'.repeat(30), '1e400', 'true', '%00', '%ff%fe', '%zz', '%', '=', '&', '\u00e9', '%C3%A9', 'a,b,,c', '!', 'a in (b', 'a notin ()', 'x==y!=z', '(((', 'a'.repeat(300)];

/** Each query parameter the API reads, with values it accepts. */
const PARAMS: Record<string, readonly string[]> = {
  labelSelector: ['app=web', 'app in (a,b)', '!app', 'app', 'a=b,c!=d', 'tier notin (x)', 'a==b', 'a>1'],
  fieldSelector: ['metadata.name=x', 'metadata.namespace!=default', 'spec.nodeName=', 'status.phase=Running', 'nope=1', 'metadata.name==a,metadata.name!=b'],
  limit: ['1', '2', '500', '0'],
  continue: ['', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJhIn0', 'bm90LWpzb24'],
  resourceVersion: ['0', '1', '', '18'],
  resourceVersionMatch: ['NotOlderThan', 'Exact', 'nope'],
  timeoutSeconds: ['1'],
  watch: ['true', '1', 'false', 'yes'],
  allowWatchBookmarks: ['true', 'false'],
  sendInitialEvents: ['true', 'false'],
  dryRun: ['All', 'all', 'None'],
  fieldValidation: ['Strict', 'Warn', 'Ignore', 'strict'],
  fieldManager: ['fuzzer', 'x'.repeat(129), 'm\u00e9'],
  force: ['true', 'false'],
  propagationPolicy: ['Foreground', 'Background', 'Orphan', 'Nope'],
  gracePeriodSeconds: ['0', '30', '-5'],
  orphanDependents: ['true', 'false'],
  pretty: ['true', '1'],
  follow: ['true'],
  container: ['c'],
  unknownParam: ['1'],
};
const PARAM_NAMES = Object.keys(PARAMS);

/** A query value as bytes on the wire: URL-encoded, raw (latin1 bytes of its UTF-8), or with its percent-encoding broken. */
function encodeQueryValue(v: string, how: number): string {
  if (how === 0) return encodeURIComponent(v);
  if (how === 1) return Buffer.from(v.replace(/[ #]/g, '+'), 'utf8').toString('latin1');
  return encodeURIComponent(v) + '%';
}

const query = fc.array(
  fc.tuple(fc.constantFrom(...PARAM_NAMES), fc.boolean(), fc.nat(), fc.constantFrom(...GARBAGE_VALUES), fc.nat(9)).map(([name, valid, i, garbage, how]) => {
    const vals = PARAMS[name]!;
    return [name, valid ? vals[i % vals.length]! : garbage, how < 7 ? 0 : how < 9 ? 1 : 2] as const;
  }),
  { maxLength: 5 },
);

/** Path segments that are not names of anything, or names no object may have. */
const BAD_SEGMENTS = ['..', '.', '', '%2e%2e', '%2F', 'a%2Fb', 'UPPER', 'x'.repeat(300), 'y'.repeat(5000), '%00', '%ff', 'caf\u00c3\u00a9', '\u00ff\u00fe', '%', 'a b'.replace(' ', '%20'), 'name:with:colons', '~', '-', 'a..b'];

/** Bad segments that change the path's structure once decoded (`%2F`, `..`) or are no valid escape (`%`). */
const RESHAPING = new Set(['..', '.', '', '%2e%2e', '%2F', 'a%2Fb', '%']);

/** Subresources any resource might be asked for. */
const SUBRESOURCES = ['status', 'scale', 'finalize', 'eviction', 'binding', 'ephemeralcontainers', 'resize', 'approval', 'token', 'nope', 'STATUS', 'status/extra'];

type Shape = 'collection' | 'item' | 'subresource' | 'unknown-resource' | 'unknown-group' | 'unknown-version' | 'other';

const OTHER_PATHS = ['/', '/api', '/api/', '/apis', '/apis/', '/api/v1', '/apis/apps', '/apis/apps/v1', '/apis/apps/v1/', '/healthz', '/livez', '/readyz/etcd', '/readyz?verbose=1&exclude=nope', '/version', '/openapi/v2', '/openapi/v3', '/openapi/v3/apis/apps/v1?hash=zz', '/metrics', '/.well-known/openid-configuration', '/openid/v1/jwks', '/logs/../../etc/passwd', '/api/v1/watch/namespaces/default/configmaps', '/api/v1/watch', '/apis/apps/v1/watch/deployments', '/api/v1/namespaces/default/pods/x/log', '/api/v1/namespaces/default/pods/x/exec', '/api/v1/nodes/x/proxy/', '/api/v1/namespaces/default/services/x/proxy', '/api/v1/namespaces/default/serviceaccounts/default/token', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '/api/v1/componentstatuses/etcd-0'];

interface PathParts {
  path: string;
  shape: Shape;
  target?: FuzzTarget;
  mutated: boolean;
}

function pathArbitrary(o: RequestArbitraryOptions): fc.Arbitrary<PathParts> {
  const structured = fc
    .tuple(
      fc.constantFrom(...o.targets),
      fc.constantFrom<Shape>('collection', 'item', 'item', 'subresource', 'unknown-resource', 'unknown-group', 'unknown-version'),
      fc.constantFrom(...o.namespaces, 'nope', ...BAD_SEGMENTS),
      fc.nat(9).map((n) => n < 8),
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...o.names) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_SEGMENTS) }),
      fc.nat(),
    )
    .map(([t, shape, ns, validNs, name, si]): PathParts => {
      const namespaced = t.kind.namespaced;
      const nsPart = namespaced ? `/namespaces/${validNs ? o.namespaces[si % o.namespaces.length] : ns}` : '';
      let prefix = t.prefix;
      if (shape === 'unknown-group') prefix = '/apis/nope.fuzz.example/v1';
      if (shape === 'unknown-version') prefix = t.prefix.replace(/v1$/, 'v9');
      const resource = shape === 'unknown-resource' ? `${t.resource}zz` : t.resource;
      let path = `${prefix}${nsPart}/${resource}`;
      if (shape !== 'collection') path += `/${name}`;
      if (shape === 'subresource') path += `/${t.subresources.length > 0 && si % 2 === 0 ? t.subresources[si % t.subresources.length] : SUBRESOURCES[si % SUBRESOURCES.length]}`;
      return { path, shape, target: t, mutated: (!validNs && namespaced) || (shape !== 'collection' && RESHAPING.has(name)) };
    });
  const mutate = fc.tuple(structured, fc.constantFrom('//', '/../', '/./', '/%2e%2e/', '%2F', '/\u00e2\u0082\u00ac/', '/\u00ff/', '/watch/', '/'), fc.nat()).map(([p, ins, at]): PathParts => {
    const i = 1 + (at % (p.path.length - 1));
    return { ...p, path: p.path.slice(0, i) + ins + p.path.slice(i), mutated: true };
  });
  return fc.oneof(
    { weight: 14, arbitrary: structured },
    { weight: 4, arbitrary: mutate },
    { weight: 2, arbitrary: fc.constantFrom(...OTHER_PATHS).map((path): PathParts => ({ path, shape: 'other', mutated: true })) },
  );
}

const NON_ASCII = /[^\x21-\x7e]/;

/** The status the input alone decides, and why. */
function expectation(method: string, p: PathParts, wire: string, hasQuery: boolean, ct: string | undefined, body: FuzzBody | undefined): [number, string] | undefined {
  // Node's HTTP parser answers a bare 400 for bytes outside ASCII in the request line, before the server sees it.
  if (p.mutated || NON_ASCII.test(wire)) return undefined;
  const api = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
  if (p.shape === 'unknown-resource' && api) return [404, 'unknown resource'];
  if (p.shape === 'unknown-group' && api) return [404, 'unknown group'];
  if (hasQuery || !body) return undefined;
  const writes = (method === 'POST' && p.shape === 'collection') || (method === 'PUT' && p.shape === 'item');
  if (!writes) return undefined;
  const mt = ct?.split(';')[0]!.trim();
  if (body.cls === 'oversized') return [413, 'body past 3 MiB'];
  if (mt !== undefined && !DECODABLE.has(mt)) return [415, 'unsupported media type'];
  if (body.cls === 'malformed' && (mt === undefined || mt === 'application/json')) return [400, 'malformed JSON'];
  if (body.cls === 'deep' && (mt === undefined || mt === 'application/json' || mt === 'application/yaml')) return [400, 'nested past the depth limit'];
  return undefined;
}

function describe(r: Omit<FuzzRequest, typeof fc.toStringMethod>): string {
  const body = r.body ? ` body(${r.body.length} bytes, ${r.bodyLabel}): ${JSON.stringify(r.body.subarray(0, 300).toString('latin1'))}` : '';
  const path = r.path.length > 400 ? `${r.path.slice(0, 400)}…(${r.path.length} chars)` : r.path;
  return `${r.method} ${JSON.stringify(path)} headers ${JSON.stringify(r.headers).slice(0, 300)}${body}${r.expect ? ` expecting ${r.expect} (${r.expectWhy})` : ''}`;
}

/**
 * Requests against `o.targets`. Requests that may open a watch get `timeoutSeconds=1` first
 * (the first value of a repeated parameter is the one read), so every watch ends.
 */
export function requestArbitrary(o: RequestArbitraryOptions): fc.Arbitrary<FuzzRequest> {
  const kinds = o.targets.map((t) => t.kind);
  return fc
    .tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH') }, { weight: 4, arbitrary: fc.constantFrom(...METHODS) }), pathArbitrary(o), query, fc.constantFrom(...CONTENT_TYPES), fc.constantFrom(...ACCEPTS), fc.option(bodyArbitrary(kinds, o.names), { freq: 4, nil: undefined }))
    .map(([method, p, q, ct, accept, body]): FuzzRequest => {
      const mayWatch = (method === 'GET' || method === 'get') && (q.some(([n]) => n === 'watch') || p.path.includes('/watch'));
      const pairs = q.map(([n, v, how]) => `${n}=${encodeQueryValue(v, how)}`);
      if (mayWatch) pairs.unshift('timeoutSeconds=1');
      const sep = p.path.includes('?') ? '&' : '?';
      const path = pairs.length > 0 ? `${p.path}${sep}${pairs.join('&')}` : p.path;
      const headers: Record<string, string> = {};
      if (ct !== undefined) headers['Content-Type'] = ct;
      if (accept !== undefined) headers.Accept = accept;
      const sendsBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
      const exp = expectation(method, p, path, pairs.length > 0, ct, sendsBody ? body : undefined);
      const r = { method, path, headers, body: sendsBody ? body.bytes : undefined, bodyLabel: sendsBody ? body.label : '', expect: exp?.[0], expectWhy: exp?.[1], mayWatch };
      return { ...r, [fc.toStringMethod]: () => describe(r) };
    });
}
