/**
 * Objects persisted in a removed version (spec 001 § Removed API versions: "All persisted objects
 * remain reachable through the new versions"; issue #15 item 3): a stored value whose
 * `apiVersion` is a removed version of the resource's kind is read in the kind's version through
 * the migration map's rows, as upstream's storage codec decodes any registered version and
 * converts it. For the storage codec's read path (lib/storage/etcd3/codec.ts `canonicalize`):
 * cheap when the value is already in the kind's version.
 */
import type { KindDefinition, Obj } from '../define.js';
import { canonicalGroup } from '../vendor.js';
import { migrationFor } from './index.js';
import { MigrationError, apiVersionOf } from './types.js';

/**
 * `obj` in `kind`'s version: the object itself when it already is (or names no apiVersion, or a
 * version the map does not lead from to `kind`), else a rewritten copy with `kind`'s `apiVersion`
 * and `kind`. An object a row cannot rewrite (MigrationError) is returned as stored. Never throws
 * for bad input.
 */
export function upgradeStoredObject(kind: KindDefinition, obj: Obj): Obj {
  const stored = obj.apiVersion;
  if (stored === kind.apiVersion || typeof stored !== 'string' || typeof obj.kind !== 'string') return obj;
  const slash = stored.indexOf('/');
  let group = slash < 0 ? '' : canonicalGroup(stored.slice(0, slash));
  let version = slash < 0 ? stored : stored.slice(slash + 1);
  let kindName = obj.kind;
  let cur = obj;
  for (let row = migrationFor(group, version, kindName); row?.to; row = migrationFor(group, version, kindName)) {
    try {
      cur = row.convert(cur === obj ? structuredClone(obj) : cur);
    } catch (e) {
      if (e instanceof MigrationError) return obj;
      throw e;
    }
    ({ group, version, kind: kindName } = row.to);
    if (group === kind.group && version === kind.version && kindName === kind.kind) {
      cur.apiVersion = apiVersionOf(group, version);
      cur.kind = kindName;
      return cur;
    }
  }
  return obj;
}
