/**
 * Discovery documents in the upstream JSON shapes: APIVersions (`/api`), APIGroupList (`/apis`),
 * APIGroup (`/apis/<group>`), APIResourceList (`/api/v1`, `/apis/<group>/<version>`)
 * (spec 000 § Other paths; issue #2 item 8). A group served under its upstream alias (issue #9) is
 * listed like any other group; its resources carry the storage version hash of the stored kind.
 */
import { createHash } from 'node:crypto';
import type { KindDefinition } from '../../apis/define.js';
import type { ResourceEntry } from '../handlers/scope.js';
import { type GroupVersionEntry, resourceVerbs, subresourceFacts } from '../installer.js';

/** One resource of an APIResourceList. */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  /** The group of `kind` when it is another than the list's (a create-only subresource's own kind). */
  group?: string;
  /** The version of `kind`, given with `group`. */
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

const storageVersionHashes = new WeakMap<KindDefinition, string>();

/**
 * `base64(sha256("<group>/<version>/<Kind>")[:8])` of the kind as stored, as upstream computes it;
 * computed once per kind (discovery documents are built per request).
 */
export function storageVersionHash(kind: KindDefinition): string {
  let hash = storageVersionHashes.get(kind);
  if (hash === undefined) {
    hash = createHash('sha256').update(`${kind.group}/${kind.version}/${kind.kind}`).digest().subarray(0, 8).toString('base64');
    storageVersionHashes.set(kind, hash);
  }
  return hash;
}

/**
 * The short names and categories discovery lists for the resources of `gv`: the kind's own, none
 * under an upstream alias. Listed twice, `kubectl get ing` would warn on every call that the short
 * name "could also match lower priority resource ingresses.networking.k8s.io", and a category
 * (`kubectl get api-extensions`) would print every object once per spelling; the vendor group,
 * listed first, is the one kubectl resolves them to (spec 000 § Discovery).
 */
export function discoveryNames(gv: GroupVersionEntry, kind: KindDefinition): { shortNames?: string[]; categories?: string[] } {
  if (gv.aliasOf !== undefined) return {};
  return { ...(kind.shortNames.length > 0 ? { shortNames: [...kind.shortNames] } : {}), ...(kind.categories.length > 0 ? { categories: [...kind.categories] } : {}) };
}

/**
 * The kind a resource's objects are stored as: for an upstream alias (issue #9) the vendor kind,
 * so both spellings of one storage advertise the same storage version hash.
 */
function storedKind(entry: ResourceEntry): KindDefinition {
  return entry.conversion?.storageKind ?? entry.kind;
}

/**
 * The APIResources of one served resource: the main resource (a create-only one with verb
 * `create` and, as upstream, no storage version hash: nothing is stored), then its subresources;
 * a subresource whose kind belongs to another group/version than the list names it with `group`
 * and `version` (`serviceaccounts/token`: TokenRequest of the authentication group).
 */
function resourcesOf(gv: GroupVersionEntry, entry: ResourceEntry): APIResource[] {
  const k = entry.kind;
  const main: APIResource = {
    name: k.resource,
    singularName: k.singular,
    namespaced: k.namespaced,
    kind: k.kind,
    verbs: [...resourceVerbs(entry)],
    ...discoveryNames(gv, k),
  };
  if (entry.store) main.storageVersionHash = storageVersionHash(storedKind(entry));
  const out = [main];
  for (const sub of subresourceFacts(entry)) {
    const own = sub.kind.group !== gv.group || sub.kind.version !== gv.version ? { group: sub.kind.group, version: sub.kind.version } : {};
    out.push({ name: `${k.resource}/${sub.name}`, singularName: '', namespaced: k.namespaced, ...own, kind: sub.kind.kind, verbs: [...sub.verbs] });
  }
  return out;
}

/** APIResourceList of one group/version (the core list carries no apiVersion, as upstream). */
export function apiResourceList(gv: GroupVersionEntry): Record<string, unknown> {
  const groupVersion = gv.group ? `${gv.group}/${gv.version}` : gv.version;
  const resources = [...gv.resources.values()].flatMap((entry) => resourcesOf(gv, entry));
  return gv.group
    ? { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources }
    : { kind: 'APIResourceList', groupVersion, resources };
}

/** APIVersions of the core group (`/api`). */
export function apiVersions(versions: string[], serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions, serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

function apiGroupBody(name: string, versions: string[]): Record<string, unknown> {
  const vs: GroupVersionForDiscovery[] = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

/** APIGroup (`/apis/<group>`). */
export function apiGroup(name: string, versions: string[]): Record<string, unknown> {
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroupBody(name, versions) };
}

/** APIGroupList (`/apis`): every named group with its versions, preferred first. */
export function apiGroupList(groups: Map<string, string[]>): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups].map(([name, versions]) => apiGroupBody(name, versions)) };
}
