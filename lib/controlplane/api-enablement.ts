/**
 * Which built-in group versions and resources this server serves (spec 001 § API versions and
 * groups; upstream `k8s.io/apiserver/pkg/server/resourceconfig` and
 * `server/options/api_enablement.go` of v1.30): a pure function of `--runtime-config` and of the
 * resources the server knows, computed before anything is installed.
 *
 * Defaults (upstream `DefaultAPIResourceConfigSource`): every GA version (`v<n>`) on, every beta and
 * alpha version off, except the resources of DEFAULT_ON_BETA_RESOURCES (flowcontrol v1beta3,
 * deprecated but still on). Then, in upstream's order: `api/all`, `api/ga`, `api/beta`,
 * `api/alpha` (each `true` or `false`) switch every matching version and forget the resource
 * settings of those versions; `<group>/<version>` keys switch one version likewise; last,
 * `<group>/<version>/<resource>` keys switch one resource. A resource is served when its own
 * setting says so, else when its version is on.
 *
 * The core group is addressed as `v1` (upstream's help text), `api/v1` or `/v1`.
 */
import { FLOWCONTROL_GROUP } from '../apis/flowcontrol/v1/types.js';
import { type RuntimeConfig, runtimeConfigString } from '../server/options/runtime-config.js';
import { parseGoBool } from '../server/options/flag-values.js';

/** A resource the server can serve. */
export interface KnownResource {
  group: string;
  version: string;
  resource: string;
}

/** The resolved enablement: what to install. */
export interface APIEnablement {
  /** The resource of a known group version is served. */
  resourceEnabled(group: string, version: string, resource: string): boolean;
}

/** Beta resources on by default (upstream `legacyBetaEnabledByDefaultResources` of v1.30). */
export const DEFAULT_ON_BETA_RESOURCES: readonly KnownResource[] = [
  { group: FLOWCONTROL_GROUP, version: 'v1beta3', resource: 'flowschemas' },
  { group: FLOWCONTROL_GROUP, version: 'v1beta3', resource: 'prioritylevelconfigurations' },
];

const GA = /^v\d+$/;
const BETA = /^v\d+beta\d+$/;
const ALPHA = /^v\d+alpha\d+$/;

/** Upstream's version matchers, in the order they apply. */
const MATCHERS: ReadonlyArray<[string, (version: string) => boolean]> = [
  ['api/all', () => true],
  ['api/ga', (v) => GA.test(v)],
  ['api/beta', (v) => BETA.test(v)],
  ['api/alpha', (v) => ALPHA.test(v)],
];
const MATCHER_KEYS = new Set(MATCHERS.map(([k]) => k));

/** The runtime-config keys whose `=false` conflicts with priority and fairness, by precedence (upstream `validateAPIPriorityAndFairness`). */
const APF_KEYS: readonly string[] = [`${FLOWCONTROL_GROUP}/v1`, 'api/ga', 'api/all'];

const gvKey = (group: string, version: string) => `${group}/${version}`;
const gvrKey = (group: string, version: string, resource: string) => `${group}/${version}/${resource}`;
/** Upstream `GroupVersion.String()`: `v1` for the core group. */
const gvString = (group: string, version: string) => (group === '' ? version : `${group}/${version}`);

/** A parsed `<group>/<version>[/<resource>]` key. */
interface ParsedKey {
  key: string;
  group: string;
  version: string;
  resource?: string;
}

/** Splits a key as upstream's ParseGroupVersions does, with the core spellings; undefined: invalid. */
function parseKey(key: string): ParsedKey | undefined {
  const tokens = key.split('/');
  if (tokens.length === 1 && tokens[0] === 'v1') return { key, group: '', version: 'v1' };
  if (tokens.length !== 2 && tokens.length !== 3) return undefined;
  const group = tokens[0] === 'api' ? '' : tokens[0]!;
  return { key, group, version: tokens[1]!, ...(tokens.length === 3 ? { resource: tokens[2]! } : {}) };
}

/**
 * Resolves `config` against the `known` resources (every resource of every group version the
 * server can serve).
 * @throws Error with upstream's message, the first problem found in this order:
 *   `invalid key with only api/all=false`; `runtime-config invalid key <key>`;
 *   `unknown api groups <g1>,<g2>`; `--runtime-config=<key>=false conflicts with
 *   --enable-priority-and-fairness=true` (for `flowcontrol.apiserver.<vendor>/v1`, `api/ga`,
 *   `api/all`, the first of them set deciding); `invalid value api/all=<v>` (matchers take only
 *   `true` or `false`); `group version <gv> that has not been registered`;
 *   `invalid value of <key>: <v>, err: strconv.ParseBool: parsing "<v>": invalid syntax`;
 *   `invalid key <key>: group/version/resource and resource is always lowercase plural, not "<r>"`.
 */
export function resolveAPIEnablement(config: RuntimeConfig, known: readonly KnownResource[]): APIEnablement {
  if (config.get('api/all') === 'false' && config.size === 1) throw new Error('invalid key with only api/all=false');
  const parsed: ParsedKey[] = [];
  for (const key of config.keys()) {
    if (MATCHER_KEYS.has(key)) continue;
    const p = parseKey(key);
    if (!p) throw new Error(`runtime-config invalid key ${key}`);
    parsed.push(p);
  }
  const groups = new Set(known.map((r) => r.group));
  const unknown = parsed.filter((p) => !groups.has(p.group)).map((p) => p.group);
  if (unknown.length > 0) throw new Error(`unknown api groups ${unknown.join(',')}`);
  checkPriorityAndFairness(config);

  // Version and resource settings: upstream ResourceConfig's GroupVersionConfigs and ResourceConfigs.
  const versions = new Map<string, { group: string; version: string; enabled: boolean }>();
  for (const r of known) versions.set(gvKey(r.group, r.version), { group: r.group, version: r.version, enabled: GA.test(r.version) });
  const resources = new Map<string, boolean>();
  for (const r of DEFAULT_ON_BETA_RESOURCES) resources.set(gvrKey(r.group, r.version, r.resource), true);
  const forgetResources = (group: string, version: string) => {
    for (const k of resources.keys()) if (k.startsWith(`${gvKey(group, version)}/`)) resources.delete(k);
  };

  for (const [key, matches] of MATCHERS) {
    const value = config.get(key);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false') throw new Error(`invalid value ${key}=${value}`);
    for (const v of versions.values()) {
      if (!matches(v.version)) continue;
      v.enabled = value === 'true';
      forgetResources(v.group, v.version);
    }
  }
  const settings = parsed.map((p) => {
    const v = versions.get(gvKey(p.group, p.version));
    if (!v) throw new Error(`group version ${gvString(p.group, p.version)} that has not been registered`);
    const raw = config.get(p.key)!;
    let enabled = true;
    if (raw !== '') {
      try {
        enabled = parseGoBool(raw);
      } catch (err) {
        throw new Error(`invalid value of ${p.key}: ${raw}, err: ${(err as Error).message}`, { cause: err });
      }
    }
    if (p.resource !== undefined && p.resource.toLowerCase() !== p.resource) {
      throw new Error(`invalid key ${p.key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(p.resource)}`);
    }
    return { ...p, v, enabled };
  });
  for (const s of settings) {
    if (s.resource !== undefined) continue;
    s.v.enabled = s.enabled;
    forgetResources(s.group, s.version);
  }
  for (const s of settings) if (s.resource !== undefined) resources.set(gvrKey(s.group, s.version, s.resource), s.enabled);

  return {
    resourceEnabled(group, version, resource) {
      const own = resources.get(gvrKey(group, version, resource));
      if (own !== undefined) return own;
      return versions.get(gvKey(group, version))?.enabled ?? false;
    },
  };
}

/**
 * Upstream `validateAPIPriorityAndFairness` (priority and fairness is always on here: no
 * `--enable-priority-and-fairness` flag): looks for `<key>=false` / `<key>=true` in the sorted
 * `key=value` text, as upstream does.
 */
function checkPriorityAndFairness(config: RuntimeConfig): void {
  const text = runtimeConfigString(config);
  for (const key of APF_KEYS) {
    if (text.includes(`${key}=false`)) throw new Error(`--runtime-config=${key}=false conflicts with --enable-priority-and-fairness=true`);
    if (text.includes(`${key}=true`)) return;
  }
}
