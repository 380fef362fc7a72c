/**
 * Owners and dependents of an object (issue #22 § One object, its owners and dependents).
 * Owners come from `metadata.ownerReferences`, resolved to a served resource by discovery.
 * Dependents are the objects whose ownerReferences name this object's uid: found by listing,
 * as PartialObjectMetadata (metadata only, cheap), every listable resource where a dependent may
 * live — the object's namespace for a namespaced owner (a namespaced object may only be owned
 * from its own namespace or by a cluster-scoped object), every namespace and the cluster scope
 * for a cluster-scoped owner — a few lists at a time, each capped, resources that refuse (403)
 * skipped and counted.
 */
import { api } from '../../api/client';
import type { ConsoleConfig } from '../../api/config';
import { resourceForKind, type ResourceInfo } from '../../api/discovery';
import { apiPath } from '../../router';

/** An object related to the page's object, with its console link when its resource is served. */
export interface Related {
  kind: string;
  name: string;
  namespace?: string;
  /** API path of the object; undefined when discovery does not serve its kind. */
  path?: string;
  /** True for the owner reference marked `controller`. */
  controller: boolean;
}

/** Items listed per resource at most. */
export const LIST_CAP = 500;
/** Lists in flight at once. */
const PARALLEL = 4;

/** issue #22 § One object: the owners named by `object.metadata.ownerReferences`. */
export function ownersOf(object: Record<string, any>, all: ResourceInfo[]): Related[] {
  const refs = (object.metadata?.ownerReferences ?? []) as Record<string, any>[];
  return refs.map((ref) => {
    const r = resourceForKind(all, String(ref.apiVersion ?? ''), String(ref.kind ?? ''));
    const namespace = r?.namespaced ? object.metadata?.namespace : undefined;
    const path = r ? apiPath({ group: r.group, version: r.version, resource: r.resource, namespace, name: String(ref.name) }) : undefined;
    return { kind: String(ref.kind ?? ''), name: String(ref.name ?? ''), namespace, path, controller: ref.controller === true };
  });
}

/** The resources to search for dependents of an object (namespaced or not): preferred versions that support list. issue #22 § One object. */
export function searchedResources(all: ResourceInfo[], ownerNamespaced: boolean): ResourceInfo[] {
  return all.filter((r) => r.preferred && r.verbs.includes('list') && (r.namespaced || !ownerNamespaced));
}

/** What the dependents search found, and which resources it could not list. */
export interface Dependents {
  dependents: Related[];
  /** `resource.group` of the lists refused or failed. */
  skipped: string[];
  /** Resources whose list was cut at LIST_CAP items. */
  capped: string[];
}

/** issue #22 § One object: the dependents of `object` (whose ownerReferences name its uid). */
export async function findDependents(object: Record<string, any>, all: ResourceInfo[], config: ConsoleConfig, signal: AbortSignal): Promise<Dependents> {
  const uid = object.metadata?.uid as string;
  const ns = object.metadata?.namespace as string | undefined;
  const queue = searchedResources(all, ns !== undefined);
  const out: Dependents = { dependents: [], skipped: [], capped: [] };
  const seen = new Set<string>();
  const accept = `application/json;as=PartialObjectMetadataList;v=v1;g=${config.metaGroup}, application/json`;
  const one = async (r: ResourceInfo) => {
    const name = r.group ? `${r.resource}.${r.group}` : r.resource;
    const path = apiPath({ group: r.group, version: r.version, resource: r.resource, namespace: r.namespaced ? ns : undefined });
    try {
      const { body } = await api<{ metadata?: { continue?: string }; items?: Record<string, any>[] }>(path, { query: { limit: String(LIST_CAP) }, accept, signal });
      if (body.metadata?.continue) out.capped.push(name);
      for (const item of body.items ?? []) {
        const meta = item.metadata ?? {};
        const refs = (meta.ownerReferences ?? []) as Record<string, any>[];
        const ref = refs.find((o) => o.uid === uid);
        if (!ref || seen.has(meta.uid)) continue;
        seen.add(meta.uid);
        const itemPath = apiPath({ group: r.group, version: r.version, resource: r.resource, namespace: meta.namespace, name: meta.name });
        out.dependents.push({ kind: r.kind, name: meta.name, namespace: meta.namespace, path: itemPath, controller: ref.controller === true });
      }
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      out.skipped.push(name);
    }
  };
  const workers = Array.from({ length: PARALLEL }, async () => {
    for (let r = queue.shift(); r; r = queue.shift()) await one(r);
  });
  await Promise.all(workers);
  out.dependents.sort((a, b) => `${a.kind}/${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.kind}/${b.namespace ?? ''}/${b.name}`));
  return out;
}
