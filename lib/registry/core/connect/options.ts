/**
 * The options objects of the connect subresources, decoded from the query as upstream's
 * parameter codec does (spec 000 § Verb mapping): PodLogOptions (`container`, `follow`,
 * `previous`, `sinceSeconds`, `sinceTime`, `timestamps`, `tailLines`, `limitBytes`,
 * `insecureSkipTLSVerifyBackend`), PodExecOptions (`stdin`, `stdout`, `stderr`, `tty`,
 * `container`, repeated `command`), PodAttachOptions (the same without `command`),
 * PodPortForwardOptions (repeated `ports`) and the proxies' `path`. A boolean is false for `0` or
 * `false` (any case) and true for any other value, as upstream's conversion; a malformed number
 * or time is 400. PodLogOptions are validated as upstream (`ValidatePodLogOptions`: 422).
 */
import { newBadRequest, newInvalid } from '../../../apimachinery/errors.js';
import { type FieldError, forbidden, invalid } from '../../../apimachinery/field-errors.js';
import type { Obj } from '../../../apis/define.js';
import { parseGoRFC3339 } from '../../../apimachinery/go-time.js';
import { formatTime } from '../../../apimachinery/schema/decode.js';
import { queryBool } from '../../../request/request-info.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The first value of an integer parameter as Go's strconv.ParseInt reads it (base 10, `bits` wide).
 * @throws StatusError 400 `strconv.ParseInt: parsing "<v>": invalid syntax | value out of range`.
 */
function intParam(query: URLSearchParams, name: string, bits: 32 | 64 = 64): number | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = BigInt(v);
  const [min, max] = bits === 64 ? [INT64_MIN, INT64_MAX] : [-(2n ** 31n), 2n ** 31n - 1n];
  if (n < min || n > max) throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return Number(n);
}

/** Sets `obj[name]` to the parameter as a boolean when it is given (absent: left out, Go's omitempty of false). */
function boolParam(obj: Obj, query: URLSearchParams, name: string): void {
  if (queryBool(query.get(name))) obj[name] = true;
}

/**
 * PodLogOptions from the query, validated.
 * @throws StatusError 400 (malformed number or time), 422 `PodLogOptions "<pod>" is invalid: …`.
 */
export function podLogOptions(query: URLSearchParams, podName: string): Obj {
  const o: Obj = { kind: 'PodLogOptions', apiVersion: 'v1' };
  const container = query.get('container');
  if (container) o.container = container;
  for (const b of ['follow', 'previous', 'timestamps', 'insecureSkipTLSVerifyBackend']) boolParam(o, query, b);
  const sinceSeconds = intParam(query, 'sinceSeconds');
  if (sinceSeconds !== undefined) o.sinceSeconds = sinceSeconds;
  const sinceTime = query.get('sinceTime');
  if (sinceTime !== null && sinceTime !== '') {
    // metav1.Time's UnmarshalQueryParameter: Go's time.Parse(time.RFC3339, …) and its error.
    const t = parseGoRFC3339(sinceTime);
    if ('error' in t) throw newBadRequest(t.error);
    o.sinceTime = formatTime(new Date(t.secondMs));
  }
  const tailLines = intParam(query, 'tailLines');
  if (tailLines !== undefined) o.tailLines = tailLines;
  const limitBytes = intParam(query, 'limitBytes');
  if (limitBytes !== undefined) o.limitBytes = limitBytes;
  const errs: FieldError[] = [];
  if (tailLines !== undefined && tailLines < 0) errs.push(invalid('tailLines', tailLines, 'must be greater than or equal to 0'));
  if (limitBytes !== undefined && limitBytes < 1) errs.push(invalid('limitBytes', limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && o.sinceTime !== undefined) errs.push(forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (sinceSeconds !== undefined && sinceSeconds < 1) errs.push(invalid('sinceSeconds', sinceSeconds, 'must be greater than 0'));
  if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, podName, errs);
  return o;
}

/** PodExecOptions (`withCommand`) or PodAttachOptions from the query. */
export function podStreamOptions(query: URLSearchParams, withCommand: boolean): Obj {
  const o: Obj = { kind: withCommand ? 'PodExecOptions' : 'PodAttachOptions', apiVersion: 'v1' };
  for (const b of ['stdin', 'stdout', 'stderr', 'tty']) boolParam(o, query, b);
  const container = query.get('container');
  if (container) o.container = container;
  if (withCommand) {
    const command = query.getAll('command');
    if (command.length > 0) o.command = command;
  }
  return o;
}

/**
 * PodPortForwardOptions from the query (`ports`, each an int32; repeated or comma-separated are
 * both taken as upstream's slice conversion takes repeated values).
 * @throws StatusError 400 for a port that is no int32.
 */
export function podPortForwardOptions(query: URLSearchParams): Obj {
  const o: Obj = { kind: 'PodPortForwardOptions', apiVersion: 'v1' };
  const ports = query.getAll('ports').map((p) => intParam(new URLSearchParams({ p }), 'p', 32)!);
  if (ports.length > 0) o.ports = ports;
  return o;
}

/** The options of a proxy (`PodProxyOptions`, `NodeProxyOptions`, `ServiceProxyOptions`): the path after `…/proxy`. */
export function proxyOptions(kind: string, path: string): Obj {
  return path ? { kind, apiVersion: 'v1', path } : { kind, apiVersion: 'v1' };
}
