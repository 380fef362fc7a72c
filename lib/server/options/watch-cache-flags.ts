/**
 * The watch cache flags of the Etcd section (issue #16 item 6): `--watch-cache` (default true)
 * and `--watch-cache-sizes` (`resource[.group]#size`, comma separated, repeatable), parsed with
 * upstream's syntax and error texts (`invalid value of watch cache size: x`, `invalid size of watch
 * cache size: x`, `watch cache size cannot be negative: x`). As upstream's kube-apiserver, `events`
 * of the core group and of the events group are not cached unless a size says otherwise: size 0
 * serves a resource straight from etcd; another size bounds the number of recent events its watch
 * cache holds (our cacher's window, lib/storage/cacher/watch-cache.ts `WindowLimits.maxEvents`).
 */
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import type { FlagSpec } from './flag-table.js';
import { parseGoBool, parseStringSlice } from './flag-values.js';

/** The watch cache flags as given. */
export interface WatchCacheFlags {
  /** `--watch-cache` (default true); false: every resource is read and watched from etcd. */
  enabled: boolean;
  /** `--watch-cache-sizes` entries as given (`resource[.group]#size`), in order. */
  sizes: string[];
}

/** The defaults: caching on, no sizes given. */
export function defaultWatchCacheFlags(): WatchCacheFlags {
  return { enabled: true, sizes: [] };
}

/** The decision for one resource: cached or read from etcd directly, and the cache's event bound. */
export interface WatchCacheChoice {
  cached: boolean;
  /** The largest number of events the cache keeps (from a non-zero size), or undefined for the default. */
  maxEvents?: number;
}

/** Which resources are cached, and how large their windows are. */
export interface WatchCachePolicy {
  /** The decision for `resource` of `group` ('' = core). */
  choose(group: string, resource: string): WatchCacheChoice;
}

/** `group/resource` key of the size table. */
function keyOf(group: string, resource: string): string {
  return `${canonicalGroup(group)}/${resource}`;
}

/** Upstream's default sizes: core `events` and `events.<vendor>` events are not cached (size 0). */
export function defaultWatchCacheSizes(): Map<string, number> {
  return new Map([
    [keyOf('', 'events'), 0],
    [keyOf(vendorGroup('events'), 'events'), 0],
  ]);
}

/** Go's `strconv.Atoi` acceptance: an optional sign and decimal digits, within 64 bits. */
const ATOI = /^[+-]?[0-9]+$/;

/**
 * Parses `--watch-cache-sizes` entries into `group/resource` → size (upstream
 * ParseWatchCacheSizes; `resource.group` splits at the first dot, as schema.ParseGroupResource;
 * an upstream group spelling names the vendor group). A later entry for the same resource wins.
 * @throws Error `invalid value of watch cache size: <entry>` (not exactly one `#`),
 *   `invalid size of watch cache size: <entry>` (size not an integer),
 *   `watch cache size cannot be negative: <entry>`.
 */
export function parseWatchCacheSizes(entries: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of entries) {
    const tokens = entry.split('#');
    if (tokens.length !== 2) throw new Error(`invalid value of watch cache size: ${entry}`);
    const [gr, sizeText] = tokens as [string, string];
    if (!ATOI.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) throw new Error(`invalid size of watch cache size: ${entry}`);
    const size = Number(sizeText);
    if (size < 0) throw new Error(`watch cache size cannot be negative: ${entry}`);
    const dot = gr.indexOf('.');
    const resource = dot < 0 ? gr : gr.slice(0, dot);
    const group = dot < 0 ? '' : gr.slice(dot + 1);
    out.set(keyOf(group, resource), size);
  }
  return out;
}

/** The validation of the flags: the parse error of `--watch-cache-sizes`, if any (one reason). */
export function validateWatchCacheFlags(f: WatchCacheFlags): string[] {
  try {
    parseWatchCacheSizes(f.sizes);
    return [];
  } catch (err) {
    return [(err as Error).message];
  }
}

/**
 * The policy the control plane builds stores with: with caching off, nothing is cached; else the
 * default sizes overlaid by the given ones (upstream's Complete), size 0 = uncached.
 * @throws Error as parseWatchCacheSizes.
 */
export function watchCachePolicy(f: WatchCacheFlags): WatchCachePolicy {
  const sizes = defaultWatchCacheSizes();
  for (const [k, v] of parseWatchCacheSizes(f.sizes)) sizes.set(k, v);
  return {
    choose(group, resource) {
      if (!f.enabled) return { cached: false };
      const size = sizes.get(keyOf(group, resource));
      if (size === 0) return { cached: false };
      return size === undefined ? { cached: true } : { cached: true, maxEvents: size };
    },
  };
}

/** The watch cache flags, in help order (section Etcd, as upstream). */
export const WATCH_CACHE_FLAGS: readonly FlagSpec[] = [
  {
    name: 'watch-cache',
    section: 'Etcd',
    valueType: '',
    defaultText: 'true',
    usage: 'Enable watch caching in the apiserver',
    apply: (d, v) => (d.watchCache.enabled = parseGoBool(v)),
  },
  {
    name: 'watch-cache-sizes',
    section: 'Etcd',
    valueType: 'strings',
    defaultText: '[]',
    usage:
      'Watch cache size settings for some resources (pods, nodes, etc.), comma separated. The individual setting format: resource[.group]#size, where resource is lowercase plural (no version), group is omitted for resources of apiVersion v1 (the legacy core API) and included for others, and size is a number. This option is only meaningful for resources built into the apiserver, not ones defined by CRDs or aggregated from external servers, and is only consulted if the watch-cache is enabled. A size of zero disables watch caching for the associated resource; any other size bounds the number of recent events its watch cache keeps (default 100000).',
    apply: (d, v) => d.watchCache.sizes.push(...parseStringSlice(v)),
  },
];
