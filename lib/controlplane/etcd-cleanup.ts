/**
 * The etcd writes of a graceful stop (this server's address removed from the API server Service,
 * the leader election lease released), bounded so that a stop while etcd is gone ends within
 * seconds, as upstream kube-apiserver's does, instead of waiting out the etcd client's retries
 * (10 s a call) in every step. etcd is probed once when the clean-up begins: when it does not
 * answer within {@link ETCD_PROBE_MS} every step is skipped; otherwise each step gets
 * {@link CLEANUP_STEP_MS}, and one that overruns marks etcd gone, so that the later steps are
 * skipped. Against a healthy etcd every step runs to its end as before.
 */
import type { Logger } from '../server/logging.js';

/** How long the probe at the start of the clean-up waits for etcd, in milliseconds. */
export const ETCD_PROBE_MS = 1_000;
/** Deadline of one clean-up step, in milliseconds (a healthy etcd answers its writes in milliseconds). */
export const CLEANUP_STEP_MS = 5_000;

/** The clean-up of one graceful stop. */
export interface EtcdCleanup {
  /**
   * Runs `step` (named `name` in the log) unless etcd is gone, and resolves once it has ended or
   * failed, or after {@link CLEANUP_STEP_MS} (the step is then abandoned, and etcd taken as gone).
   * A skipped step is not started; an abandoned one goes on until the process exits. Never rejects:
   * failures are logged.
   */
  run(name: string, step: () => Promise<void>): Promise<void>;
}

/** Deadlines in milliseconds (tests shorten them). */
export interface EtcdCleanupTimings {
  probeMs: number;
  stepMs: number;
}

/** How `p` ended within `ms` milliseconds. */
async function settle(p: Promise<unknown>, ms: number): Promise<{ outcome: 'done' } | { outcome: 'failed'; err: unknown } | { outcome: 'overran' }> {
  let timer: NodeJS.Timeout | undefined;
  const overran = new Promise<{ outcome: 'overran' }>((resolve) => (timer = setTimeout(() => resolve({ outcome: 'overran' }), ms)));
  try {
    return await Promise.race([p.then(() => ({ outcome: 'done' as const }), (err: unknown) => ({ outcome: 'failed' as const, err })), overran]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Begins the clean-up: calls `probe` (a cheap etcd read, e.g. the current revision) and takes etcd
 * as gone when it fails or does not answer within `timings.probeMs`; resolves after at most that
 * long. Never rejects.
 */
export async function beginEtcdCleanup(probe: () => Promise<unknown>, log: Logger, timings: EtcdCleanupTimings = { probeMs: ETCD_PROBE_MS, stepMs: CLEANUP_STEP_MS }): Promise<EtcdCleanup> {
  const probed = await settle(probe(), timings.probeMs);
  let gone = probed.outcome !== 'done';
  if (gone) log.warn({ err: 'err' in probed ? probed.err : undefined, probeMs: timings.probeMs }, 'etcd is unreachable: skipping the etcd clean-up of the stop');
  return {
    async run(name, step) {
      if (gone) {
        log.info({ step: name }, 'etcd clean-up step skipped: etcd is unreachable');
        return;
      }
      const ended = await settle(step(), timings.stepMs);
      if (ended.outcome === 'failed') log.warn({ err: ended.err, step: name }, 'etcd clean-up step failed');
      if (ended.outcome === 'overran') {
        gone = true;
        log.warn({ step: name, deadlineMs: timings.stepMs }, 'etcd clean-up step abandoned: etcd did not answer in time');
      }
    },
  };
}
