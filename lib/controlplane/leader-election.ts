/**
 * Where the once-per-cluster controllers run (issue #16 item 1): with leader election off (or not
 * configured) every task is a post-start hook of its own, as before; with it on, one elector per
 * server contends for the Lease `--leader-elect-resource-namespace`/`--leader-elect-resource-name`
 * and the tasks start when this server leads and stop when it stops leading. The elector starts
 * from a post-start hook that does not wait for leadership (a follower is ready), releases the
 * lease when the server stops, and reports through the `leaderElection` health check of
 * `/healthz` (upstream controller-manager's watchdog: a leader that has not renewed for the lease
 * duration plus 20 s is unhealthy).
 */
import { LeaderElector } from '../controllers/leaderelection/elector.js';
import { LeaseLock } from '../controllers/leaderelection/lease-lock.js';
import type { LeaderTasks } from '../controllers/leaderelection/tasks.js';
import type { RequestContext } from '../request/context.js';
import type { Store } from '../registry/generic/store.js';
import type { HealthCheck } from '../server/healthz/checks.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { Logger } from '../server/logging.js';
import type { LeaderElectionOptions } from '../server/options/leader-election-flags.js';

/** The post-start hook that starts the elector. */
export const LEADER_ELECTION_HOOK = 'start-leader-election';
/** Upstream controller-manager's tolerance of an unrenewed lease in its health check. */
export const LEADER_HEALTH_TOLERANCE_MS = 20_000;

/** What the wiring needs. */
export interface LeaderElectionDeps {
  hooks: PostStartHooks;
  tasks: LeaderTasks;
  /** The Lease store. */
  leases: Store;
  /** This server's election identity (`<hostname>_<uuid>`). */
  identity: string;
  ctx: RequestContext;
  /** Aborted when the server stops. */
  signal: AbortSignal;
  log: Logger;
}

/** The wired election. */
export interface LeaderElection {
  /** `leaderElection` (only when electing): for `/healthz`. */
  healthChecks: HealthCheck[];
  /** Resolves once the elector has ended (after the server's signal aborted) and released the lease. */
  stopped(): Promise<void>;
}

/**
 * Registers the tasks as hooks (`opts` absent or `leaderElect` false) or the elector's hook.
 * @throws Error with client-go's message when the timings are inconsistent (flags were validated).
 */
export function wireLeaderElection(opts: LeaderElectionOptions | undefined, deps: LeaderElectionDeps): LeaderElection {
  const { hooks, tasks, signal, log } = deps;
  if (!opts?.leaderElect) {
    for (const t of tasks.tasks()) hooks.add(t.name, () => t.start(signal));
    return { healthChecks: [], stopped: async () => undefined };
  }
  const lock = new LeaseLock({ leases: deps.leases, namespace: opts.resourceNamespace, name: opts.resourceName, identity: deps.identity, ctx: deps.ctx });
  const elector = new LeaderElector({
    lock,
    leaseDurationMs: opts.leaseDurationMs,
    renewDeadlineMs: opts.renewDeadlineMs,
    retryPeriodMs: opts.retryPeriodMs,
    releaseOnCancel: true,
    onError: (err) => log.warn({ err, lease: lock.describe() }, 'leader election attempt failed'),
    callbacks: {
      onStartedLeading(term) {
        log.info({ lease: lock.describe(), identity: deps.identity }, 'successfully acquired lease');
        for (const t of tasks.tasks()) void t.start(term).catch((err: unknown) => log.error({ err, controller: t.name }, 'controller failed to start'));
      },
      onStoppedLeading() {
        log.info({ lease: lock.describe(), identity: deps.identity }, signal.aborted ? 'stopped leading: the server is stopping' : 'leaderelection lost');
      },
      onNewLeader(identity) {
        if (identity !== deps.identity) log.info({ lease: lock.describe(), leader: identity }, 'new leader elected');
      },
    },
  });
  let running: Promise<void> = Promise.resolve();
  hooks.add(LEADER_ELECTION_HOOK, async () => {
    running = elector.run(signal).catch((err: unknown) => log.error({ err }, 'leader election ended'));
  });
  return {
    healthChecks: [
      {
        name: 'leaderElection',
        check: async () => {
          const err = elector.check(LEADER_HEALTH_TOLERANCE_MS);
          if (err) throw err;
        },
      },
    ],
    stopped: () => running,
  };
}
