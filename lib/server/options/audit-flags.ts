/**
 * The Auditing flags (issue #16 item 4; upstream pkg/server/options/audit.go, help section
 * "Auditing"): `--audit-policy-file`, the log backend's `--audit-log-*` and the webhook
 * backend's `--audit-webhook-*`, with upstream's names, defaults and help texts, in help order
 * (alphabetical, as pflag prints them).
 */
import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import { type AuditOptions, type BatchOptions, MODES, type TruncateOptions, defaultAuditOptions, validateAuditOptions } from '../../audit/options.js';
import { LOG_FORMATS } from '../../audit/log-backend.js';
import type { FlagSpec, OptionsDraft } from './flag-table.js';
import { parseGoBool, parseGoInt } from './flag-values.js';

export { defaultAuditOptions, validateAuditOptions };
export type { AuditOptions };

const SECTION = 'Auditing';

/** Go's `strconv.ParseFloat(text, 32)` for decimal text. @throws Error with Go's message. */
function parseGoFloat(text: string): number {
  if (!/^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text);
}


function batchFlags(plugin: 'log' | 'webhook', pick: (d: OptionsDraft) => BatchOptions): FlagSpec[] {
  const def = pick({ audit: defaultAuditOptions() } as OptionsDraft);
  const name = (n: string) => `audit-${plugin}-${n}`;
  return [
    {
      name: name('batch-buffer-size'),
      section: SECTION,
      valueType: 'int',
      defaultText: String(def.bufferSize),
      usage: 'The size of the buffer to store events before batching and writing. Only used in batch mode.',
      apply: (d, v) => (pick(d).bufferSize = parseGoInt(v, 32)),
    },
    {
      name: name('batch-max-size'),
      section: SECTION,
      valueType: 'int',
      defaultText: String(def.maxBatchSize),
      usage: 'The maximum size of a batch. Only used in batch mode.',
      apply: (d, v) => (pick(d).maxBatchSize = parseGoInt(v, 32)),
    },
    {
      name: name('batch-max-wait'),
      section: SECTION,
      valueType: 'duration',
      defaultText: formatDuration(def.maxBatchWaitMs),
      usage: "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
      apply: (d, v) => (pick(d).maxBatchWaitMs = parseDuration(v)),
    },
    {
      name: name('batch-throttle-burst'),
      section: SECTION,
      valueType: 'int',
      defaultText: String(def.throttleBurst),
      usage: 'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.',
      apply: (d, v) => (pick(d).throttleBurst = parseGoInt(v, 32)),
    },
    {
      name: name('batch-throttle-enable'),
      section: SECTION,
      valueType: '',
      defaultText: String(def.throttleEnable),
      usage: 'Whether batching throttling is enabled. Only used in batch mode.',
      apply: (d, v) => (pick(d).throttleEnable = parseGoBool(v)),
    },
    {
      name: name('batch-throttle-qps'),
      section: SECTION,
      valueType: 'float32',
      defaultText: String(def.throttleQPS),
      usage: 'Maximum average number of batches per second. Only used in batch mode.',
      apply: (d, v) => (pick(d).throttleQPS = parseGoFloat(v)),
    },
  ];
}

function modeFlag(plugin: 'log' | 'webhook', pick: (d: OptionsDraft) => BatchOptions): FlagSpec {
  const def = pick({ audit: defaultAuditOptions() } as OptionsDraft);
  return {
    name: `audit-${plugin}-mode`,
    section: SECTION,
    valueType: 'string',
    defaultText: JSON.stringify(def.mode),
    usage: `Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are ${MODES.join(',')}.`,
    apply: (d, v) => (pick(d).mode = v),
  };
}

function truncateFlags(plugin: 'log' | 'webhook', pick: (d: OptionsDraft) => TruncateOptions): FlagSpec[] {
  const def = pick({ audit: defaultAuditOptions() } as OptionsDraft);
  const name = (n: string) => `audit-${plugin}-truncate-${n}`;
  return [
    {
      name: name('enabled'),
      section: SECTION,
      valueType: '',
      defaultText: 'false',
      usage: 'Whether event and batch truncating is enabled.',
      apply: (d, v) => (pick(d).enabled = parseGoBool(v)),
    },
    {
      name: name('max-batch-size'),
      section: SECTION,
      valueType: 'int',
      defaultText: String(def.maxBatchSize),
      usage: 'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.',
      apply: (d, v) => (pick(d).maxBatchSize = parseGoInt(v, 53)),
    },
    {
      name: name('max-event-size'),
      section: SECTION,
      valueType: 'int',
      defaultText: String(def.maxEventSize),
      usage: "Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn't reduce the size enough, event is discarded.",
      apply: (d, v) => (pick(d).maxEventSize = parseGoInt(v, 53)),
    },
  ];
}

const log = (d: OptionsDraft) => d.audit.log;
const webhook = (d: OptionsDraft) => d.audit.webhook;
const DEFAULTS = defaultAuditOptions();

const UNSORTED: FlagSpec[] = [
  ...batchFlags('log', (d) => log(d).batch),
  {
    name: 'audit-log-compress',
    section: SECTION,
    valueType: '',
    defaultText: 'false',
    usage: 'If set, the rotated log files will be compressed using gzip.',
    apply: (d, v) => (log(d).compress = parseGoBool(v)),
  },
  {
    name: 'audit-log-format',
    section: SECTION,
    valueType: 'string',
    defaultText: JSON.stringify(DEFAULTS.log.format),
    usage: `Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are ${LOG_FORMATS.join(',')}.`,
    apply: (d, v) => (log(d).format = v),
  },
  {
    name: 'audit-log-maxage',
    section: SECTION,
    valueType: 'int',
    defaultText: '0',
    usage: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
    apply: (d, v) => (log(d).maxAge = parseGoInt(v, 32)),
  },
  {
    name: 'audit-log-maxbackup',
    section: SECTION,
    valueType: 'int',
    defaultText: '0',
    usage: 'The maximum number of old audit log files to retain. Setting a value of 0 will mean there\'s no restriction on the number of files.',
    apply: (d, v) => (log(d).maxBackups = parseGoInt(v, 32)),
  },
  {
    name: 'audit-log-maxsize',
    section: SECTION,
    valueType: 'int',
    defaultText: '0',
    usage: 'The maximum size in megabytes of the audit log file before it gets rotated.',
    apply: (d, v) => (log(d).maxSize = parseGoInt(v, 32)),
  },
  modeFlag('log', (d) => log(d).batch),
  {
    name: 'audit-log-path',
    section: SECTION,
    valueType: 'string',
    defaultText: '""',
    usage: "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
    apply: (d, v) => (log(d).path = v),
  },
  ...truncateFlags('log', (d) => log(d).truncate),
  {
    name: 'audit-log-version',
    section: SECTION,
    valueType: 'string',
    defaultText: JSON.stringify(DEFAULTS.log.version),
    usage: 'API group and version used for serializing audit events written to log.',
    apply: (d, v) => (log(d).version = v),
  },
  {
    name: 'audit-policy-file',
    section: SECTION,
    valueType: 'string',
    defaultText: '""',
    usage: 'Path to the file that defines the audit policy configuration.',
    apply: (d, v) => (d.audit.policyFile = v),
  },
  ...batchFlags('webhook', (d) => webhook(d).batch),
  {
    name: 'audit-webhook-config-file',
    section: SECTION,
    valueType: 'string',
    defaultText: '""',
    usage: 'Path to a kubeconfig formatted file that defines the audit webhook configuration.',
    apply: (d, v) => (webhook(d).configFile = v),
  },
  {
    name: 'audit-webhook-initial-backoff',
    section: SECTION,
    valueType: 'duration',
    defaultText: formatDuration(DEFAULTS.webhook.initialBackoffMs),
    usage: 'The amount of time to wait before retrying the first failed request.',
    apply: (d, v) => (webhook(d).initialBackoffMs = parseDuration(v)),
  },
  modeFlag('webhook', (d) => webhook(d).batch),
  ...truncateFlags('webhook', (d) => webhook(d).truncate),
  {
    name: 'audit-webhook-version',
    section: SECTION,
    valueType: 'string',
    defaultText: JSON.stringify(DEFAULTS.webhook.version),
    usage: 'API group and version used for serializing audit events written to webhook.',
    apply: (d, v) => (webhook(d).version = v),
  },
];

/** Every Auditing flag, in help order. */
export const AUDIT_FLAGS: readonly FlagSpec[] = [...UNSORTED].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
