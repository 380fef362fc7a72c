/**
 * `metadata.managedFields` (spec 000 § Managed-field entry, § Field ownership reset rule, § Update
 * rules): decoding entries into per-manager field sets keyed as upstream (manager, operation,
 * apiVersion for updaters only, subresource), encoding them back in upstream order, the
 * single-empty-entry reset request, and the ObjectMeta validation of client-supplied entries.
 */
import { type FieldError, invalid, tooLong } from '../field-errors.js';
import { fromFieldsV1, toFieldsV1, type FieldsV1 } from './fieldsv1.js';
import { goJSON } from '../serializers/go-json.js';
import type { Json } from './path.js';
import type { FieldSet } from './set.js';

/** One element of `metadata.managedFields` as it appears on the wire. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  /** RFC 3339, second precision. */
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: FieldsV1;
  subresource?: string;
}

/** A decoded entry: who owns which fields. `set` is never empty in a stored entry. */
export interface ManagerSet {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource: string;
  time?: string;
  set: FieldSet;
}

/** Decoded entries by manager identifier (see managerIdentifier). */
export type Managed = Map<string, ManagerSet>;

/**
 * Upstream BuildManagerIdentifier: the JSON of the entry without fieldsType, fieldsV1 and time,
 * and without apiVersion for appliers (an applier's entry follows it across versions), e.g.
 * `{"manager":"kubectl","operation":"Update","apiVersion":"apps/v1"}`.
 */
export function managerIdentifier(m: { manager: string; operation: string; apiVersion: string; subresource: string }): string {
  const parts: string[] = [];
  if (m.manager) parts.push(`"manager":${goJSON(m.manager)}`);
  if (m.operation) parts.push(`"operation":${goJSON(m.operation)}`);
  if (m.operation !== 'Apply' && m.apiVersion) parts.push(`"apiVersion":${goJSON(m.apiVersion)}`);
  if (m.subresource) parts.push(`"subresource":${goJSON(m.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** A managedFields list that cannot be decoded; the message is upstream's. */
export class ManagedFieldsError extends Error {}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Decodes `metadata.managedFields` (absent or null: no entries). Throws ManagedFieldsError with
 * upstream's message: "operation must be `Apply` or `Update`", "apiVersion must not be empty",
 * "missing fieldsType in managed fields entry N", "invalid fieldsType \"X\" in managed fields
 * entry N", or a fieldsV1 decoding error. A later entry with the same identifier wins.
 */
export function decodeManagedFields(entries: unknown): Managed {
  const managed: Managed = new Map();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((raw: unknown, i) => {
    const e = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    const apiVersion = str(e.apiVersion);
    if (!apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    const fieldsType = str(e.fieldsType);
    if (fieldsType === '') throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${goJSON(fieldsType)} in managed fields entry ${i}`);
    let set: FieldSet;
    try {
      set = fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set from ${goJSON(raw as Json)}: error decoding set: ${(err as Error).message}`);
    }
    const m: ManagerSet = { manager: str(e.manager), operation, apiVersion, subresource: str(e.subresource), set };
    if (typeof e.time === 'string' && e.time) m.time = e.time;
    managed.set(managerIdentifier(m), m);
  });
  return managed;
}

/** Unix seconds of an entry's time (0 when absent), as upstream sorts. */
export function timeSeconds(time: string | undefined): number {
  const ms = time ? Date.parse(time) : NaN;
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Upstream entry order: Apply before Update, then by time (oldest first), manager, apiVersion, subresource. */
export function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const key = (e: ManagedFieldsEntry): Array<string | number> => [e.operation ?? '', timeSeconds(e.time), e.manager ?? '', e.apiVersion ?? '', e.subresource ?? ''];
  const a = key(p);
  const b = key(q);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** Encodes decoded entries, sorted as upstream; undefined when there are none (the field is dropped). */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const m of managed.values()) {
    const e: ManagedFieldsEntry = {};
    if (m.manager) e.manager = m.manager;
    e.operation = m.operation;
    e.apiVersion = m.apiVersion;
    if (m.time) e.time = m.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(m.set);
    if (m.subresource) e.subresource = m.subresource;
    out.push(e);
  }
  return out.sort(compareEntries);
}

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/**
 * The reset request of spec 000 § Field ownership: a list holding one entry with every field
 * empty (`[{}]`). An empty list `[]` is not a reset (the spec's rule; see the report of #5).
 */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries) || entries.length !== 1) return false;
  const e: unknown = entries[0];
  return typeof e === 'object' && e !== null && !Array.isArray(e) && Object.values(e).every(isZero);
}

/** Longest manager name, in bytes (upstream FieldManagerMaxLength). */
export const FIELD_MANAGER_MAX_LENGTH = 128;
/** Longest subresource name of an entry (upstream MaxSubresourceNameLength). */
export const MAX_SUBRESOURCE_NAME_LENGTH = 256;
/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * ObjectMeta validation of `metadata.managedFields` (upstream ValidateManagedFields; 422 through
 * newInvalid): each entry's operation is Apply or Update, fieldsType empty or FieldsV1, manager
 * at most 128 bytes of printable characters, subresource at most 256 characters.
 */
export function validateManagedFields(entries: unknown, path = 'metadata.managedFields'): FieldError[] {
  if (!Array.isArray(entries)) return [];
  const errs: FieldError[] = [];
  entries.forEach((raw: unknown, i) => {
    const e = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const at = `${path}[${i}]`;
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') errs.push(invalid(`${at}.operation`, operation, 'must be `Apply` or `Update`'));
    const fieldsType = str(e.fieldsType);
    if (fieldsType && fieldsType !== 'FieldsV1') errs.push(invalid(`${at}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    const manager = str(e.manager);
    if (new TextEncoder().encode(manager).length > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(`${at}.manager`, manager, FIELD_MANAGER_MAX_LENGTH));
    let offset = 0;
    for (const ch of manager) {
      if (!PRINTABLE.test(ch)) {
        const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
        errs.push(invalid(`${at}.manager`, manager, `invalid character U+${code} (at position ${offset})`));
      }
      offset += new TextEncoder().encode(ch).length;
    }
    const subresource = str(e.subresource);
    if (subresource.length > MAX_SUBRESOURCE_NAME_LENGTH) errs.push(tooLong(`${at}.subresource`, subresource, MAX_SUBRESOURCE_NAME_LENGTH));
  });
  return errs;
}

/**
 * The warning upstream adds when mutating admission leaves managedFields undecodable (the
 * previous entries are then restored): `.metadata.managedFields was in an invalid state ...`.
 */
export function invalidManagedFieldsAfterAdmissionWarning(err: Error): string {
  return `.metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: ${err.message}`;
}
