/**
 * The shapes of the migration map (spec 001 § Removed API versions): one row per kind of a
 * removed version, saying where its objects go and how they are rewritten on the way.
 */
import type { Obj } from '../define.js';

/** A group, version and kind; `group` is `''` for the core group and always the vendor spelling. */
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** One row of the migration map. */
export interface MigrationRow {
  /** The kind in the removed version. */
  from: GVK;
  /** The kind in the replacement version; absent when the spec names no replacement API. */
  to?: GVK;
  /** The release that stopped serving `from` (`1.22`). */
  removedIn: string;
  /** Without `to`: what to use instead, as the spec words it. */
  instead?: string;
  /**
   * Rewrites an object of `from` into the shape of `to`. It receives a copy it owns (it may modify
   * it and return it) and need not set `apiVersion` or `kind`, which the caller sets to `to`'s.
   * Throws MigrationError when the object cannot be expressed in `to` (named in each row's file).
   */
  convert(obj: Obj): Obj;
}

/** An object that has no faithful counterpart in the replacement version (the message says why). */
export class MigrationError extends Error {}

/** `group/version/Kind` (the core group is `''`): the key of a kind in tables. */
export function gvkKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

/** `apiVersion` of a group and version: `v1`, `apps/v1`. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** True for a JSON object (not null, not an array). */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The objects of a list value (other elements and non-lists are skipped). */
export function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** The object at `obj[key]`, created empty when absent or not an object. */
export function child(obj: Obj, key: string): Obj {
  const v = obj[key];
  if (isObj(v)) return v;
  const out: Obj = {};
  obj[key] = out;
  return out;
}

/** Sets `obj[key]` to `value` when it is unset (undefined or null), as a source version's defaulting does. */
export function setDefault(obj: Obj, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** Moves `obj[from]` to `obj[to]` (when set), removing `from`. */
export function rename(obj: Obj, from: string, to: string): void {
  if (from in obj) {
    if (obj[from] !== undefined) obj[to] = obj[from];
    delete obj[from];
  }
}

/** A row whose objects only change `apiVersion` (the spec's "none"). */
export function sameShape(group: string, version: string, kind: string, to: { group: string; version: string }, removedIn: string): MigrationRow {
  return { from: { group, version, kind }, to: { ...to, kind }, removedIn, convert: (obj) => obj };
}
