/**
 * The feature gates this server knows (spec 001 § Deprecation rules, rule 7), with upstream
 * v1.30's stage, default and lock for every gate that governs behaviour this server implements,
 * and the `--feature-gates=A=true,B=false` parser with the semantics and messages of upstream
 * v1.30 component-base `featuregate`: unknown gates and locked gates set to a non-default value
 * are errors, setting a GA or deprecated gate warns, `AllAlpha` / `AllBeta` set every ALPHA /
 * BETA gate not set before, and `--help` lists the gates as upstream's `KnownFeatures`.
 */

import { parseGoBool } from './flag-values.js';

/** Maturity of a gated feature, as printed in `--help` and in the warnings. */
export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

/** One gate: its stage, its default and whether it is locked to the default (upstream FeatureSpec). */
export interface FeatureSpec {
  readonly stage: FeatureStage;
  readonly default: boolean;
  /** A locked gate can only be set to its default (upstream `LockToDefault`). */
  readonly lockToDefault?: boolean;
}

/** A table of gates by name. */
export type FeatureTable = Readonly<Record<string, FeatureSpec>>;

/** Upstream's special gate that sets every ALPHA gate not set explicitly. */
export const ALL_ALPHA = 'AllAlpha';
/** Upstream's special gate that sets every BETA gate not set explicitly. */
export const ALL_BETA = 'AllBeta';

const GA_LOCKED = { stage: 'GA', default: true, lockToDefault: true } as const;

/**
 * The known gates with upstream v1.30's values (k8s.io/apiserver and apiextensions-apiserver
 * `pkg/features`, relisted by kube `pkg/features`), plus `AllAlpha` and `AllBeta`.
 */
export const FEATURE_GATES = {
  [ALL_ALPHA]: { stage: 'ALPHA', default: false },
  [ALL_BETA]: { stage: 'BETA', default: false },
  /** CEL `matchConditions` of admission webhooks. */
  AdmissionWebhookMatchConditions: GA_LOCKED,
  /** The aggregated discovery documents (`/api`, `/apis` as APIGroupDiscoveryList). */
  AggregatedDiscoveryEndpoint: GA_LOCKED,
  /** Paged lists (`limit` / `continue`). */
  APIListChunking: GA_LOCKED,
  /** API Priority and Fairness (the flowcontrol configuration objects). */
  APIPriorityAndFairness: GA_LOCKED,
  /** Compress API responses (gzip) when the client accepts it. */
  APIResponseCompression: { stage: 'BETA', default: true },
  /** Each API server keeps an identity Lease in the system namespace; stale ones are deleted (issue #16). */
  APIServerIdentity: { stage: 'BETA', default: true },
  /** Serve consistent lists from the watch cache. */
  ConsistentListFromCache: { stage: 'ALPHA', default: false },
  /** Custom resource updates ignore errors of values unchanged from the old object. */
  CRDValidationRatcheting: { stage: 'BETA', default: true },
  /** `selectableFields` of CRD versions: field selectors over custom resource fields. */
  CustomResourceFieldSelectors: { stage: 'ALPHA', default: false },
  /** `x-<vendor>-validations` CEL rules of CRD schemas. */
  CustomResourceValidationExpressions: GA_LOCKED,
  /** `remainingItemCount` of paged lists. */
  RemainingItemCount: GA_LOCKED,
  /** Server-side apply (`application/apply-patch+yaml`, managed fields). */
  ServerSideApply: GA_LOCKED,
  /** The `fieldValidation` query parameter. */
  ServerSideFieldValidation: GA_LOCKED,
  /** Serve `storagemigration.<vendor>/v1alpha1` StorageVersionMigrations (with `--runtime-config` enabling the version). */
  StorageVersionMigrator: { stage: 'ALPHA', default: false },
  /** `--authentication-config`. */
  StructuredAuthenticationConfiguration: { stage: 'BETA', default: true },
  /** `--authorization-config`. */
  StructuredAuthorizationConfiguration: { stage: 'BETA', default: true },
  /** ValidatingAdmissionPolicy and its bindings. */
  ValidatingAdmissionPolicy: GA_LOCKED,
  /** Serve `sendInitialEvents` watches (streaming lists). */
  WatchList: { stage: 'ALPHA', default: false },
  /** `nominalConcurrencyShares: 0` of limited priority levels. */
  ZeroLimitedNominalConcurrencyShares: GA_LOCKED,
} as const satisfies FeatureTable;

/** Name of a known feature gate. */
export type FeatureGateName = keyof typeof FEATURE_GATES;

/** Every known gate with its effective value. */
export type FeatureGates = Readonly<Record<FeatureGateName, boolean>>;

/**
 * The state of `--feature-gates` after the values seen so far (upstream's feature gate after
 * `Set`): the effective gates, the gates set (by name, or by `AllAlpha` / `AllBeta` — upstream's
 * `enabled` map) and the warnings to log at start, in order.
 */
export interface FeatureGateFlags {
  /** Every gate of the table with its effective value: the value set, else the default. */
  readonly gates: FeatureGates;
  /** The gates set so far and their values. */
  readonly set: Readonly<Record<string, boolean>>;
  /** `Setting GA feature gate X=true. It will be removed in a future release.` and the deprecated ones. */
  readonly warnings: readonly string[];
}

/** `table`'s gates at their defaults, overridden by `set`. */
function effective<T extends FeatureTable>(table: T, set: Readonly<Record<string, boolean>>): Readonly<Record<keyof T, boolean>> {
  const gates = {} as Record<keyof T, boolean>;
  for (const name of Object.keys(table) as Array<keyof T & string>) gates[name] = Object.hasOwn(set, name) ? set[name]! : table[name]!.default;
  return gates;
}

/** The state before any `--feature-gates` value: the known gates at their defaults, none set, no warnings. */
export function defaultFeatureGateFlags(): FeatureGateFlags {
  return { gates: effective(FEATURE_GATES, {}), set: {}, warnings: [] };
}

/** The known gates at their defaults. */
export function defaultFeatureGates(): FeatureGates {
  return effective(FEATURE_GATES, {});
}

/**
 * The known gates at their defaults overridden by `overrides` (the control plane's
 * configuration takes a partial map; no lifecycle checks: flags are checked by
 * {@link applyFeatureGates}).
 */
export function resolveFeatureGates(overrides: Partial<FeatureGates> = {}): FeatureGates {
  const set: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(overrides)) if (value !== undefined) set[name] = value;
  return effective(FEATURE_GATES, set);
}

/**
 * Parses one `--feature-gates` value (`A=true, B=false`: items split at commas, blanks around
 * names and values ignored, empty items skipped, a name repeated: its last value) into name →
 * value in order of first appearance.
 * @throws Error `missing bool value for A`, or
 *   `invalid value of A=x, err: strconv.ParseBool: parsing "x": invalid syntax`.
 */
function parseValue(value: string): Map<string, boolean> {
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
  return updates;
}

/**
 * Applies one `--feature-gates` value on top of `current` (upstream v1.30 `featureGate.Set`):
 * each gate named is set; `AllAlpha` / `AllBeta` also set every ALPHA / BETA gate of `table`
 * not set before (by name or by an earlier special gate); setting a GA or DEPRECATED gate adds
 * upstream's warning. The whole value is refused on the first error, `current` unchanged.
 * `table` is the known gates (tests pass their own).
 * @throws Error with the upstream reason: `missing bool value for A`,
 *   `invalid value of A=x, err: strconv.ParseBool: parsing "x": invalid syntax`,
 *   `unrecognized feature gate: A`, `cannot set feature gate A to false, feature is locked to true`.
 */
export function applyFeatureGates(current: FeatureGateFlags, value: string, table: FeatureTable = FEATURE_GATES): FeatureGateFlags {
  const updates = parseValue(value);
  const set: Record<string, boolean> = { ...current.set };
  const warnings = [...current.warnings];
  for (const [name, enabled] of updates) {
    if (!Object.hasOwn(table, name)) throw new Error(`unrecognized feature gate: ${name}`);
    const spec = table[name]!;
    if (spec.lockToDefault && spec.default !== enabled) {
      throw new Error(`cannot set feature gate ${name} to ${enabled}, feature is locked to ${spec.default}`);
    }
    set[name] = enabled;
    const stage = name === ALL_ALPHA ? 'ALPHA' : name === ALL_BETA ? 'BETA' : undefined;
    if (stage !== undefined) {
      for (const [other, s] of Object.entries(table)) if (s.stage === stage && !Object.hasOwn(set, other)) set[other] = enabled;
    }
    if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${enabled}. It will be removed in a future release.`);
    else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${enabled}. It will be removed in a future release.`);
  }
  return { gates: effective(table, set) as FeatureGates, set, warnings };
}

/**
 * Upstream's `KnownFeatures`: `A=true|false (BETA - default=true)` for every ALPHA and BETA gate
 * of `table` (GA and DEPRECATED ones are not listed), sorted as strings.
 */
export function knownFeatures(table: FeatureTable = FEATURE_GATES): string[] {
  const known: string[] = [];
  for (const [name, spec] of Object.entries(table)) {
    if (spec.stage === 'GA' || spec.stage === 'DEPRECATED') continue;
    known.push(`${name}=true|false (${spec.stage} - default=${spec.default})`);
  }
  return known.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The `--feature-gates` usage as upstream words it: the sentence, then one known feature a line. */
export function describeFeatureGates(): string {
  return `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${knownFeatures().join('\n')}`;
}
