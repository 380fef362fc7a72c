/**
 * The discovery of one remote group version, for aggregated discovery (spec 000 § Other paths;
 * upstream v1.30 kube-aggregator's discovery aggregation manager): `/apis` of the extension
 * server asked for the aggregated list (the vendor and upstream discovery groups, v2), else its
 * APIResourceList at `/apis/<group>/<version>` converted (subresources nested under their
 * parent). Kept per APIService (name and resourceVersion) for {@link REFRESH_MS}; a failed
 * refresh keeps the last document, marked `Stale`.
 */
import type { Obj } from '../../apis/define.js';
import { DISCOVERY_GROUP, upstreamAlias } from '../../apis/vendor.js';
import type { APIResourceDiscovery, APIVersionDiscovery } from '../discovery/aggregated.js';
import type { BackendResponse } from './backend-get.js';

/** How long a fetched document is used before it is fetched again (ms). */
export const REFRESH_MS = 30_000;

/** A version document, fresh or kept from an earlier fetch. */
export type RemoteVersionDiscovery = Omit<APIVersionDiscovery, 'freshness'> & { freshness: 'Current' | 'Stale' };

/** GETs a path of an APIService's server with an Accept header. */
export type BackendFetch = (apiService: Obj, path: string, accept: string) => Promise<BackendResponse>;

const AGGREGATED_ACCEPT = [DISCOVERY_GROUP, upstreamAlias(DISCOVERY_GROUP)]
  .filter((g): g is string => g !== undefined)
  .map((g) => `application/json;g=${g};v=v2;as=APIGroupDiscoveryList`)
  .concat('application/json')
  .join(',');

type LegacyResource = { name: string; singularName?: string; namespaced?: boolean; group?: string; version?: string; kind: string; verbs?: string[]; shortNames?: string[]; categories?: string[] };

/** An APIResourceList's resources as aggregated discovery's (upstream's conversion). */
export function convertResourceList(list: { resources?: LegacyResource[] }): APIResourceDiscovery[] {
  const out = new Map<string, APIResourceDiscovery>();
  const resources = list.resources ?? [];
  for (const r of resources) {
    if (r.name.includes('/')) continue;
    const d: APIResourceDiscovery = {
      resource: r.name,
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName ?? '',
      verbs: [...(r.verbs ?? [])],
    };
    if (r.shortNames?.length) d.shortNames = [...r.shortNames];
    if (r.categories?.length) d.categories = [...r.categories];
    out.set(r.name, d);
  }
  for (const r of resources) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parent = out.get(r.name.slice(0, slash));
    if (!parent) continue;
    (parent.subresources ??= []).push({ subresource: r.name.slice(slash + 1), responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind }, verbs: [...(r.verbs ?? [])] });
  }
  return [...out.values()];
}

function parse(res: BackendResponse, url: string): Obj {
  if (res.status < 200 || res.status > 299) throw new Error(`bad status from ${url}: ${res.status}`);
  return JSON.parse(res.body) as Obj;
}

/**
 * Fetches the version document of `apiService` (group `group`, version `version`) from its server.
 * @throws Error when neither form can be read.
 */
async function fetchVersion(fetch: BackendFetch, apiService: Obj, group: string, version: string): Promise<RemoteVersionDiscovery> {
  const root = await fetch(apiService, '/apis', AGGREGATED_ACCEPT);
  if (root.status === 200 && /;\s*as=APIGroupDiscoveryList/.test(root.contentType)) {
    const items = ((JSON.parse(root.body) as Obj).items ?? []) as Array<{ metadata?: { name?: string }; versions?: RemoteVersionDiscovery[] }>;
    const found = items.find((i) => i.metadata?.name === group)?.versions?.find((v) => v.version === version);
    if (found) return { version, resources: found.resources ?? [], freshness: 'Current' };
  }
  const path = `/apis/${group}/${version}`;
  const list = parse(await fetch(apiService, path, 'application/json'), path);
  return { version, resources: convertResourceList(list as { resources?: LegacyResource[] }), freshness: 'Current' };
}

interface Entry {
  resourceVersion: string;
  /** When the last fetch ended (-Infinity: never). */
  at: number;
  doc?: RemoteVersionDiscovery;
  pending?: Promise<void>;
}

/** The version documents of remote APIServices, fetched on demand and kept for {@link REFRESH_MS}. */
export class RemoteDiscoveryCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly fetch: BackendFetch,
    private readonly onError: (err: unknown, apiService: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The document of `apiService`, fetched when missing or old; undefined when it was never read. */
  async get(apiService: Obj): Promise<RemoteVersionDiscovery | undefined> {
    const meta = (apiService.metadata ?? {}) as { name?: string; resourceVersion?: string };
    const spec = (apiService.spec ?? {}) as { group?: string; version?: string };
    const name = meta.name ?? '';
    let e = this.entries.get(name);
    if (!e || e.resourceVersion !== meta.resourceVersion) {
      e = { resourceVersion: meta.resourceVersion ?? '', at: -Infinity };
      this.entries.set(name, e);
    }
    const entry = e;
    if (this.now() - entry.at >= REFRESH_MS) {
      entry.pending ??= fetchVersion(this.fetch, apiService, spec.group ?? '', spec.version ?? '')
        .then(
          (doc) => {
            entry.doc = doc;
          },
          (err: unknown) => {
            this.onError(err, name);
            if (entry.doc) entry.doc = { ...entry.doc, freshness: 'Stale' };
          },
        )
        .finally(() => {
          entry.at = this.now();
          entry.pending = undefined;
        });
      await entry.pending;
    }
    return entry.doc;
  }

  /** Forgets the APIServices not named in `names` (deleted ones). */
  retain(names: ReadonlySet<string>): void {
    for (const n of this.entries.keys()) if (!names.has(n)) this.entries.delete(n);
  }
}
