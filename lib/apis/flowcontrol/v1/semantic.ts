/**
 * Equality of FlowSchema and PriorityLevelConfiguration specs as upstream compares their Go
 * values (`equality.Semantic.DeepEqual`): an absent non-pointer field equals its zero value (`""`,
 * 0, false, an empty struct), a nil slice equals an empty one, but an absent pointer field differs
 * from a set one (`borrowingLimitPercent` absent is "no limit", 0 is "no borrowing").
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';

/** The pointer (`*T`) fields of the flowcontrol/v1 specs, by JSON name (unique across both kinds). */
const POINTER_FIELDS: ReadonlySet<string> = new Set([
  'distinguisherMethod',
  'user',
  'group',
  'serviceAccount',
  'limited',
  'exempt',
  'queuing',
  'nominalConcurrencyShares',
  'lendablePercent',
  'borrowingLimitPercent',
]);

/** True for Go's zero value of a non-pointer field: `""`, 0, false, an empty list or struct. */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/** `v` with every zero non-pointer field (and every null pointer) left out, at every level. */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const n = normalize(x);
    if (POINTER_FIELDS.has(k) ? n === undefined || n === null : isZero(n)) continue;
    out[k] = n;
  }
  return out;
}

/** Whether two specs (JSON values, both defaulted) are semantically equal. */
export function specsEqual(a: unknown, b: unknown): boolean {
  return deepEqual(normalize(a ?? {}), normalize(b ?? {}));
}
