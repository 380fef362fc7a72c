/**
 * What the OpenAPI documents are built from: the installer's served group versions, read into the
 * neutral facts of operations.ts, and the group-version-kinds of the definitions (a kind and its
 * list kind under every served spelling of its group — the vendor one and, with the upstream
 * aliases on, the alias, issue #9 — DeleteOptions and WatchEvent in every served group version as
 * upstream registers them, Status in the core one); and what both documents share: `info`, the
 * security scheme and the `paths` object, each dialect rendering its own operations and parameters.
 */
import { type GroupVersionEntry, resourceVerbs, subresourceFacts } from '../installer.js';
import { aliasKindOf } from '../../apis/group-alias.js';
import type { DefinitionSet } from './definitions.js';
import { deleteOptions, status, watchEvent } from './meta-types.js';
import { type JSONObject, sortedObject } from './names.js';
import { type OperationSpec, type ResourceFacts, resourcePaths } from './operations.js';

/** `info` of the documents. */
export interface DocumentInfo {
  title: string;
  version: string;
}

/** Bearer-token security, as upstream declares it in both documents. */
export const BEARER_TOKEN_SECURITY: JSONObject = { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' };

/** The facts of every resource of a group version. */
export function resourceFacts(gv: GroupVersionEntry): ResourceFacts[] {
  return [...gv.resources.values()].map((entry) => ({
    kind: entry.kind,
    verbs: resourceVerbs(entry),
    subresources: new Map(subresourceFacts(entry).filter((sub) => !sub.connect).map((sub) => [sub.name, { verbs: sub.verbs, kind: sub.createOnly || sub.kind !== entry.kind ? sub.kind : undefined }])),
    deleteReturnsObject: entry.store?.strategy.returnDeletedObject() ?? false,
  }));
}

/**
 * Declares the group-version-kinds of every definition that has some, from ALL served group
 * versions, whichever document is being built: Status in the core group; DeleteOptions and
 * WatchEvent in every served group version (they are registered in each, as upstream); each kind
 * in every group version serving it, with its list kind where the resource is listed (a
 * create-only resource has none); the own kind of a subresource (TokenRequest, Scale) in its
 * vendor spelling and, when the upstream aliases are served, the alias's. A definition thus carries the same list in
 * every document it appears in, as upstream's per-group-version documents are cut from one set
 * of definitions: a kind served under its group's vendor spelling and its upstream alias (the
 * same schema) lists both, vendor first (`groupVersions()` order), so clients that look a kind's
 * schema up by group-version-kind find it under either spelling (issue #9).
 */
export function declareGVKs(defs: DefinitionSet, gvs: readonly GroupVersionEntry[]): void {
  defs.addGVK(status, { group: '', version: 'v1', kind: 'Status' });
  for (const gv of gvs) {
    defs.addGVK(deleteOptions, { group: gv.group, version: gv.version, kind: 'DeleteOptions' });
    defs.addGVK(watchEvent, { group: gv.group, version: gv.version, kind: 'WatchEvent' });
  }
  const aliasesServed = gvs.some((gv) => gv.aliasOf !== undefined);
  for (const gv of gvs) {
    for (const r of resourceFacts(gv)) {
      const k = r.kind;
      defs.addGVK(k.schema, { group: k.group, version: k.version, kind: k.kind });
      if (r.verbs.includes('list')) defs.addGVK(k.listSchema, { group: k.group, version: k.version, kind: k.listKind });
      for (const { kind: own } of r.subresources.values()) {
        if (!own) continue;
        defs.addGVK(own.schema, { group: own.group, version: own.version, kind: own.kind });
        const alias = aliasesServed ? aliasKindOf(own) : undefined;
        if (alias) defs.addGVK(alias.schema, { group: alias.group, version: alias.version, kind: alias.kind });
      }
    }
  }
}

/**
 * Adds the definitions of the kinds of `facts` (and everything they reach): each kind, its list
 * kind where the resource is listed, and the own kinds of its subresources (TokenRequest, Scale).
 */
export function addKindDefinitions(defs: DefinitionSet, facts: readonly ResourceFacts[]): void {
  for (const r of facts) {
    defs.addStruct(r.kind.schema);
    if (r.verbs.includes('list')) defs.addStruct(r.kind.listSchema);
    for (const { kind: own } of r.subresources.values()) if (own) defs.addStruct(own.schema);
  }
}

/**
 * The `paths` object of the resources of `facts`, sorted by path: each path item holds its
 * operations by method, then its path-level parameters, rendered by the dialect's `operation`
 * and `parameter`.
 */
export function renderPaths(
  facts: readonly ResourceFacts[],
  operation: (o: OperationSpec) => JSONObject,
  parameter: (name: string) => JSONObject,
): Record<string, JSONObject> {
  const paths: [string, JSONObject][] = [];
  for (const r of facts) {
    for (const p of resourcePaths(r)) {
      const item: JSONObject = {};
      for (const o of p.operations) item[o.method] = operation(o);
      item.parameters = p.parameters.map(parameter);
      paths.push([p.path, item]);
    }
  }
  return sortedObject(paths);
}
