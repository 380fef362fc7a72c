/**
 * The rules upstream adds for Events written through `events.<vendor>/v1` (spec 001 § Event
 * resource; upstream v1.30 `pkg/apis/core/validation/events.go` ValidateEventCreate and
 * ValidateEventUpdate for a request version past core/v1 and events/v1beta1), on the core/v1
 * object the Event is stored as — so paths and values name core fields (`firstTimestamp`,
 * `source`), as upstream's do. They come on top of the core rules (core/v1 event-validation.ts)
 * and of names as DNS subdomains (the registry strategy, lib/registry/events):
 * - create: `eventTime` set; `type` Normal or Warning; a series of at least 2 with a last
 *   observed time; the old fields (`firstTimestamp`, `lastTimestamp`, `count`, `source`) unset;
 * - update: the series checked again when it changed; every other field but metadata immutable
 *   (`eventTime` to the microsecond).
 */
import { type FieldError, FieldPath, GoSyntax, invalid, required } from '../../../apimachinery/field-errors.js';
import { obj, str, type Obj } from '../../core/v1/obj-access.js';

const ZERO_TIME = '0001-01-01T00:00:00Z';

/** True for an unset metav1.Time / MicroTime (absent, null, or Go's zero time). */
function isZeroTime(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (typeof v === 'string' && Date.parse(v) === Date.parse(ZERO_TIME));
}

/** The instant of a time in microseconds since the epoch (`null` for unset). */
function micros(v: unknown): number | null {
  if (isZeroTime(v)) return null;
  const text = String(v);
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  return Date.parse(text.replace(/\.\d+/, '')) * 1000 + Number(fraction.slice(0, 6).padEnd(6, '0'));
}

/** Go's `time.Time.String()` of a time (UTC): `2024-05-01 12:00:00.5 +0000 UTC`. */
function goTime(v: unknown): GoSyntax {
  const text = isZeroTime(v) ? ZERO_TIME : String(v);
  const date = new Date(text.replace(/\.\d+/, ''));
  const fraction = (/\.(\d+)/.exec(text)?.[1] ?? '').replace(/0+$/, '');
  const iso = date.toISOString();
  return new GoSyntax(`${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''} +0000 UTC`);
}

const REF_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['Kind', 'kind'],
  ['Namespace', 'namespace'],
  ['Name', 'name'],
  ['UID', 'uid'],
  ['APIVersion', 'apiVersion'],
  ['ResourceVersion', 'resourceVersion'],
  ['FieldPath', 'fieldPath'],
];

/** Go's `%#v` of a core ObjectReference, as upstream prints an immutable reference. */
function goReference(ref: Obj | undefined): GoSyntax | null {
  if (!ref) return null;
  return new GoSyntax(`core.ObjectReference{${REF_FIELDS.map(([g, j]) => `${g}:${JSON.stringify(str(ref[j]))}`).join(', ')}}`);
}

function sameReference(a: Obj | undefined, b: Obj | undefined): boolean {
  if (!a || !b) return !a && !b;
  return REF_FIELDS.every(([, j]) => str(a[j]) === str(b[j]));
}

/** Upstream validateV1EventSeries: a series counts at least 2 and has a last observed time. */
function validateSeries(ev: Obj): FieldError[] {
  const series = obj(ev.series);
  if (!series) return [];
  const errs: FieldError[] = [];
  if (typeof series.count !== 'number' || series.count < 2) errs.push(invalid(FieldPath.of('series.count'), '', 'should be at least 2'));
  if (isZeroTime(series.lastObservedTime)) errs.push(required(FieldPath.of('series.lastObservedTime')));
  return errs;
}

/** The rules of a create through events/v1, on the stored (core/v1) object. */
export function validateEventV1Create(ev: Obj): FieldError[] {
  const errs = validateSeries(ev);
  if (isZeroTime(ev.eventTime)) errs.push(required(FieldPath.of('eventTime')));
  const type = str(ev.type);
  if (type !== 'Normal' && type !== 'Warning') errs.push(invalid(FieldPath.of('type'), '', `has invalid value: ${type}`));
  const unset = (path: string) => invalid(FieldPath.of(path), '', 'needs to be unset');
  if (!isZeroTime(ev.firstTimestamp)) errs.push(unset('firstTimestamp'));
  if (!isZeroTime(ev.lastTimestamp)) errs.push(unset('lastTimestamp'));
  if (typeof ev.count === 'number' && ev.count !== 0) errs.push(unset('count'));
  const source = obj(ev.source);
  if (str(source?.component) !== '' || str(source?.host) !== '') errs.push(unset('source'));
  return errs;
}

/** One immutable field: its path, how upstream prints the new value, and whether it changed. */
type Immutable = readonly [path: string, value: (ev: Obj) => unknown, same: (a: Obj, b: Obj) => boolean];

const plain = (name: string): Immutable => [name, (ev) => (typeof ev[name] === 'number' ? ev[name] : str(ev[name])), (a, b) => (a[name] ?? '') === (b[name] ?? '')];
const timeField = (name: string): Immutable => [name, (ev) => goTime(ev[name]), (a, b) => micros(a[name]) === micros(b[name])];
const countField: Immutable = ['count', (ev) => (typeof ev.count === 'number' ? ev.count : 0), (a, b) => (a.count ?? 0) === (b.count ?? 0)];

/** The fields upstream's ValidateEventUpdate keeps immutable, in its order (`reason` is listed twice there too). */
const IMMUTABLE: readonly Immutable[] = [
  ['involvedObject', (ev) => goReference(obj(ev.involvedObject) ?? {}), (a, b) => sameReference(obj(a.involvedObject) ?? {}, obj(b.involvedObject) ?? {})],
  plain('reason'),
  plain('message'),
  [
    'source',
    (ev) => new GoSyntax(`core.EventSource{Component:${JSON.stringify(str(obj(ev.source)?.component))}, Host:${JSON.stringify(str(obj(ev.source)?.host))}}`),
    (a, b) => str(obj(a.source)?.component) === str(obj(b.source)?.component) && str(obj(a.source)?.host) === str(obj(b.source)?.host),
  ],
  timeField('firstTimestamp'),
  timeField('lastTimestamp'),
  countField,
  plain('reason'),
  plain('type'),
  timeField('eventTime'),
  plain('action'),
  ['related', (ev) => goReference(obj(ev.related)), (a, b) => sameReference(obj(a.related), obj(b.related))],
  ['reportingController', (ev) => str(ev.reportingComponent), (a, b) => str(a.reportingComponent) === str(b.reportingComponent)],
  plain('reportingInstance'),
];

function sameSeries(a: Obj, b: Obj): boolean {
  const x = obj(a.series);
  const y = obj(b.series);
  if (!x || !y) return !x && !y;
  return x.count === y.count && micros(x.lastObservedTime) === micros(y.lastObservedTime);
}

/** The rules of an update through events/v1, on the stored (core/v1) objects. */
export function validateEventV1Update(ev: Obj, old: Obj): FieldError[] {
  const errs = sameSeries(ev, old) ? [] : validateSeries(ev);
  for (const [path, value, same] of IMMUTABLE) if (!same(ev, old)) errs.push(invalid(FieldPath.of(path), value(ev), 'field is immutable'));
  return errs;
}
