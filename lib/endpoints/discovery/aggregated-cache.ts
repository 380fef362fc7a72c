/**
 * The encoded aggregated discovery documents of one installer (spec 000 § Other paths; issue #9),
 * kept until what the installer serves changes: each request compares the served resources with
 * those the documents were built from (a cheap walk, no encoding or hashing) and rebuilds lazily.
 */
import { createHash } from 'node:crypto';
import { encodeJSON } from '../../apimachinery/serializers/json.js';
import type { GroupVersionEntry } from '../installer.js';
import { type APIGroupDiscovery, type APIGroupDiscoveryList, apiGroupDiscoveryList, groupDiscoveries } from './aggregated.js';

/** What the documents are built from. */
export interface DiscoverySource {
  groupVersions(): GroupVersionEntry[];
}

/** One document with its compact JSON encoding and ETag (upper-case hex SHA-512 of that JSON, as upstream). */
export interface EncodedDiscovery {
  document: APIGroupDiscoveryList;
  json: Buffer;
  etag: string;
}

/** Everything that, when changed, changes a document: each resource's group, version, name, entry, subresources and create-only subresources. */
function fingerprintOf(gvs: readonly GroupVersionEntry[]): unknown[] {
  const out: unknown[] = [];
  for (const gv of gvs) {
    for (const [resource, entry] of gv.resources) out.push(gv.group, gv.version, resource, entry, entry.kind, [...entry.subresources.keys()].join(','), entry.creaters, [...(entry.creaters?.keys() ?? [])].join(','));
  }
  return out;
}

function sameFingerprint(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** `document` with its compact JSON and ETag. */
export function encodeDiscovery(document: APIGroupDiscoveryList): EncodedDiscovery {
  const json = encodeJSON(document);
  return { document, json, etag: createHash('sha512').update(json).digest('hex').toUpperCase() };
}

/** The aggregated discovery documents of one installer, built on first use and after every change. */
export class AggregatedDiscoveryCache {
  private fingerprint: unknown[] = [];
  private groups = new Map<boolean, APIGroupDiscovery[]>();
  private documents = new Map<string, EncodedDiscovery>();

  constructor(private readonly source: DiscoverySource) {}

  /**
   * The list of `/api` (`core`) or `/apis` under `apiVersion` (`<discovery group>/<version>`,
   * the spelling the client asked for).
   */
  get(core: boolean, apiVersion: string): EncodedDiscovery {
    const gvs = this.source.groupVersions();
    const fingerprint = fingerprintOf(gvs);
    if (!sameFingerprint(fingerprint, this.fingerprint)) {
      this.fingerprint = fingerprint;
      this.groups = new Map();
      this.documents = new Map();
    }
    const key = `${core ? 'api' : 'apis'} ${apiVersion}`;
    let doc = this.documents.get(key);
    if (!doc) {
      let items = this.groups.get(core);
      if (!items) {
        items = groupDiscoveries(gvs, core);
        this.groups.set(core, items);
      }
      doc = encodeDiscovery(apiGroupDiscoveryList(apiVersion, items));
      this.documents.set(key, doc);
    }
    return doc;
  }
}
