/**
 * Aggregated discovery documents (spec 000 § Other paths; issue #9): the APIGroupDiscoveryList
 * that clients since kubectl 1.26 ask `/api` and `/apis` for, in the upstream apidiscovery v2 and
 * v2beta1 shape (the two versions share it): every group with all its versions and each version's
 * resources, subresources nested under their parent.
 */
import type { KindDefinition } from '../../apis/define.js';
import type { ResourceEntry } from '../handlers/scope.js';
import { type GroupVersionEntry, resourceVerbs, subresourceFacts } from '../installer.js';
import { discoveryNames } from './documents.js';

/**
 * The kind a resource or subresource answers with. As upstream, group and version are empty
 * (the group/version the resource is listed under) unless the kind belongs to another group.
 */
export interface ResponseKind {
  group: string;
  version: string;
  kind: string;
}

/** One subresource of an APIResourceDiscovery. */
export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: ResponseKind;
  verbs: string[];
}

/** One resource of an APIVersionDiscovery. */
export interface APIResourceDiscovery {
  resource: string;
  responseKind: ResponseKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

/** One version of an APIGroupDiscovery; `freshness` is always `Current` (no aggregated servers). */
export interface APIVersionDiscovery {
  version: string;
  resources: APIResourceDiscovery[];
  freshness: 'Current';
}

/**
 * One group of an APIGroupDiscoveryList. `metadata` is an ObjectMeta as upstream's encoder writes
 * an empty one: `creationTimestamp: null`, and no `name` for the core group.
 */
export interface APIGroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions: APIVersionDiscovery[];
}

/** The list answered at `/api` (the core group) or `/apis` (the named groups). */
export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: string;
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}

/** The response kind of a (sub)resource listed under `gv`: group and version empty when they are the list's own. */
function responseKind(gv: GroupVersionEntry, kind: KindDefinition): ResponseKind {
  return kind.group === gv.group && kind.version === gv.version ? { group: '', version: '', kind: kind.kind } : { group: kind.group, version: kind.version, kind: kind.kind };
}

function resourceDiscovery(gv: GroupVersionEntry, entry: ResourceEntry): APIResourceDiscovery {
  const k = entry.kind;
  const out: APIResourceDiscovery = {
    resource: k.resource,
    responseKind: responseKind(gv, k),
    scope: k.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: k.singular,
    verbs: [...resourceVerbs(entry)],
    ...discoveryNames(gv, k),
  };
  const subs = subresourceFacts(entry);
  if (subs.length > 0) out.subresources = subs.map((sub) => ({ subresource: sub.name, responseKind: responseKind(gv, sub.kind), verbs: [...sub.verbs] }));
  return out;
}

/**
 * The groups of `gvs` that `/api` (`core`: the group named '') or `/apis` (every other group)
 * lists, in the order of `gvs` (the order of plain discovery: vendor groups before their
 * upstream aliases), each with its versions in that order (preferred first).
 */
export function groupDiscoveries(gvs: readonly GroupVersionEntry[], core: boolean): APIGroupDiscovery[] {
  const groups = new Map<string, APIGroupDiscovery>();
  for (const gv of gvs) {
    if ((gv.group === '') !== core) continue;
    let group = groups.get(gv.group);
    if (!group) {
      group = { metadata: core ? { creationTimestamp: null } : { name: gv.group, creationTimestamp: null }, versions: [] };
      groups.set(gv.group, group);
    }
    group.versions.push({ version: gv.version, resources: [...gv.resources.values()].map((entry) => resourceDiscovery(gv, entry)), freshness: 'Current' });
  }
  return [...groups.values()];
}

/** An APIGroupDiscoveryList of `apiVersion` (`<discovery group>/<v2 | v2beta1>`, as asked). */
export function apiGroupDiscoveryList(apiVersion: string, items: APIGroupDiscovery[]): APIGroupDiscoveryList {
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items };
}
