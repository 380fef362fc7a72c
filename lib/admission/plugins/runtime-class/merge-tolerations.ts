/**
 * Merging two toleration lists the way upstream's `tolerations.MergeTolerations` does (used by the
 * RuntimeClass admission plugin; spec 001 § Admission control): the concatenation, without every
 * toleration another one of the list already covers. Of equal tolerations the first is kept.
 */
import { type Obj, num, str } from '../../../apis/core/v1/obj-access.js';

/** Field-wise equality of two tolerations (upstream semantic DeepEqual of the struct). */
export function tolerationsEqual(a: Obj, b: Obj): boolean {
  return (
    str(a.key) === str(b.key) &&
    str(a.operator) === str(b.operator) &&
    str(a.value) === str(b.value) &&
    str(a.effect) === str(b.effect) &&
    num(a.tolerationSeconds) === num(b.tolerationSeconds)
  );
}

/**
 * Whether `ss` tolerates every taint `t` tolerates (upstream `isSuperset`): same key, or `ss` is
 * the empty-key Exists wildcard; same effect, or `ss` has none; for a NoExecute `ss` with
 * tolerationSeconds, `t` has tolerationSeconds no greater; then `ss` Exists covers all values and
 * `ss` Equal (or no operator) covers an Equal `t` of the same value.
 */
export function isSuperset(ss: Obj, t: Obj): boolean {
  if (tolerationsEqual(ss, t)) return true;
  if (str(t.key) !== str(ss.key) && (str(ss.key) !== '' || str(ss.operator) !== 'Exists')) return false;
  if (str(t.effect) !== str(ss.effect) && str(ss.effect) !== '') return false;
  if (str(ss.effect) === 'NoExecute') {
    const ssSeconds = num(ss.tolerationSeconds);
    const tSeconds = num(t.tolerationSeconds);
    if (ssSeconds !== undefined && (tSeconds === undefined || tSeconds > ssSeconds)) return false;
  }
  switch (str(ss.operator)) {
    case 'Equal':
    case '':
      return str(t.operator) === 'Equal' && str(t.value) === str(ss.value);
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/**
 * `first` then `second`, each toleration dropped when one already kept covers it or a later,
 * different one covers it (upstream `MergeTolerations`). New array of the same objects.
 */
export function mergeTolerations(first: readonly Obj[], second: readonly Obj[]): Obj[] {
  const all = [...first, ...second];
  const merged: Obj[] = [];
  all.forEach((t, i) => {
    if (merged.some((kept) => isSuperset(kept, t))) return;
    if (all.slice(i + 1).some((later) => !tolerationsEqual(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}
