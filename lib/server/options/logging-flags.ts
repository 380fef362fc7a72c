/**
 * The logging and debugging flags (issue #16 item 7), worded as upstream v1.30's kube-apiserver:
 * `--logging-format` (Logs; `text` default, or `json`), `--profiling` (Features; default true:
 * the `/debug/pprof` handlers) and `--enable-logs-handler` (Misc; default false: the `/logs` handler
 * over the log directory, off by default as issue #16 asks and upstream from v1.31; v1.30 had it on,
 * deprecated: so is ours, with upstream's message). `-v` stays in the flag table.
 */
import { LOGGING_FORMATS, type LoggingFormat } from '../logging.js';
import type { FlagSpec } from './flag-table.js';
import { parseGoBool } from './flag-values.js';

/** The logging and debugging options of the command line. */
export interface LoggingFlags {
  /** `--logging-format`: `text` (default, klog's line) or `json`; anything else is refused by validation. */
  format: string;
  /** `--profiling` (default true): serve `/debug/pprof/` (heap snapshot, CPU profile). */
  profiling: boolean;
  /** `--enable-logs-handler` (default false, as upstream from v1.31): serve `/logs/` from the log directory. */
  enableLogsHandler: boolean;
}

/** The defaults: upstream's, with the logs handler off. */
export function defaultLoggingFlags(): LoggingFlags {
  return { format: 'text', profiling: true, enableLogsHandler: false };
}

/** Whether `format` is one of {@link LOGGING_FORMATS}. */
export function isLoggingFormat(format: string): format is LoggingFormat {
  return (LOGGING_FORMATS as readonly string[]).includes(format);
}

/** Upstream's validation message for an unknown format (`format: Invalid value: "xml": Unsupported log format`). */
export function validateLoggingFlags(f: LoggingFlags): string[] {
  return isLoggingFormat(f.format) ? [] : [`format: Invalid value: ${JSON.stringify(f.format)}: Unsupported log format`];
}

/** The logging and debugging flags, in help order. */
export const LOGGING_FLAGS: readonly FlagSpec[] = [
  {
    name: 'profiling',
    section: 'Features',
    valueType: '',
    defaultText: 'true',
    usage: 'Enable profiling via web interface host:port/debug/pprof/',
    apply: (d, v) => (d.logging.profiling = parseGoBool(v)),
  },
  {
    name: 'logging-format',
    section: 'Logs',
    valueType: 'string',
    defaultText: '"text"',
    usage: 'Sets the log format. Permitted formats: "json", "text".',
    apply: (d, v) => (d.logging.format = v),
  },
  {
    name: 'enable-logs-handler',
    section: 'Misc',
    valueType: '',
    defaultText: 'false',
    usage: 'If true, install a /logs handler for the apiserver logs.',
    apply: (d, v) => (d.logging.enableLogsHandler = parseGoBool(v)),
    // Upstream v1.30 marks it deprecated with this message.
    deprecated: 'This flag will be removed in v1.19',
  },
];
