/**
 * Compatibility versions of the expression environment. spec 000 § Expression language (CEL) in
 * fields: "A server accepts writes of expressions using a feature only at or after the version
 * that introduced it", while expressions already stored keep evaluating after a rollback.
 *
 * An environment is built either for NEW expressions at a compatibility version (features
 * introduced later are rejected), or for STORED expressions (every feature this server knows).
 */

/** A `major.minor` version. */
export interface Version {
  readonly major: number;
  readonly minor: number;
}

/** The release this server implements. */
export const CURRENT_VERSION: Version = { major: 1, minor: 30 };

/**
 * The default compatibility version for new expressions: one release back, so that a rollback
 * by one release never meets a stored expression it cannot compile (upstream n-1 rule).
 */
export const DEFAULT_COMPATIBILITY_VERSION: Version = { major: 1, minor: 29 };

/**
 * Optional features and the version that introduced each. The spec lists the quantity library,
 * optional types and cross-type numeric comparisons as available from 1.29 and also states the
 * quantity library as added in 1.28; we take 1.28 for the library and 1.29 for the other two.
 * Version 2 of the extended string library (`format`, `strings.quote`) came with 1.29 upstream;
 * the IP and CIDR libraries (`networkLibraries`) with 1.30, so only stored expressions use them
 * while new ones compile at the default 1.29 (upstream's StoredExpressions/NewExpressions split).
 */
export const FEATURE_VERSIONS = {
  authorizerLibrary: { major: 1, minor: 27 },
  quantityLibrary: { major: 1, minor: 28 },
  stringsLibraryV2: { major: 1, minor: 29 },
  optionalTypes: { major: 1, minor: 29 },
  crossTypeNumericComparisons: { major: 1, minor: 29 },
  networkLibraries: { major: 1, minor: 30 },
} as const satisfies Record<string, Version>;

/** A gated feature name. */
export type Feature = keyof typeof FEATURE_VERSIONS;

/** The set of gated features an environment offers. */
export type FeatureSet = Readonly<Record<Feature, boolean>>;

/** Parses `"1.29"` (also `"v1.29"`). Throws Error on anything else. */
export function parseVersion(text: string): Version {
  const m = /^v?(\d+)\.(\d+)$/.exec(text.trim());
  if (!m) throw new Error(`invalid compatibility version "${text}": expected <major>.<minor>`);
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** `"1.29"`. */
export function formatVersion(v: Version): string {
  return `${v.major}.${v.minor}`;
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: Version, b: Version): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** The features available at `version`. */
export function featuresAt(version: Version): FeatureSet {
  const out = {} as Record<Feature, boolean>;
  for (const [name, introduced] of Object.entries(FEATURE_VERSIONS) as Array<[Feature, Version]>) {
    out[name] = compareVersions(version, introduced) >= 0;
  }
  return out;
}
