/**
 * The ABAC policy file of `--authorization-policy-file` (spec 001 § ABAC mode): one JSON policy
 * object per line, read once at start as upstream reads it. Blank lines and lines starting with
 * `#` are skipped. A line with `apiVersion: abac.authorization.<vendor>/v1beta1` and `kind: Policy`
 * is a versioned policy (`spec` with the fields of the spec's table); a line without apiVersion
 * or kind is a legacy unversioned (v0) policy, converted as upstream converts it. Unknown fields
 * are ignored (upstream decodes leniently).
 */
import { readFile } from 'node:fs/promises';
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import { goJSONTypeName } from '../../apimachinery/serializers/go-json-errors.js';
import { JSONSyntaxError, decodeJSON } from '../../apimachinery/serializers/json.js';
import { AUTHENTICATED_GROUP } from '../../request/user.js';

/** The API group of versioned policy lines. */
export const ABAC_GROUP = vendorGroup('abac.authorization');
/** The kind of a policy line. */
export const POLICY_KIND = 'Policy';

/** One policy, in its internal (converted) form: every field of the spec's table. */
export interface PolicySpec {
  /** Username that must match; `*` (converted to the authenticated group) or '' (unset). */
  user: string;
  /** Group one of the user's groups must equal; '' = unset. */
  group: string;
  /** True: only `get`, `list` and `watch` are allowed. */
  readonly: boolean;
  /** API group; `*` matches all, '' only the core group. */
  apiGroup: string;
  /** Resource; `*` matches all; '' matches no resource request. */
  resource: string;
  /** Namespace; `*` matches all; '' only cluster-scoped requests. */
  namespace: string;
  /** Non-resource path; `*` all, `/foo/*` all sub-paths of `/foo/`, else exact; '' none. */
  nonResourcePath: string;
}

/** A policy file that cannot be read: upstream's message, with the 1-based line number and text. */
export class PolicyLoadError extends Error {
  override readonly name = 'PolicyLoadError';
}

/** Longest line upstream's line scanner accepts (bufio.Scanner's 64 KiB token). */
const MAX_LINE_BYTES = 64 * 1024;

const V1BETA1_FIELDS: ReadonlyArray<[keyof PolicySpec, 'string' | 'bool']> = [
  ['user', 'string'],
  ['group', 'string'],
  ['readonly', 'bool'],
  ['apiGroup', 'string'],
  ['resource', 'string'],
  ['namespace', 'string'],
  ['nonResourcePath', 'string'],
];
const V0_FIELDS: ReadonlyArray<[keyof PolicySpec, 'string' | 'bool']> = [
  ['user', 'string'],
  ['group', 'string'],
  ['readonly', 'bool'],
  ['resource', 'string'],
  ['namespace', 'string'],
];

/**
 * Reads and parses the policy file at `path`.
 * @throws Error when the file cannot be read; PolicyLoadError for a bad line
 *   (`error reading policy file <path>, line <n>: <line>: <reason>`).
 */
export async function loadPolicyFile(path: string): Promise<PolicySpec[]> {
  return parsePolicies(await readFile(path, 'utf8'), path);
}

/**
 * Parses policy file content (`path` only names the file in errors).
 * @throws PolicyLoadError for a line that is not a policy.
 */
export function parsePolicies(content: string, path: string): PolicySpec[] {
  const out: PolicySpec[] = [];
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (Buffer.byteLength(line) > MAX_LINE_BYTES) throw new PolicyLoadError(`error reading policy file ${path}: bufio.Scanner: token too long`);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      out.push(parsePolicyLine(line));
    } catch (err) {
      throw new PolicyLoadError(`error reading policy file ${path}, line ${i + 1}: ${line}: ${(err as Error).message}`);
    }
  }
  return out;
}

/**
 * One line to a policy.
 * @throws Error with the decoder's reason.
 */
export function parsePolicyLine(line: string): PolicySpec {
  let raw: unknown;
  try {
    raw = decodeJSON(line);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw new Error(`couldn't get version/kind; json parse error: ${err.goMessage}`, { cause: err });
    throw err;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJSONTypeName(raw)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const obj = raw as Record<string, unknown>;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (apiVersion === '' || kind === '') return fromV0(readFields(obj, V0_FIELDS, 'Policy'));
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : canonicalGroup(apiVersion.slice(0, slash));
  const version = apiVersion.slice(slash + 1);
  if (group !== ABAC_GROUP || kind !== POLICY_KIND || (version !== 'v1beta1' && version !== 'v0')) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:100"`);
  }
  if (version === 'v0') return fromV0(readFields(obj, V0_FIELDS, 'Policy'));
  const spec = obj.spec ?? {};
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw new Error(`json: cannot unmarshal ${goJSONTypeName(spec)} into Go struct field Policy.spec of type v1beta1.PolicySpec`);
  }
  return fromV1beta1(readFields(spec as Record<string, unknown>, V1BETA1_FIELDS, 'PolicySpec', 'spec.'));
}

/** The typed fields of `obj` (absent or null: zero values). */
function readFields(obj: Record<string, unknown>, fields: ReadonlyArray<[keyof PolicySpec, 'string' | 'bool']>, goStruct: string, jsonPrefix = ''): PolicySpec {
  const spec: PolicySpec = { user: '', group: '', readonly: false, apiGroup: '', resource: '', namespace: '', nonResourcePath: '' };
  for (const [name, type] of fields) {
    const v = obj[name];
    if (v === undefined || v === null) continue;
    if (type === 'bool' ? typeof v !== 'boolean' : typeof v !== 'string') {
      throw new Error(`json: cannot unmarshal ${goJSONTypeName(v)} into Go struct field ${goStruct}.${jsonPrefix}${name} of type ${type}`);
    }
    (spec as unknown as Record<string, unknown>)[name] = v;
  }
  return spec;
}

/**
 * v1beta1 → internal: a `*` user or group means every authenticated subject; an API group in the
 * upstream spelling is read as the vendor's (requests carry the canonical group).
 */
function fromV1beta1(p: PolicySpec): PolicySpec {
  const out = p.apiGroup === '*' ? p : { ...p, apiGroup: canonicalGroup(p.apiGroup) };
  if (p.user === '*' || p.group === '*') return { ...out, user: '', group: AUTHENTICATED_GROUP };
  return out;
}

/**
 * v0 → internal, as upstream converts legacy lines: no user and no group (or a `*` one) means
 * every authenticated subject; an empty namespace or resource means all; every API group; no
 * namespace and no resource also allows every non-resource path.
 */
function fromV0(p: PolicySpec): PolicySpec {
  const out = { ...p };
  if (p.user === '' && p.group === '') out.group = AUTHENTICATED_GROUP;
  if (p.user === '*' || p.group === '*') {
    out.group = AUTHENTICATED_GROUP;
    out.user = '';
  }
  if (p.namespace === '') out.namespace = '*';
  if (p.resource === '') out.resource = '*';
  out.apiGroup = '*';
  if (p.namespace === '' && p.resource === '') out.nonResourcePath = '*';
  return out;
}
