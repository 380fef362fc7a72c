/**
 * flowcontrol v1beta3 ↔ v1, losslessly, as upstream v1.30 converts v1beta3 through the internal
 * version (`pkg/apis/flowcontrol/v1beta3/conversion.go`). FlowSchema: the same fields. A
 * PriorityLevelConfiguration whose limited `nominalConcurrencyShares` is 0 (or unset) reads in
 * v1beta3 with the round-trip annotation APF_PRESERVE_ZERO_SHARES_ANNOTATION (value `""`, added
 * unless present), so that v1beta3's defaulter keeps the 0 when the object is written back; on
 * the way to v1 the annotation is dropped (an annotations map left empty goes too).
 */
import type { Obj } from '../../define.js';
import { APF_PRESERVE_ZERO_SHARES_ANNOTATION, APF_PRESERVE_ZERO_SHARES_ANNOTATIONS } from '../../vendor.js';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v1 FlowSchema as v1beta3 serves it, or a v1beta3 one as v1 stores it (a copy; type meta added by the caller). */
export function flowSchemaConvert(obj: Obj): Obj {
  return structuredClone(obj);
}

/** A v1 PriorityLevelConfiguration as v1beta3 serves it (a copy; type meta added by the caller). */
export function priorityLevelToV1beta3(obj: Obj): Obj {
  const out = structuredClone(obj);
  const spec = isObj(out.spec) ? out.spec : undefined;
  const limited = spec && isObj(spec.limited) ? spec.limited : undefined;
  if (!limited) return out;
  if ((limited.nominalConcurrencyShares ?? 0) !== 0) return out;
  limited.nominalConcurrencyShares = 0;
  const metadata = isObj(out.metadata) ? out.metadata : (out.metadata = {});
  const annotations = isObj(metadata.annotations) ? metadata.annotations : (metadata.annotations = {});
  if (!Object.hasOwn(annotations, APF_PRESERVE_ZERO_SHARES_ANNOTATION)) annotations[APF_PRESERVE_ZERO_SHARES_ANNOTATION] = '';
  return out;
}

/** A v1beta3 PriorityLevelConfiguration (decoded and defaulted) as v1 stores it (a copy). */
export function priorityLevelFromV1beta3(obj: Obj): Obj {
  const out = structuredClone(obj);
  const metadata = isObj(out.metadata) ? out.metadata : undefined;
  const annotations = metadata && isObj(metadata.annotations) ? metadata.annotations : undefined;
  if (metadata && annotations && APF_PRESERVE_ZERO_SHARES_ANNOTATIONS.some((k) => Object.hasOwn(annotations, k))) {
    for (const k of APF_PRESERVE_ZERO_SHARES_ANNOTATIONS) delete annotations[k];
    if (Object.keys(annotations).length === 0) delete metadata.annotations;
  }
  return out;
}
