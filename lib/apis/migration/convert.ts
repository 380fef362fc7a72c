/**
 * Converting one manifest object to a group/version, offline (issue #15 item 7; spec 001
 * § Removed API versions: "a client convert command with `--output-version`"), as upstream's
 * `kubectl convert` does with its scheme: an object of a removed version is first rewritten by
 * its migration-map rows (lib/apis/migration/index.ts) into its replacement; an object of a
 * served version is converted with the server's own conversions between served versions
 * (lib/apis/version-conversion.ts); the result carries the target kind's defaults, in its
 * canonical form. Pure: no I/O.
 *
 * Errors (messages worded as upstream's scheme words them, with the scheme's name):
 * - DecodeError: the object cannot be read as a known kind — `Object 'Kind' is missing in '…'`,
 *   `no kind "Foo" is registered for version "x/v1" in scheme "…"`, a malformed `apiVersion`
 *   (`unexpected GroupVersion string: …`), a removed kind without replacement (its row's words).
 * - ConversionError: the kind has no version in the requested group/version —
 *   `*networking.Ingress is not suitable for converting to "apps/v1" in scheme "…"` — or the
 *   object cannot be expressed in its replacement version (its row's MigrationError message).
 */
import { applyDefaults } from '../../apimachinery/schema/defaults.js';
import { canonicalize } from '../../apimachinery/schema/canonical.js';
import { type KindDefinition, type Obj, packageOf } from '../define.js';
import { canonicalGroup } from '../vendor.js';
import { MIGRATIONS, migrationFor } from './index.js';
import type { VersionConversion } from '../version-conversion.js';
import { MigrationError, apiVersionOf, gvkKey, isObj } from './types.js';

/** What convert knows (upstream's runtime.Scheme): the served kinds and the conversions between them. */
export interface ConvertScheme {
  /** The scheme's name in messages (upstream names a scheme after the file that builds it). */
  name: string;
  /** Every served kind by gvkKey (vendor spelling of groups). */
  kinds: ReadonlyMap<string, KindDefinition>;
  /** The conversions between served versions of one stored kind. */
  conversions: readonly VersionConversion[];
}

/** A group and version; `group` is `''` for the core group. */
export interface GroupVersion {
  group: string;
  version: string;
}

/** The object cannot be read as a known kind (the command prefixes `unable to decode "<source>": `). */
export class DecodeError extends Error {}
/** The object's kind has no version in the requested group/version. */
export class ConversionError extends Error {}

/**
 * Parses `group/version` as upstream's schema.ParseGroupVersion: `''` → undefined (no version
 * asked), `v1` → the core group, `apps/v1`; more than one `/` throws DecodeError
 * `unexpected GroupVersion string: <s>`.
 */
export function parseGroupVersion(s: string): GroupVersion | undefined {
  if (s === '' || s === '/') return undefined;
  const parts = s.split('/');
  if (parts.length === 1) return { group: '', version: s };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  throw new DecodeError(`unexpected GroupVersion string: ${s}`);
}

/** The string form of a GroupVersion (`v1`, `apps/v1`). */
export function formatGroupVersion(gv: GroupVersion): string {
  return apiVersionOf(gv.group, gv.version);
}

/** Upstream's internal type name of a kind in messages: `*networking.Ingress`, `*core.Event`. */
function internalTypeName(scheme: ConvertScheme, kind: KindDefinition): string {
  const stored = scheme.conversions.find((c) => c.servedKind === kind)?.storageKind ?? kind;
  return `*${packageOf(stored.group)}.${kind.kind}`;
}

/** `obj` of `from` as an object of `to` through the served-version conversions, or undefined when none links them. */
function convertServed(conversions: readonly VersionConversion[], obj: Obj, from: KindDefinition, to: KindDefinition): Obj | undefined {
  if (from === to) return obj;
  for (const c of conversions) {
    if (c.servedKind === from && c.storageKind === to) return c.toStorage(obj);
    if (c.storageKind === from && c.servedKind === to) return c.toServed(obj);
  }
  for (const a of conversions) {
    if (a.servedKind !== from) continue;
    const b = conversions.find((c) => c.servedKind === to && c.storageKind === a.storageKind);
    if (b) return b.toServed(a.toStorage(obj));
  }
  return undefined;
}

/** The longest chain of migration rows (a bound on rewrites of one object). */
const MAX_MIGRATION_STEPS = MIGRATIONS.length;

/**
 * Converts one decoded manifest object with `scheme` to `output` (undefined: its own version, or
 * the replacement of a removed one). Returns a new object; `obj` is not modified. An `output`
 * group in its upstream spelling (`networking.k8s.io`) is honoured and kept in the result's
 * `apiVersion`. Throws DecodeError or ConversionError (see the file comment).
 */
export function convertObject(scheme: ConvertScheme, obj: unknown, output?: GroupVersion): Obj {
  if (!isObj(obj) || typeof obj.kind !== 'string' || obj.kind === '') throw new DecodeError(`Object 'Kind' is missing in '${JSON.stringify(obj)}'`);
  if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') throw new DecodeError(`Object 'apiVersion' is missing in '${JSON.stringify(obj)}'`);
  const given = obj.apiVersion;
  const gv = parseGroupVersion(given)!;
  let group = canonicalGroup(gv.group);
  let version = gv.version;
  let kindName = obj.kind;
  let cur: Obj = structuredClone(obj);
  let migrated = false;
  for (let step = 0; !scheme.kinds.has(gvkKey(group, version, kindName)) && step < MAX_MIGRATION_STEPS; step++) {
    const row = migrationFor(group, version, kindName);
    if (!row) break;
    try {
      cur = row.convert(cur);
    } catch (e) {
      if (!(e instanceof MigrationError)) throw e;
      if (!row.to) throw new DecodeError(`no kind "${kindName}" is registered for version "${given}" in scheme "${scheme.name}": ${e.message}`);
      throw new ConversionError(e.message);
    }
    if (!row.to) break;
    migrated = true;
    ({ group, version, kind: kindName } = row.to);
    cur.apiVersion = apiVersionOf(group, version);
    cur.kind = kindName;
  }
  const kind = scheme.kinds.get(gvkKey(group, version, kindName));
  if (!kind) throw new DecodeError(`no kind "${kindName}" is registered for version "${given}" in scheme "${scheme.name}"`);
  const target = output ? scheme.kinds.get(gvkKey(canonicalGroup(output.group), output.version, kind.kind)) : kind;
  const notSuitable = () => new ConversionError(`${internalTypeName(scheme, kind)} is not suitable for converting to "${formatGroupVersion(output!)}" in scheme "${scheme.name}"`);
  if (!target) throw notSuitable();
  applyDefaults(kind.schema, cur);
  const converted = convertServed(scheme.conversions, cur, kind, target);
  if (!converted) throw notSuitable();
  applyDefaults(target.schema, converted);
  const out = canonicalize(target.schema, converted);
  out.apiVersion = output ? formatGroupVersion(output) : migrated ? target.apiVersion : given;
  return out;
}
