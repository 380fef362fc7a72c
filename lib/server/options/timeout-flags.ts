/**
 * The request timeout flags of the Generic section (issue #19 item 3; upstream
 * `ServerRunOptions.AddUniversalFlags` and `Validate`): `--request-timeout` (default `1m0s`, the
 * deadline of every non-long-running request, answered 504 Timeout after it) and
 * `--min-request-timeout` (default 1800 seconds: a watch without `timeoutSeconds` ends at a random
 * time between this and twice it). Help texts and validation messages as upstream.
 */
import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import type { FlagSpec } from './flag-table.js';
import { parseGoInt } from './flag-values.js';

/** The timeouts as given. */
export interface TimeoutFlags {
  /** `--request-timeout` in milliseconds (default 60 000); 0: no deadline. */
  requestTimeoutMs: number;
  /** `--min-request-timeout` in seconds (default 1800); 0: watches without `timeoutSeconds` do not time out. */
  minRequestTimeoutSeconds: number;
}

/** Upstream's defaults: 1m0s and 1800. */
export function defaultTimeoutFlags(): TimeoutFlags {
  return { requestTimeoutMs: 60_000, minRequestTimeoutSeconds: 1800 };
}

/** Upstream's validation messages (`--request-timeout can not be negative value`, likewise the minimum). */
export function validateTimeoutFlags(o: TimeoutFlags): string[] {
  const problems: string[] = [];
  if (o.requestTimeoutMs < 0) problems.push('--request-timeout can not be negative value');
  if (o.minRequestTimeoutSeconds < 0) problems.push('--min-request-timeout can not be negative value');
  return problems;
}

/** The two flags, in upstream's help order. */
export const TIMEOUT_FLAGS: readonly FlagSpec[] = [
  {
    name: 'min-request-timeout',
    section: 'Generic',
    valueType: 'int',
    defaultText: '1800',
    usage:
      'An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out. ' +
      'Currently only honored by the watch request handler, which picks a randomized value above this number as the connection timeout, to spread out load.',
    apply: (d, v) => (d.timeouts.minRequestTimeoutSeconds = parseGoInt(v, 32)),
  },
  {
    name: 'request-timeout',
    section: 'Generic',
    valueType: 'duration',
    defaultText: formatDuration(60_000),
    usage:
      'An optional field indicating the duration a handler must keep a request open before timing it out. ' +
      'This is the default request timeout for requests but may be overridden by flags such as --min-request-timeout for specific types of requests.',
    apply: (d, v) => (d.timeouts.requestTimeoutMs = parseDuration(v)),
  },
];
