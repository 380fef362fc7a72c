/**
 * The groups of remote APIServices in discovery (spec 000 § Other paths; upstream v1.30
 * kube-aggregator's `/apis` handler and aggregated discovery manager): remote group versions
 * ordered by their APIService priorities — a group by the highest `groupPriorityMinimum` of its
 * versions (higher first, then by name), its versions by `versionPriority` (higher first, then
 * kube-aware order) — and merged among the server's own groups, which rank by the same
 * priorities (lib/apis/apiregistration/v1/priorities.ts; a custom resource group 1000; the
 * upstream aliases after everything). A group both served here and remotely keeps its place and
 * gets the remote versions after its own.
 */
import { compareKubeAwareVersions } from '../../apimachinery/kube-version.js';
import { apiServicePriority } from '../../apis/apiregistration/v1/priorities.js';
import type { Obj } from '../../apis/define.js';
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import type { APIGroupDiscovery } from '../discovery/aggregated.js';

/** One remote group with its APIServices in version order. */
export interface RemoteGroup {
  name: string;
  priority: number;
  apiServices: Obj[];
}

type Spec = { group?: string; version?: string; groupPriorityMinimum?: number; versionPriority?: number };
const specOf = (a: Obj): Spec => (a.spec ?? {}) as Spec;

/** The remote APIServices of `apiServices` (those with a service), grouped and ordered as discovery lists them. */
export function remoteGroups(apiServices: readonly Obj[]): RemoteGroup[] {
  const groups = new Map<string, RemoteGroup>();
  for (const a of apiServices) {
    const s = specOf(a);
    if (!(a.spec as Obj | undefined)?.service || !s.group || !s.version) continue;
    let g = groups.get(s.group);
    if (!g) groups.set(s.group, (g = { name: s.group, priority: s.groupPriorityMinimum ?? 0, apiServices: [] }));
    g.priority = Math.max(g.priority, s.groupPriorityMinimum ?? 0);
    g.apiServices.push(a);
  }
  for (const g of groups.values()) {
    g.apiServices.sort((a, b) => (specOf(b).versionPriority ?? 0) - (specOf(a).versionPriority ?? 0) || compareKubeAwareVersions(specOf(a).version!, specOf(b).version!));
  }
  return [...groups.values()].sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The version of a remote APIService. */
export function versionOf(apiService: Obj): string {
  return specOf(apiService).version ?? '';
}

const API_REGISTRATION_GROUP_PRIORITY = 20000;
const CUSTOM_RESOURCE_GROUP_PRIORITY = 1000;

/** The rank of a group this server serves, `version` its preferred version; an upstream alias ranks after everything. */
function localRank(group: string, version: string): number {
  if (canonicalGroup(group) !== group) return -Infinity;
  if (group === vendorGroup('apiregistration')) return API_REGISTRATION_GROUP_PRIORITY;
  return apiServicePriority(group, version)?.group ?? CUSTOM_RESOURCE_GROUP_PRIORITY;
}

/**
 * `local` (in discovery order, each with its name and preferred version) with `remote` merged in:
 * a remote group whose name is local is handed to `join`; another goes before the first local
 * group that ranks lower (or equal, with a greater name). Returns the merged sequence.
 */
export function mergeByRank<L>(local: readonly L[], describe: (l: L) => { name: string; version: string }, remote: readonly RemoteGroup[], make: (g: RemoteGroup) => L, join: (l: L, g: RemoteGroup) => void): L[] {
  const out = [...local];
  const ranks = out.map((l) => {
    const d = describe(l);
    return { name: d.name, rank: localRank(d.name, d.version) };
  });
  for (const g of remote) {
    const existing = ranks.findIndex((r) => r.name === g.name);
    if (existing >= 0) {
      join(out[existing]!, g);
      continue;
    }
    let at = ranks.findIndex((r) => r.rank < g.priority || (r.rank === g.priority && r.name > g.name));
    if (at < 0) at = out.length;
    out.splice(at, 0, make(g));
    ranks.splice(at, 0, { name: g.name, rank: g.priority });
  }
  return out;
}

/** The APIGroupList's groups (name → versions, preferred first) with the remote groups merged in. */
export function mergeGroupVersions(local: ReadonlyMap<string, string[]>, remote: readonly RemoteGroup[]): Map<string, string[]> {
  const entries = mergeByRank(
    [...local].map(([name, versions]) => ({ name, versions: [...versions] })),
    (e) => ({ name: e.name, version: e.versions[0] ?? '' }),
    remote,
    (g) => ({ name: g.name, versions: g.apiServices.map(versionOf) }),
    (e, g) => e.versions.push(...g.apiServices.map(versionOf).filter((v) => !e.versions.includes(v))),
  );
  return new Map(entries.map((e) => [e.name, e.versions]));
}

/** Aggregated discovery's groups with the remote groups merged in; `versionsOf(g)` gives a remote group's versions (none: left out). */
export function mergeGroupDiscoveries(local: readonly APIGroupDiscovery[], remote: readonly RemoteGroup[], versionsOf: (g: RemoteGroup) => APIGroupDiscovery['versions']): APIGroupDiscovery[] {
  const withVersions = remote.filter((g) => versionsOf(g).length > 0);
  return mergeByRank(
    local.map((l) => ({ ...l })),
    (l) => ({ name: l.metadata.name ?? '', version: l.versions[0]?.version ?? '' }),
    withVersions,
    (g) => ({ metadata: { name: g.name, creationTimestamp: null }, versions: versionsOf(g) }),
    (l, g) => {
      const have = new Set(l.versions.map((v) => v.version));
      l.versions = [...l.versions, ...versionsOf(g).filter((v) => !have.has(v.version))];
    },
  );
}
