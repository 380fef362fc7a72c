/**
 * Request logs at `-v=3`, as upstream's httplog (apiserver/pkg/server/httplog, v1.30): one `HTTP`
 * record per request when its response ends (a watch when its stream ends), with `verb` (the
 * metrics verb: LIST, WATCH, APPLY…), `URI` (as received), `latency` (Go's duration text),
 * `userAgent`, `audit-ID`, `srcIP` (`ip:port`) and `resp` (the status code). As upstream, the
 * filter is not installed at all below `-v=3`, so it costs nothing then (issue #16 item 7).
 */
import type { Context, Next } from 'koa';
import { requestContextOf } from '../../endpoints/filters/request-info.js';
import { infoV, type Logger, vEnabled } from '../logging.js';
import { reportedVerb } from '../request-labels.js';

/** klog verbosity of request logs (upstream's `withLoggingLevel`). */
export const REQUEST_LOG_VERBOSITY = 3;
/** Upstream's limit of the logged audit ID (GetAuditIDTruncated). */
const MAX_AUDIT_ID_LENGTH = 64;

/** Trims trailing zeros of a fixed-point fraction (Go prints the shortest exact form). */
function trimFraction(whole: bigint, frac: bigint, digits: number): string {
  if (frac === 0n) return whole.toString();
  return `${whole}.${frac.toString().padStart(digits, '0').replace(/0+$/, '')}`;
}

/**
 * Go's `time.Duration.String()` of `ns` nanoseconds: `812ns`, `1.5µs`, `12.345678ms`, `1.2s`,
 * `2m3.5s`, `1h0m0s`.
 */
export function goDuration(ns: bigint): string {
  if (ns < 0n) return `-${goDuration(-ns)}`;
  if (ns === 0n) return '0s';
  if (ns < 1_000n) return `${ns}ns`;
  if (ns < 1_000_000n) return `${trimFraction(ns / 1_000n, ns % 1_000n, 3)}µs`;
  if (ns < 1_000_000_000n) return `${trimFraction(ns / 1_000_000n, ns % 1_000_000n, 6)}ms`;
  const hours = ns / 3_600_000_000_000n;
  const minutes = (ns / 60_000_000_000n) % 60n;
  const secNs = ns % 60_000_000_000n;
  const seconds = `${trimFraction(secNs / 1_000_000_000n, secNs % 1_000_000_000n, 9)}s`;
  if (hours > 0n) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0n) return `${minutes}m${seconds}`;
  return seconds;
}

/** `ip:port` as Go's RemoteAddr (IPv6 in brackets). */
function remoteAddr(koa: Context): string {
  const s = koa.req.socket;
  const ip = s.remoteAddress ?? '';
  return `${ip.includes(':') ? `[${ip}]` : ip}:${s.remotePort ?? 0}`;
}

/**
 * The request log middleware, or undefined when `log` is below `-v=3` (then nothing is wrapped).
 * Put it outside the error filter so that `resp` is the status the client got.
 */
export function withRequestLog(log: Logger): ((koa: Context, next: Next) => Promise<void>) | undefined {
  if (!vEnabled(log, REQUEST_LOG_VERBOSITY)) return undefined;
  return async (koa, next) => {
    const start = process.hrtime.bigint();
    const userAgent = koa.get('User-Agent');
    // Read now: a closed socket no longer knows its peer.
    const srcIP = remoteAddr(koa);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const info = requestContextOf(koa)?.requestInfo;
      const verb = info ? reportedVerb(koa.method, info, koa.get('Content-Type') || undefined) : koa.method;
      infoV(log, REQUEST_LOG_VERBOSITY, {
        verb,
        URI: koa.originalUrl,
        latency: goDuration(process.hrtime.bigint() - start),
        userAgent,
        'audit-ID': String(koa.response.get('Audit-Id') ?? '').slice(0, MAX_AUDIT_ID_LENGTH),
        srcIP,
        resp: koa.res.statusCode,
      }, 'HTTP');
    };
    koa.res.once('finish', finish);
    koa.res.once('close', finish);
    await next();
  };
}
