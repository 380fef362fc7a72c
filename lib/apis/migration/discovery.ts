/**
 * EndpointSlice `discovery.<vendor>/v1beta1` → `v1` (spec 001 § Removed API versions, 1.25 row;
 * upstream `pkg/apis/discovery/v1beta1/conversion.go`). Each endpoint's `topology` map becomes
 * `deprecatedTopology`, from which the zone label moves to `zone` and the hostname label is
 * dropped when it equals `nodeName` (a different hostname stays, as upstream keeps it); an empty
 * remainder is dropped. The labels are read in both spellings (NODE_LABEL_DOMAINS).
 */
import type { Obj } from '../define.js';
import { DISCOVERY_GROUP } from '../discovery/v1/endpoint-slice.js';
import { NODE_LABEL_DOMAINS } from '../vendor.js';
import { type MigrationRow, isObj, objects } from './types.js';

const ZONE_LABELS = NODE_LABEL_DOMAINS.map((d) => `topology.${d}/zone`);
const HOSTNAME_LABELS = NODE_LABEL_DOMAINS.map((d) => `${d}/hostname`);

/** One v1beta1 Endpoint in v1's shape (modified in place). */
function endpointToV1(ep: Obj): void {
  const topology = ep.topology;
  delete ep.topology;
  if (!isObj(topology)) return;
  const rest: Obj = { ...topology };
  for (const label of ZONE_LABELS) {
    if (typeof rest[label] === 'string') {
      ep.zone ??= rest[label];
      delete rest[label];
    }
  }
  for (const label of HOSTNAME_LABELS) {
    if (typeof ep.nodeName === 'string' && rest[label] === ep.nodeName) delete rest[label];
  }
  if (Object.keys(rest).length > 0) ep.deprecatedTopology = rest;
}

/** Rewrites a v1beta1 EndpointSlice into v1 (see the file comment). */
export function endpointSliceToV1(obj: Obj): Obj {
  for (const ep of objects(obj.endpoints)) endpointToV1(ep);
  return obj;
}

/** The EndpointSlice row. */
export const discoveryRows: readonly MigrationRow[] = [
  {
    from: { group: DISCOVERY_GROUP, version: 'v1beta1', kind: 'EndpointSlice' },
    to: { group: DISCOVERY_GROUP, version: 'v1', kind: 'EndpointSlice' },
    removedIn: '1.25',
    convert: endpointSliceToV1,
  },
];
