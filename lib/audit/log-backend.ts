/**
 * The log backend (upstream plugin/pkg/audit/log): one line per event — the JSON Event
 * (`--audit-log-format=json`) or the legacy text line — to a rotated file or standard output.
 * A write failure is counted (plugin `log`) and logged, never thrown.
 */
import { legacyEventString } from './event.js';
import type { AuditMetrics } from './metrics.js';
import type { RotatingFile } from './rotating-file.js';
import { AUDIT_API_VERSION, type AuditBackend, type AuditEvent } from './types.js';

/** `--audit-log-format` values. */
export const LOG_FORMATS = ['legacy', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Where lines go: a rotated file, or standard output. */
export interface LineSink {
  write(text: string): void;
  close(): Promise<void>;
}

/** Standard output (`--audit-log-path=-`). */
export const STDOUT_SINK: LineSink = {
  write: (text) => void process.stdout.write(text),
  close: async () => undefined,
};

/** Serializes events to a {@link LineSink}. */
export class LogBackend implements AuditBackend {
  readonly name = 'log';

  constructor(
    private readonly out: LineSink | RotatingFile,
    private readonly format: LogFormat,
    private readonly metrics: AuditMetrics,
    /** The apiVersion written (`--audit-log-version`; default `audit.<vendor>/v1`). */
    private readonly apiVersion = AUDIT_API_VERSION,
  ) {}

  /** Writes each event; false when some could not be written. */
  processEvents(events: AuditEvent[]): boolean {
    let ok = true;
    for (const ev of events) {
      try {
        const e = ev.apiVersion === this.apiVersion ? ev : { ...ev, apiVersion: this.apiVersion };
        this.out.write(`${this.format === 'json' ? JSON.stringify(e) : legacyEventString(e)}\n`);
      } catch (err) {
        this.metrics.pluginError(this.name, err, [ev]);
        ok = false;
      }
    }
    return ok;
  }

  shutdown(): Promise<void> {
    return this.out.close();
  }
}
