/**
 * Pod Security Standards: levels, policy versions and the namespace labels that select them
 * (spec 001 § Admission control, PodSecurity; upstream v1.30 pod-security-admission `api`).
 * A namespace's policy has three modes — enforce, audit, warn — each a level and a version, read
 * from the labels `pod-security.<vendor>/<mode>` and `…/<mode>-version`.
 */
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { POD_SECURITY_PREFIX } from '../../../apis/vendor.js';

/** The three levels, from least to most strict. */
export type Level = 'privileged' | 'baseline' | 'restricted';
const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: `latest`, or the minor number of `v1.<minor>`. */
export type Version = 'latest' | number;

/** One mode's level and version. */
export interface LevelVersion {
  level: Level;
  version: Version;
}

/** A namespace's policy. */
export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

/** The namespace labels (upstream `EnforceLevelLabel`…), in the vendor's spelling. */
export const ENFORCE_LEVEL_LABEL = `${POD_SECURITY_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${POD_SECURITY_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${POD_SECURITY_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${POD_SECURITY_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${POD_SECURITY_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${POD_SECURITY_PREFIX}warn-version`;

/** `v1.30` or `latest`. */
export function versionString(v: Version): string {
  return v === 'latest' ? 'latest' : `v1.${v}`;
}

/** `restricted:latest` (upstream `LevelVersion.String`). */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

/** True when `a` and `b` name the same level and version. */
export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version === b.version;
}

/**
 * Parses a level. @returns the level, or `restricted` with the upstream error text
 * (`must be one of privileged, baseline, restricted`).
 */
export function parseLevel(s: string): { level: Level; error?: string } {
  if ((LEVELS as readonly string[]).includes(s)) return { level: s as Level };
  return { level: 'restricted', error: `must be one of ${LEVELS.join(', ')}` };
}

const VERSION_RE = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** Parses `latest` or `v1.<minor>`; otherwise `latest` with the error `must be "latest" or "v1.x"`. */
export function parseVersion(s: string): { version: Version; error?: string } {
  if (s === 'latest') return { version: 'latest' };
  const m = VERSION_RE.exec(s);
  const minor = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(minor)) return { version: 'latest', error: 'must be "latest" or "v1.x"' };
  return { version: minor };
}

/** -1, 0 or 1 as `a` is less strict than, as strict as, or stricter than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}

/** True when every mode is privileged (nothing to evaluate). */
export function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';
}

/** Upstream `Policy.Equivalent`: same levels, and same versions where the level is not privileged. */
export function equivalentPolicies(a: Policy, b: Policy): boolean {
  const same = (x: LevelVersion, y: LevelVersion) => x.level === y.level && (x.level === 'privileged' || x.version === y.version);
  return same(a.enforce, b.enforce) && same(a.audit, b.audit) && same(a.warn, b.warn);
}

const LABELS_PATH = FieldPath.of('metadata', 'labels');

/**
 * The policy a namespace's labels select, falling back to `defaults` for absent labels (upstream
 * `PolicyToEvaluate`). A usable policy is always returned: an invalid enforce level reads as
 * restricted, an invalid audit or warn level as privileged (fail open), an invalid version as
 * latest; each invalid label also yields an Invalid field error at `metadata.labels[<label>]`.
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const p: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  if (!labels) return { policy: p, errors };
  const level = (label: string, mode: LevelVersion, failOpen: boolean) => {
    const v = labels[label];
    if (v === undefined) return;
    const r = parseLevel(v);
    mode.level = r.error && failOpen ? 'privileged' : r.level;
    if (r.error) errors.push(invalid(LABELS_PATH.key(label), v, r.error));
  };
  const version = (label: string, mode: LevelVersion) => {
    const v = labels[label];
    if (v === undefined) return;
    const r = parseVersion(v);
    mode.version = r.version;
    if (r.error) errors.push(invalid(LABELS_PATH.key(label), v, r.error));
  };
  level(ENFORCE_LEVEL_LABEL, p.enforce, false);
  version(ENFORCE_VERSION_LABEL, p.enforce);
  level(AUDIT_LEVEL_LABEL, p.audit, true);
  version(AUDIT_VERSION_LABEL, p.audit);
  level(WARN_LEVEL_LABEL, p.warn, true);
  version(WARN_VERSION_LABEL, p.warn);
  return { policy: p, errors };
}
