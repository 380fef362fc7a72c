/**
 * The audit options as the command line gives them (upstream pkg/server/options/audit.go), their
 * defaults and their validation with upstream's messages. Durations in milliseconds.
 */
import { AUDIT_UPSTREAM_GROUP } from '../apis/vendor.js';
import type { BatchConfig } from './buffered.js';
import { LOG_FORMATS } from './log-backend.js';
import type { TruncateConfig } from './truncate.js';
import { AUDIT_API_VERSION } from './types.js';
import { DEFAULT_INITIAL_BACKOFF_MS } from './webhook-backend.js';

/** `--audit-*-mode` values. */
export const MODES = ['batch', 'blocking', 'blocking-strict'] as const;

/** One backend's `--audit-<plugin>-mode` and `--audit-<plugin>-batch-*`. */
export interface BatchOptions extends Omit<BatchConfig, 'asyncDelegate'> {
  mode: string;
}

/** One backend's `--audit-<plugin>-truncate-*`. */
export interface TruncateOptions extends TruncateConfig {
  enabled: boolean;
}

/** Every audit flag. */
export interface AuditOptions {
  /** `--audit-policy-file` ('' = no auditing). */
  policyFile: string;
  log: {
    /** `--audit-log-path` ('' = off, `-` = standard output). */
    path: string;
    /** `--audit-log-maxage` (days), `--audit-log-maxbackup`, `--audit-log-maxsize` (MB). */
    maxAge: number;
    maxBackups: number;
    maxSize: number;
    /** `--audit-log-format`: json (default) or legacy. */
    format: string;
    /** `--audit-log-compress`. */
    compress: boolean;
    /** `--audit-log-version`. */
    version: string;
    batch: BatchOptions;
    truncate: TruncateOptions;
  };
  webhook: {
    /** `--audit-webhook-config-file` ('' = off). */
    configFile: string;
    /** `--audit-webhook-initial-backoff` (ms). */
    initialBackoffMs: number;
    /** `--audit-webhook-version`. */
    version: string;
    batch: BatchOptions;
    truncate: TruncateOptions;
  };
}

/** Upstream's truncate defaults: off, 10 MB batches, 100 KB events. */
function defaultTruncate(): TruncateOptions {
  return { enabled: false, maxBatchSize: 10 * 1024 * 1024, maxEventSize: 100 * 1024 };
}

/**
 * Upstream's defaults: the log backend blocking (batch settings: 10000-event buffer, batches of
 * 1, throttling off), the webhook batching (10000 buffer, 400 a batch, 30 s wait, 10 QPS, burst 15).
 */
export function defaultAuditOptions(): AuditOptions {
  return {
    policyFile: '',
    log: {
      path: '',
      maxAge: 0,
      maxBackups: 0,
      maxSize: 0,
      format: 'json',
      compress: false,
      version: AUDIT_API_VERSION,
      batch: { mode: 'blocking', bufferSize: 10_000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 },
      truncate: defaultTruncate(),
    },
    webhook: {
      configFile: '',
      initialBackoffMs: DEFAULT_INITIAL_BACKOFF_MS,
      version: AUDIT_API_VERSION,
      batch: { mode: 'batch', bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 },
      truncate: defaultTruncate(),
    },
  };
}

/** The group versions `--audit-*-version` accepts: `audit.<vendor>/v1` and its upstream alias. */
export const KNOWN_VERSIONS = [AUDIT_API_VERSION, `${AUDIT_UPSTREAM_GROUP}/v1`];

function validateBatch(plugin: string, b: BatchOptions): string[] {
  if (!(MODES as readonly string[]).includes(b.mode)) return [`invalid audit ${plugin} mode ${b.mode}, allowed modes are ${JSON.stringify(MODES.join(','))}`];
  if (b.mode !== 'batch') return [];
  if (b.bufferSize <= 0) return [`invalid audit batch ${plugin} buffer size ${b.bufferSize}, must be a positive number`];
  if (b.maxBatchSize <= 0) return [`invalid audit batch ${plugin} max batch size ${b.maxBatchSize}, must be a positive number`];
  if (b.throttleEnable) {
    if (b.throttleQPS <= 0) return [`invalid audit batch ${plugin} throttle QPS ${b.throttleQPS}, must be a positive number`];
    if (b.throttleBurst <= 0) return [`invalid audit batch ${plugin} throttle burst ${b.throttleBurst}, must be a positive number`];
  }
  return [];
}

function validateTruncate(plugin: string, t: TruncateOptions): string[] {
  if (t.maxEventSize <= 0) return [`invalid audit truncate ${plugin} max event size ${t.maxEventSize}, must be a positive number`];
  if (t.maxBatchSize < t.maxEventSize) return [`invalid audit truncate ${plugin} max batch size ${t.maxBatchSize}, must be greater than max event size (${t.maxEventSize})`];
  return [];
}

function validateVersion(v: string): string[] {
  return KNOWN_VERSIONS.includes(v) ? [] : [`invalid group version, allowed versions are ${JSON.stringify(`[${KNOWN_VERSIONS.join(' ')}]`)}`];
}

/** Upstream AuditOptions.Validate: the problems of the enabled backends' options, in upstream's words. */
export function validateAuditOptions(o: AuditOptions): string[] {
  const problems: string[] = [];
  if (o.log.path !== '') {
    problems.push(...validateBatch('log', o.log.batch), ...validateTruncate('log', o.log.truncate), ...validateVersion(o.log.version));
    if (!(LOG_FORMATS as readonly string[]).includes(o.log.format)) problems.push(`invalid audit log format ${o.log.format}, allowed formats are ${JSON.stringify(LOG_FORMATS.join(','))}`);
    if (o.log.maxAge < 0) problems.push(`--audit-log-maxage ${o.log.maxAge} can't be a negative number`);
    if (o.log.maxBackups < 0) problems.push(`--audit-log-maxbackup ${o.log.maxBackups} can't be a negative number`);
    if (o.log.maxSize < 0) problems.push(`--audit-log-maxsize ${o.log.maxSize} can't be a negative number`);
  }
  if (o.webhook.configFile !== '') {
    problems.push(...validateBatch('webhook', o.webhook.batch), ...validateTruncate('webhook', o.webhook.truncate), ...validateVersion(o.webhook.version));
  }
  return problems;
}
