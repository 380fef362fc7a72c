/**
 * The server's structured logger (pino) in upstream's two `--logging-format`s (issue #16 item 7):
 * `json`, one object a line as upstream's JSON format (`{"ts":<seconds>,"caller":"file.ts:12",
 * "msg":"…","v":0,…}`, errors without `v` and with `err` as a string), and `text`, klog's line
 * (`I1129 01:02:03.456789   12345 file.ts:12] "message" key="value"`) rendered from the same
 * records by a formatting stream (logging-text.ts).
 *
 * Verbosity is klog's: `-v=N` enables `V(n)` logs for n ≤ N. pino's `info` is V(0); custom levels
 * `v1`…`v9` sit between info and debug; pino's `debug` is V(10). Write a V(n) log with
 * {@link infoV}, or test {@link vEnabled} first when building its fields costs.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pino, type DestinationStream, type Logger } from 'pino';
import { CallerTable, callerTablePath } from './bundle-callers.js';
import { KlogTextStream } from './logging-text.js';

export type { Logger };

/** The values of `--logging-format`, as upstream. */
export const LOGGING_FORMATS = ['json', 'text'] as const;
/** One `--logging-format`. */
export type LoggingFormat = (typeof LOGGING_FORMATS)[number];

/** Highest V level with its own pino level; above it, pino's debug. */
const MAX_CUSTOM_V = 9;
/** pino's info level number (V(0)). */
const INFO = 30;
/** pino's error level number. */
const ERROR = 50;

/** The custom levels `v1`…`v9` = 29…21 (pino's info is 30, debug 20). */
const V_LEVELS: Record<string, number> = Object.fromEntries(Array.from({ length: MAX_CUSTOM_V }, (_, i) => [`v${i + 1}`, INFO - (i + 1)]));

/** The pino level label that enables V(n) and everything below it. */
function labelOf(v: number): string {
  if (v <= 0) return 'info';
  return v <= MAX_CUSTOM_V ? `v${v}` : 'debug';
}

/** klog's `v` of a pino level number: 0 for info and above, 1…9 for the custom levels, 10 for debug, 20 for trace. */
export function verbosityOfLevel(level: number): number {
  if (level >= INFO) return 0;
  if (level > 20) return INFO - level;
  return level > 10 ? 10 : 20;
}

/** Whether klog's `V(v)` is enabled on `log`. */
export function vEnabled(log: Logger, v: number): boolean {
  return log.isLevelEnabled(labelOf(v));
}

/**
 * Changes `log`'s verbosity at run time (`PUT /debug/flags/v`). Filters that decided at start
 * whether to exist (the request log) keep their decision, as upstream's.
 */
export function setVerbosity(log: Logger, v: number): void {
  log.level = labelOf(v);
}

/** Logs `msg` with `fields` at klog's `V(v)` (a no-op when the verbosity is lower). */
export function infoV(log: Logger, v: number, fields: Record<string, unknown>, msg: string): void {
  const label = labelOf(v);
  if (!log.isLevelEnabled(label)) return;
  (log as unknown as Record<string, (o: object, m: string) => void>)[label]!(fields, msg);
}

/** Seconds since the epoch with microseconds (upstream JSON's `ts`). */
function nowSeconds(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000) / 1e6;
}

/** A frame of this module or of a dependency is not the caller. */
const SKIPPED_FRAME = /node_modules|[\\/]lib[\\/]server[\\/]logging\.[jt]s|^\s*at (?:new )?Error\b|node:internal/;
/** `(…/dir/file.ts:12:3)` or `at …/file.ts:12:3` → file, line and column. */
const FRAME = /([^\\/():\s]+):(\d+):(\d+)\)?$/;

/** This module's file: in the bundle (hack/bundle.sh), the bundle's, with its caller table beside it. */
const SELF = fileURLToPath(import.meta.url);
let bundleCallers: CallerTable | undefined | null = null;
/** The bundle's caller table, read at the first log line; undefined when the sources run. */
function callerTable(): CallerTable | undefined {
  if (bundleCallers === null) bundleCallers = CallerTable.read(callerTablePath(SELF));
  return bundleCallers;
}

/**
 * klog's caller, `file.ts:line` of the first frame outside the logger (pino and this module), or
 * `???:1` as klog writes when unknown. In the bundle, a frame's position is mapped back to its
 * source file and line through the bundle's caller table (bundle-callers.ts). Costs one short
 * stack capture per log line.
 */
export function callerOf(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 12;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const table = callerTable();
  for (const line of stack.split('\n').slice(1)) {
    if (SKIPPED_FRAME.test(line)) continue;
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    if (table && line.includes(SELF)) {
      const mapped = table.at(Number(m[2]), Number(m[3]));
      if (mapped && mapped.name !== '') return `${mapped.name}:${mapped.line}`;
      continue;
    }
    return `${m[1]}:${m[2]}`;
  }
  return '???:1';
}

/** Errors are logged as their message (upstream's `err="…"`). */
function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Creates the process logger.
 * @param verbosity `-v`: 0 logs V(0) (info, warnings, errors); N also V(1)…V(N).
 * @param destination a file descriptor (default 2, stderr; written asynchronously) or a stream.
 * @param format `--logging-format` (default `json`; the command's default is upstream's `text`).
 */
export function newLogger(verbosity = 0, destination: number | DestinationStream = 2, format: LoggingFormat = 'json'): Logger {
  const out: DestinationStream = typeof destination === 'number' ? pino.destination({ fd: destination, sync: false }) : destination;
  const level = labelOf(verbosity);
  const common = {
    level,
    customLevels: V_LEVELS,
    base: undefined,
    messageKey: 'msg',
    serializers: { err: errText },
  };
  if (format === 'text') {
    // The text stream needs the severity: the pino level number is kept under `level`.
    return pino(
      {
        ...common,
        formatters: { level: (_: string, n: number) => ({ level: n }) },
        timestamp: () => `,"ts":${nowSeconds()}`,
        mixin: () => ({ caller: callerOf() }),
      },
      new KlogTextStream(out),
    ) as unknown as Logger;
  }
  // Upstream's order and shape: `ts` first, `v` on every record but errors. pino's level chunk is
  // cached per level, so it stays empty and the per-record fields come from the timestamp and the mixin.
  return pino(
    {
      ...common,
      formatters: { level: () => ({}) },
      timestamp: () => `"ts":${nowSeconds()}`,
      mixin: (_: object, n: number) => (n >= ERROR ? { caller: callerOf() } : { caller: callerOf(), v: verbosityOfLevel(n) }),
    },
    out,
  ) as unknown as Logger;
}
