/**
 * Builds what the audit filter runs from the options (upstream AuditOptions.ApplyTo): the policy
 * checker and the backends — log (blocking, batch or blocking-strict; truncation outermost) and
 * webhook — joined into one. No policy file, or no backend: auditing is off.
 */
import { loadKubeconfig } from '../client/kubeconfig.js';
import type { StabilityRegistry } from '../metrics/registry.js';
import { IgnoreErrorsBackend, UnionBackend } from './backend.js';
import { BufferedBackend } from './buffered.js';
import { PolicyChecker } from './checker.js';
import { LogBackend, type LogFormat, STDOUT_SINK } from './log-backend.js';
import { AuditMetrics } from './metrics.js';
import type { AuditOptions, BatchOptions, TruncateOptions } from './options.js';
import { loadPolicyFile } from './policy.js';
import { RotatingFile } from './rotating-file.js';
import { TruncateBackend } from './truncate.js';
import type { AuditBackend, AuditLogger } from './types.js';
import { WebhookBackend } from './webhook-backend.js';

/** A running audit configuration. */
export interface AuditPipeline {
  checker: PolicyChecker;
  backend: AuditBackend;
  metrics: AuditMetrics;
  /** Flushes buffered events and closes files and connections. */
  shutdown(): Promise<void>;
}

function wrap(b: AuditBackend, batch: BatchOptions, truncate: TruncateOptions, asyncDelegate: boolean, metrics: AuditMetrics): AuditBackend {
  let out: AuditBackend;
  if (batch.mode === 'blocking-strict') out = b;
  else if (batch.mode === 'blocking') out = new IgnoreErrorsBackend(b);
  else out = new BufferedBackend(b, { ...batch, asyncDelegate }, metrics);
  return truncate.enabled ? new TruncateBackend(out, truncate, metrics) : out;
}

/**
 * The pipeline of validated options, or undefined when auditing is off; metrics are declared in
 * `registry`.
 * @throws Error `loading audit policy file: …` (PolicyError wording), `initializing audit webhook: …`
 * (the kubeconfig's problem), or the log file's directory cannot be created.
 */
export async function buildAuditPipeline(o: AuditOptions, registry: StabilityRegistry, log: AuditLogger): Promise<AuditPipeline | undefined> {
  if (o.policyFile === '') return undefined;
  let checker: PolicyChecker;
  try {
    checker = new PolicyChecker(await loadPolicyFile(o.policyFile));
  } catch (err) {
    throw new Error(`loading audit policy file: ${(err as Error).message}`, { cause: err });
  }
  const metrics = new AuditMetrics(registry, log);
  const backends: AuditBackend[] = [];
  if (o.log.path !== '') {
    const sink = o.log.path === '-' ? STDOUT_SINK : new RotatingFile(o.log.path, { maxSizeMB: o.log.maxSize, maxBackups: o.log.maxBackups, maxAgeDays: o.log.maxAge, compress: o.log.compress });
    backends.push(wrap(new LogBackend(sink, o.log.format as LogFormat, metrics, o.log.version), o.log.batch, o.log.truncate, false, metrics));
  }
  if (o.webhook.configFile !== '') {
    let webhook: WebhookBackend;
    try {
      webhook = new WebhookBackend(await loadKubeconfig(o.webhook.configFile), o.webhook.initialBackoffMs, metrics, o.webhook.version);
    } catch (err) {
      throw new Error(`initializing audit webhook: ${(err as Error).message}`, { cause: err });
    }
    backends.push(wrap(webhook, o.webhook.batch, o.webhook.truncate, true, metrics));
  }
  if (backends.length === 0) return undefined;
  const backend = backends.length === 1 ? backends[0]! : new UnionBackend(backends);
  return { checker, backend, metrics, shutdown: () => backend.shutdown() };
}
