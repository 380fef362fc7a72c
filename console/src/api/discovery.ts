/**
 * Discovery as the console reads it (issue #22 § URLs mirror the API): every group the server
 * reports (built-in, CRD or aggregated), at its preferred version, and each group version's
 * resources — the same documents kubectl reads, with no per-kind knowledge in the console.
 */
import { api } from './client';
import { loadConfig } from './config';

/** One top-level resource (no subresources) at one group version. */
export interface ResourceInfo {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural name, as in the URL. */
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  /** True when this version is the group's preferred one. */
  preferred: boolean;
}

interface APIResourceList {
  groupVersion: string;
  resources: { name: string; kind: string; namespaced: boolean; verbs?: string[]; shortNames?: string[] }[];
}
interface APIGroupList {
  groups: { name: string; versions: { groupVersion: string; version: string }[]; preferredVersion?: { version: string } }[];
}

let cached: Promise<ResourceInfo[]> | undefined;

async function resourcesOf(group: string, version: string, preferred: boolean): Promise<ResourceInfo[]> {
  const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  try {
    const { body } = await api<APIResourceList>(path);
    return body.resources
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs ?? [], shortNames: r.shortNames ?? [], preferred }));
  } catch {
    return []; // an aggregated group version whose server is down: shown as absent, as kubectl does
  }
}

/**
 * Every resource of every served group version (preferred versions first within a group), the
 * upstream-spelled aliases of the server's own groups left out.
 * Fetched once per page load; `refresh` fetches again (after a CRD is added). Throws `ApiError`
 * when `/api` or `/apis` cannot be read (e.g. 401).
 */
export function discover(refresh = false): Promise<ResourceInfo[]> {
  if (refresh || !cached) {
    cached = (async () => {
      const [, groups, config] = await Promise.all([api('/api'), api<APIGroupList>('/apis'), loadConfig()]);
      const names = new Set(groups.body.groups.map((g) => g.name));
      // A group spelled in the upstream domain whose twin in the server's domain is served is an
      // alias of it (the same objects): shown once, under the server's own spelling.
      const alias = `.${config.aliasGroupDomain}`;
      const isAlias = (name: string) => name.endsWith(alias) && names.has(`${name.slice(0, -alias.length)}.${config.groupDomain}`);
      const lists = [resourcesOf('', 'v1', true)];
      for (const g of groups.body.groups.filter((g) => !isAlias(g.name))) {
        const preferred = g.preferredVersion?.version ?? g.versions[0]?.version;
        for (const v of g.versions) lists.push(resourcesOf(g.name, v.version, v.version === preferred));
      }
      return (await Promise.all(lists)).flat();
    })();
    cached.catch(() => (cached = undefined));
  }
  return cached;
}

/** The resource serving `kind` of `apiVersion` (`v1`, `apps/v1`), if discovery lists it. */
export function resourceForKind(all: ResourceInfo[], apiVersion: string, kind: string): ResourceInfo | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return all.find((r) => r.group === group && r.version === version && r.kind === kind);
}

/** The resource named by group/version/resource, if served. */
export function findResource(all: ResourceInfo[], group: string, version: string, resource: string): ResourceInfo | undefined {
  return all.find((r) => r.group === group && r.version === version && r.resource === resource);
}
