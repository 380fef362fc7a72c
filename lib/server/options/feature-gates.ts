/**
 * The feature gates this server knows, their maturity and defaults, and the parser of
 * `--feature-gates=A=true,B=false` with the upstream component-base messages.
 */

import { parseGoBool } from './flag-values.js';

/** Maturity of a gated feature, as printed in `--help`. */
export type FeatureStage = 'ALPHA' | 'BETA' | 'GA';

/** The known gates: upstream v1.30 defaults. */
export const FEATURE_GATES = {
  /** Compress API responses (gzip) when the client accepts it. */
  APIResponseCompression: { default: true, stage: 'BETA' },
  /** Serve `sendInitialEvents` watches (streaming lists). */
  WatchList: { default: false, stage: 'ALPHA' },
} as const satisfies Record<string, { default: boolean; stage: FeatureStage }>;

/** Name of a known feature gate. */
export type FeatureGateName = keyof typeof FEATURE_GATES;

/** Every known gate with its effective value. */
export type FeatureGates = Readonly<Record<FeatureGateName, boolean>>;

/** The gates at their defaults. */
export function defaultFeatureGates(): FeatureGates {
  const gates = {} as Record<FeatureGateName, boolean>;
  for (const name of featureGateNames()) gates[name] = FEATURE_GATES[name].default;
  return gates;
}

/** The known gate names, sorted. */
export function featureGateNames(): FeatureGateName[] {
  return (Object.keys(FEATURE_GATES) as FeatureGateName[]).sort();
}

/**
 * Applies one `--feature-gates` value (`A=true, B=false`; blanks around names and values are
 * ignored, empty items skipped) on top of `current`, returning the new gates.
 * @throws Error with the upstream reason: `missing bool value for A`,
 *   `invalid value of A=x, err: strconv.ParseBool: parsing "x": invalid syntax`,
 *   `unrecognized feature gate: A`.
 */
export function applyFeatureGates(current: FeatureGates, value: string): FeatureGates {
  const updates = new Map<string, boolean>();
  for (const item of value.split(',')) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim();
    if (eq < 0) throw new Error(`missing bool value for ${name}`);
    const raw = item.slice(eq + 1).trim();
    let enabled: boolean;
    try {
      enabled = parseGoBool(raw);
    } catch (err) {
      throw new Error(`invalid value of ${name}=${raw}, err: ${(err as Error).message}`, { cause: err });
    }
    updates.set(name, enabled);
  }
  const next: Record<string, boolean> = { ...current };
  for (const [name, enabled] of updates) {
    if (!Object.hasOwn(FEATURE_GATES, name)) throw new Error(`unrecognized feature gate: ${name}`);
    next[name] = enabled;
  }
  return next as FeatureGates;
}

/** The `--feature-gates` help text listing every gate: `A=true|false (BETA - default=true)`. */
export function describeFeatureGates(): string {
  return featureGateNames()
    .map((name) => `${name}=true|false (${FEATURE_GATES[name].stage} - default=${FEATURE_GATES[name].default})`)
    .join(', ');
}
