/**
 * klog's text line (upstream `--logging-format=text`, the default) rendered from pino's JSON
 * records: a destination stream between pino and the output (issue #16 item 7).
 *
 *   I1129 01:02:03.456789   12345 generic-server.ts:140] "serving securely" address="0.0.0.0" port=6443
 *
 * Header as klog's `Lmmdd hh:mm:ss.uuuuuu threadid file:line]` (severity I, W, E or F; local time;
 * the process id padded to 7 columns); then the quoted message and the key/value pairs: strings
 * quoted as Go's %q, a string with line breaks as klog's `key=<\n\tline\n >` block, numbers and
 * booleans bare, null as `<nil>`, other values as JSON.
 */
import type { DestinationStream } from 'pino';

/** pino level numbers at or above which a record is a warning, an error, fatal. */
const WARN = 40;
const ERROR = 50;
const FATAL = 60;
/** Record members that make up the header, not key/value pairs. */
const HEADER_KEYS = new Set(['level', 'ts', 'caller', 'msg']);

/** A pino record as parsed from its JSON line. */
type LogRecord = Record<string, unknown> & { level?: number; ts?: number; caller?: string; msg?: string };

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Go's %q for the common case (JSON's escaping; the same for printable text, tabs and quotes). */
function quote(s: string): string {
  return JSON.stringify(s);
}

/** One key/value pair as klog's text format writes it. */
function formatValue(key: string, value: unknown): string {
  if (typeof value === 'string') {
    if (!value.includes('\n')) return `${key}=${quote(value)}`;
    const lines = value.replace(/\n$/, '').split('\n');
    return `${key}=<\n${lines.map((l) => `\t${l}\n`).join('')} >`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${key}=${String(value)}`;
  if (value === null || value === undefined) return `${key}=<nil>`;
  return `${key}=${JSON.stringify(value)}`;
}

/** klog's severity letter of a pino level number. */
function severity(level: number): string {
  if (level >= FATAL) return 'F';
  if (level >= ERROR) return 'E';
  if (level >= WARN) return 'W';
  return 'I';
}

/**
 * The klog line of one record (with the trailing newline).
 * @param rec a pino record with `level` (number), `ts` (seconds since the epoch, fractional), `caller`, `msg`.
 */
export function formatKlogLine(rec: LogRecord, pid: number = process.pid): string {
  const tsSeconds = typeof rec.ts === 'number' ? rec.ts : Date.now() / 1000;
  const d = new Date(Math.floor(tsSeconds * 1000));
  const micros = Math.floor((tsSeconds * 1e6) % 1e6);
  const header =
    `${severity(rec.level ?? 30)}${pad2(d.getMonth() + 1)}${pad2(d.getDate())} ` +
    `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(micros).padStart(6, '0')} ` +
    `${String(pid).padStart(7, ' ')} ${rec.caller ?? '???:1'}] `;
  let line = `${header}${quote(rec.msg ?? '')}`;
  for (const key of Object.keys(rec)) {
    if (HEADER_KEYS.has(key)) continue;
    line += ` ${formatValue(key, rec[key])}`;
  }
  return `${line}\n`;
}

/** A pino destination that writes klog text lines to `out`. */
export class KlogTextStream implements DestinationStream {
  constructor(private readonly out: DestinationStream & { flush?: (cb?: (err?: Error) => void) => void; flushSync?: () => void }) {}

  /** Receives one JSON line from pino. */
  write(line: string): void {
    let rec: LogRecord;
    try {
      rec = JSON.parse(line) as LogRecord;
    } catch {
      this.out.write(line);
      return;
    }
    this.out.write(formatKlogLine(rec));
  }

  /** Flushes the underlying stream (pino's `logger.flush()`). */
  flush(cb?: (err?: Error) => void): void {
    if (this.out.flush) this.out.flush(cb);
    else cb?.();
  }

  /** Flushes synchronously where the underlying stream can (pino's final flush). */
  flushSync(): void {
    this.out.flushSync?.();
  }
}
