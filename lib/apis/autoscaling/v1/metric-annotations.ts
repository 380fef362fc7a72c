/**
 * The JSON that autoscaling/v1 keeps in its round-trip annotations (lib/apis/vendor.ts
 * HPA_*_ANNOTATION), as upstream v1.30 writes and reads it (`pkg/apis/autoscaling/v1/conversion.go`):
 * the v2 metric specs and statuses in their autoscaling/v1 (v2beta1-like) shapes, the conditions,
 * and the behavior in upstream's internal type — Go field names, no JSON tags, `null` for unset
 * pointers. Written with Go's encoder conventions (struct field order, `omitempty`, `<>&` escaped);
 * read as Go's decoder reads (keys matched case-insensitively), and a value that does not decode
 * throws AnnotationDecodeError so that the caller ignores the annotation, as upstream does.
 */
import { Quantity } from '../../../apimachinery/quantity.js';
import type { Obj } from '../../define.js';

/** An annotation value that does not decode as the type it holds. */
export class AnnotationDecodeError extends Error {}

/** `JSON.stringify` with Go's `json.Marshal` escapes (`<`, `>`, `&`, U+2028, U+2029). */
export function goJSON(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A property as Go's decoder finds it: the exact key, else any key equal ignoring case. */
function get(o: Obj, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  const key = Object.keys(o).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : o[key];
}

function objAt(o: Obj, name: string): Obj | undefined {
  const v = get(o, name);
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) throw new AnnotationDecodeError(`${name}: not an object`);
  return v;
}

function strAt(o: Obj, name: string): string {
  const v = get(o, name);
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new AnnotationDecodeError(`${name}: not a string`);
  return v;
}

function intAt(o: Obj, name: string): number | undefined {
  const v = get(o, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new AnnotationDecodeError(`${name}: not an integer`);
  return v;
}

/** A Quantity field: its canonical text, `undefined` when absent, a decode error when it does not parse. */
function quantityAt(o: Obj, name: string): string | undefined {
  const v = get(o, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') throw new AnnotationDecodeError(`${name}: not a quantity`);
  try {
    return Quantity.parse(String(v)).toString();
  } catch {
    throw new AnnotationDecodeError(`${name}: not a quantity`);
  }
}

/** A list of objects; absent or null is an empty list. */
export function objectsAt(o: Obj, name: string): Obj[] {
  const v = get(o, name);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every(isObj)) throw new AnnotationDecodeError(`${name}: not a list of objects`);
  return v;
}

/** A decoded annotation value: a JSON list of objects. */
export function parseObjectList(text: string): Obj[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new AnnotationDecodeError('not JSON');
  }
  if (v === null) return [];
  if (!Array.isArray(v) || !v.every(isObj)) throw new AnnotationDecodeError('not a list of objects');
  return v;
}

/** A label selector read from an annotation, in the stored spelling. */
function selectorAt(o: Obj, name: string): Obj | undefined {
  const s = objAt(o, name);
  if (!s) return undefined;
  const out: Obj = {};
  const labels = objAt(s, 'matchLabels');
  if (labels) out.matchLabels = labels;
  const exprs = objectsAt(s, 'matchExpressions');
  if (exprs.length > 0) out.matchExpressions = exprs.map((e) => ({ key: strAt(e, 'key'), operator: strAt(e, 'operator'), values: get(e, 'values') ?? undefined }));
  return out;
}

const refOf = (r: Obj | undefined): Obj => ({ kind: r?.kind ?? '', name: r?.name ?? '', apiVersion: r?.apiVersion || undefined });
const refFrom = (r: Obj | undefined): Obj => (r ? { kind: strAt(r, 'kind'), name: strAt(r, 'name'), apiVersion: strAt(r, 'apiVersion') || undefined } : { kind: '', name: '' });
const sub = (o: Obj, name: string): Obj => (isObj(o[name]) ? (o[name] as Obj) : {});
const orZero = (q: unknown): unknown => q ?? '0';

/** A v2 MetricSpec in its autoscaling/v1 annotation shape (upstream Convert_autoscaling_MetricSpec_To_v1_MetricSpec). */
export function metricSpecToV1(m: Obj): Obj {
  const out: Obj = { type: m.type ?? '' };
  if (isObj(m.object)) {
    const s = m.object;
    const t = sub(s, 'target');
    const id = sub(s, 'metric');
    out.object = { target: refOf(sub(s, 'describedObject')), metricName: id.name ?? '', targetValue: orZero(t.value), selector: id.selector, averageValue: t.averageValue };
  }
  if (isObj(m.pods)) {
    const id = sub(m.pods, 'metric');
    out.pods = { metricName: id.name ?? '', targetAverageValue: orZero(sub(m.pods, 'target').averageValue), selector: id.selector };
  }
  if (isObj(m.resource)) {
    const t = sub(m.resource, 'target');
    out.resource = { name: m.resource.name ?? '', targetAverageUtilization: t.averageUtilization, targetAverageValue: t.averageValue };
  }
  if (isObj(m.containerResource)) {
    const s = m.containerResource;
    const t = sub(s, 'target');
    out.containerResource = { name: s.name ?? '', targetAverageUtilization: t.averageUtilization, targetAverageValue: t.averageValue, container: s.container ?? '' };
  }
  if (isObj(m.external)) {
    const t = sub(m.external, 'target');
    const id = sub(m.external, 'metric');
    out.external = { metricName: id.name ?? '', metricSelector: id.selector, targetValue: t.value, targetAverageValue: t.averageValue };
  }
  return out;
}

/** A v2 MetricStatus in its autoscaling/v1 annotation shape (upstream Convert_autoscaling_MetricStatus_To_v1_MetricStatus). */
export function metricStatusToV1(m: Obj): Obj {
  const out: Obj = { type: m.type ?? '' };
  if (isObj(m.object)) {
    const c = sub(m.object, 'current');
    const id = sub(m.object, 'metric');
    out.object = { target: refOf(sub(m.object, 'describedObject')), metricName: id.name ?? '', currentValue: orZero(c.value), selector: id.selector, averageValue: c.averageValue };
  }
  if (isObj(m.pods)) {
    const id = sub(m.pods, 'metric');
    out.pods = { metricName: id.name ?? '', currentAverageValue: orZero(sub(m.pods, 'current').averageValue), selector: id.selector };
  }
  if (isObj(m.resource)) {
    const c = sub(m.resource, 'current');
    out.resource = { name: m.resource.name ?? '', currentAverageUtilization: c.averageUtilization, currentAverageValue: orZero(c.averageValue) };
  }
  if (isObj(m.containerResource)) {
    const s = m.containerResource;
    const c = sub(s, 'current');
    out.containerResource = { name: s.name ?? '', currentAverageUtilization: c.averageUtilization, currentAverageValue: orZero(c.averageValue), container: s.container ?? '' };
  }
  if (isObj(m.external)) {
    const c = sub(m.external, 'current');
    const id = sub(m.external, 'metric');
    out.external = { metricName: id.name ?? '', metricSelector: id.selector, currentValue: orZero(c.value), currentAverageValue: c.averageValue };
  }
  return out;
}

/** An identifier of a metric from its v1 name and selector. */
function identifier(name: string, selector: Obj | undefined): Obj {
  return { name, selector };
}

/** A v1 annotation MetricSpec as a v2 MetricSpec (upstream Convert_v1_MetricSpec_To_autoscaling_MetricSpec). */
export function metricSpecFromV1(m: Obj): Obj {
  const out: Obj = { type: strAt(m, 'type') };
  const object = objAt(m, 'object');
  if (object) {
    const average = quantityAt(object, 'averageValue');
    out.object = {
      describedObject: refFrom(objAt(object, 'target')),
      target: { type: average === undefined ? 'Value' : 'AverageValue', value: quantityAt(object, 'targetValue') ?? '0', averageValue: average },
      metric: identifier(strAt(object, 'metricName'), selectorAt(object, 'selector')),
    };
  }
  const pods = objAt(m, 'pods');
  if (pods) {
    out.pods = { metric: identifier(strAt(pods, 'metricName'), selectorAt(pods, 'selector')), target: { type: 'AverageValue', averageValue: quantityAt(pods, 'targetAverageValue') ?? '0' } };
  }
  const resource = objAt(m, 'resource');
  if (resource) out.resource = { name: strAt(resource, 'name'), target: resourceTarget(resource) };
  const container = objAt(m, 'containerResource');
  if (container) out.containerResource = { name: strAt(container, 'name'), target: resourceTarget(container), container: strAt(container, 'container') };
  const external = objAt(m, 'external');
  if (external) {
    const value = quantityAt(external, 'targetValue');
    out.external = {
      metric: identifier(strAt(external, 'metricName'), selectorAt(external, 'metricSelector')),
      target: { type: value === undefined ? 'AverageValue' : 'Value', value, averageValue: quantityAt(external, 'targetAverageValue') },
    };
  }
  return out;
}

/** The v2 target of a v1 resource source: Utilization when a utilization is set, else AverageValue. */
function resourceTarget(src: Obj): Obj {
  const utilization = intAt(src, 'targetAverageUtilization');
  return { type: utilization === undefined ? 'AverageValue' : 'Utilization', averageValue: quantityAt(src, 'targetAverageValue'), averageUtilization: utilization };
}

/** A v1 annotation MetricStatus as a v2 MetricStatus (upstream Convert_v1_MetricStatus_To_autoscaling_MetricStatus). */
export function metricStatusFromV1(m: Obj): Obj {
  const out: Obj = { type: strAt(m, 'type') };
  const object = objAt(m, 'object');
  if (object) {
    out.object = {
      metric: identifier(strAt(object, 'metricName'), selectorAt(object, 'selector')),
      current: { value: quantityAt(object, 'currentValue') ?? '0', averageValue: quantityAt(object, 'averageValue') },
      describedObject: refFrom(objAt(object, 'target')),
    };
  }
  const pods = objAt(m, 'pods');
  if (pods) out.pods = { metric: identifier(strAt(pods, 'metricName'), selectorAt(pods, 'selector')), current: { averageValue: quantityAt(pods, 'currentAverageValue') ?? '0' } };
  const resource = objAt(m, 'resource');
  if (resource) out.resource = { name: strAt(resource, 'name'), current: resourceCurrent(resource) };
  const container = objAt(m, 'containerResource');
  if (container) out.containerResource = { name: strAt(container, 'name'), current: resourceCurrent(container), container: strAt(container, 'container') };
  const external = objAt(m, 'external');
  if (external) {
    out.external = {
      metric: identifier(strAt(external, 'metricName'), selectorAt(external, 'metricSelector')),
      current: { value: quantityAt(external, 'currentValue') ?? '0', averageValue: quantityAt(external, 'currentAverageValue') },
    };
  }
  return out;
}

function resourceCurrent(src: Obj): Obj {
  return { averageValue: quantityAt(src, 'currentAverageValue') ?? '0', averageUtilization: intAt(src, 'currentAverageUtilization') };
}

/** A v2 condition in its v1 annotation shape: `lastTransitionTime` always written (`null` when unset). */
export function conditionToV1(c: Obj): Obj {
  return { type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null, reason: c.reason || undefined, message: c.message || undefined };
}

/** A v1 annotation condition as a v2 condition. */
export function conditionFromV1(c: Obj): Obj {
  const time = get(c, 'lastTransitionTime');
  if (time !== undefined && time !== null && typeof time !== 'string') throw new AnnotationDecodeError('lastTransitionTime: not a time');
  return { type: strAt(c, 'type'), status: strAt(c, 'status'), lastTransitionTime: time ?? undefined, reason: strAt(c, 'reason') || undefined, message: strAt(c, 'message') || undefined };
}

/** A v2 scaling-rules object in upstream's internal JSON (Go field names, `null` when unset). */
function rulesToInternal(r: unknown): Obj | null {
  if (!isObj(r)) return null;
  const policies = Array.isArray(r.policies) ? (r.policies as Obj[]).map((p) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })) : null;
  return { StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null, SelectPolicy: r.selectPolicy ?? null, Policies: policies };
}

/** A v2 behavior as upstream writes it in the behavior annotation: its internal type marshalled. */
export function behaviorToInternal(b: Obj): Obj {
  return { ScaleUp: rulesToInternal(b.scaleUp), ScaleDown: rulesToInternal(b.scaleDown) };
}

function rulesFromInternal(r: Obj | undefined): Obj | undefined {
  if (!r) return undefined;
  const select = get(r, 'SelectPolicy');
  if (select !== undefined && select !== null && typeof select !== 'string') throw new AnnotationDecodeError('SelectPolicy: not a string');
  const policies = get(r, 'Policies');
  return {
    stabilizationWindowSeconds: intAt(r, 'StabilizationWindowSeconds'),
    selectPolicy: select ?? undefined,
    policies: policies === undefined || policies === null ? undefined : objectsAt(r, 'Policies').map((p) => ({ type: strAt(p, 'Type'), value: intAt(p, 'Value') ?? 0, periodSeconds: intAt(p, 'PeriodSeconds') ?? 0 })),
  };
}

/** The behavior of a behavior annotation, or undefined when it sets neither direction (upstream ignores an empty one). */
export function behaviorFromInternal(text: string): Obj | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new AnnotationDecodeError('not JSON');
  }
  if (v === null) return undefined;
  if (!isObj(v)) throw new AnnotationDecodeError('not an object');
  const scaleUp = rulesFromInternal(objAt(v, 'ScaleUp'));
  const scaleDown = rulesFromInternal(objAt(v, 'ScaleDown'));
  return scaleUp === undefined && scaleDown === undefined ? undefined : { scaleUp, scaleDown };
}
