/**
 * `--runtime-config`: the value of upstream's `cliflag.ConfigurationMap` (spec 001 § API versions
 * and groups): comma-separated `key=value` items, blanks around keys and values trimmed, empty
 * items skipped, an item without `=` having the value `""` (which means true); a later item, or a
 * later occurrence of the flag, overrides an earlier one for the same key. Parsing never fails:
 * keys and values are judged when the served APIs are resolved (lib/controlplane/api-enablement.ts).
 */

/** Key → raw value, in first-seen order. */
export type RuntimeConfig = ReadonlyMap<string, string>;

/** The empty runtime config (every group version at its default). */
export const EMPTY_RUNTIME_CONFIG: RuntimeConfig = new Map();

/** `current` with the items of one `--runtime-config` value applied on top (a new map). */
export function applyRuntimeConfig(current: RuntimeConfig, value: string): RuntimeConfig {
  const next = new Map(current);
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) next.set(item, '');
    else next.set(item.slice(0, eq).trim(), item.slice(eq + 1).trim());
  }
  return next;
}

/** Upstream `ConfigurationMap.String()`: `key=value` items sorted by key, joined by commas. */
export function runtimeConfigString(config: RuntimeConfig): string {
  return [...config.keys()]
    .sort()
    .map((k) => `${k}=${config.get(k)}`)
    .join(',');
}
