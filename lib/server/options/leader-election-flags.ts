/**
 * The leader-election flags (issue #16 item 1; upstream component-base
 * `BindLeaderElectionFlags` and `ValidateLeaderElectionConfiguration`, as kube-controller-manager
 * offers them): names, defaults (elect on, 15 s lease, 10 s renew deadline, 2 s retry period,
 * the `leases` lock `orch-controller-manager` in `orch-system`), help texts and validation
 * messages as upstream.
 */
import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import { CONTROLLER_MANAGER_LEASE_NAME, SYSTEM_NAMESPACE } from '../../apis/vendor.js';
import type { FlagSpec } from './flag-table.js';
import { parseGoBool } from './flag-values.js';

/** The only lock type this server supports (client-go 1.30 offers no other). */
export const LEASES_RESOURCE_LOCK = 'leases';

/** Leader election of the once-per-cluster controllers (durations in milliseconds). */
export interface LeaderElectionOptions {
  /** `--leader-elect` (default true); false: the controllers run in every replica. */
  leaderElect: boolean;
  /** `--leader-elect-lease-duration` (default 15 s). */
  leaseDurationMs: number;
  /** `--leader-elect-renew-deadline` (default 10 s). */
  renewDeadlineMs: number;
  /** `--leader-elect-retry-period` (default 2 s). */
  retryPeriodMs: number;
  /** `--leader-elect-resource-lock` (default and only value `leases`). */
  resourceLock: string;
  /** `--leader-elect-resource-name` (default `orch-controller-manager`). */
  resourceName: string;
  /** `--leader-elect-resource-namespace` (default `orch-system`). */
  resourceNamespace: string;
}

/** Upstream's defaults. */
export function defaultLeaderElectionOptions(): LeaderElectionOptions {
  return {
    leaderElect: true,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    resourceLock: LEASES_RESOURCE_LOCK,
    resourceName: CONTROLLER_MANAGER_LEASE_NAME,
    resourceNamespace: SYSTEM_NAMESPACE,
  };
}

const PATH = 'generic.leaderElection';

/**
 * Upstream's validation (only when `--leader-elect` is on), as field errors under
 * `generic.leaderElection`, plus client-go's checks that the elector would fail at start with
 * (`renewDeadline must be greater than retryPeriod*JitterFactor`, `Invalid lock-type <x>`).
 */
export function validateLeaderElectionOptions(o: LeaderElectionOptions): string[] {
  if (!o.leaderElect) return [];
  const problems: string[] = [];
  const positive = (field: string, ms: number) => {
    if (ms <= 0) problems.push(`${PATH}.${field}: Invalid value: ${formatDuration(ms)}: must be greater than zero`);
  };
  positive('leaseDuration', o.leaseDurationMs);
  positive('renewDeadline', o.renewDeadlineMs);
  positive('retryPeriod', o.retryPeriodMs);
  if (o.leaseDurationMs <= o.renewDeadlineMs) problems.push(`${PATH}.leaseDuration: Invalid value: ${formatDuration(o.renewDeadlineMs)}: LeaseDuration must be greater than RenewDeadline`);
  if (o.resourceLock === '') problems.push(`${PATH}.resourceLock: Invalid value: "": resourceLock is required`);
  else if (o.resourceLock !== LEASES_RESOURCE_LOCK) problems.push(`Invalid lock-type ${o.resourceLock}`);
  if (o.resourceName === '') problems.push(`${PATH}.resourceName: Invalid value: "": resourceName is required`);
  if (o.resourceNamespace === '') problems.push(`${PATH}.resourceNamespace: Invalid value: "": resourceNamespace is required`);
  if (o.retryPeriodMs > 0 && o.renewDeadlineMs > 0 && o.renewDeadlineMs <= 1.2 * o.retryPeriodMs) problems.push('renewDeadline must be greater than retryPeriod*JitterFactor');
  return problems;
}

/** Every leader-election flag, in help order. */
export const LEADER_ELECTION_FLAGS: readonly FlagSpec[] = [
  {
    name: 'leader-elect',
    section: 'Leader election',
    valueType: '',
    defaultText: 'true',
    usage: 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
    apply: (d, v) => (d.leaderElection.leaderElect = parseGoBool(v)),
  },
  {
    name: 'leader-elect-lease-duration',
    section: 'Leader election',
    valueType: 'duration',
    defaultText: '15s',
    usage:
      'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate. This is only applicable if leader election is enabled.',
    apply: (d, v) => (d.leaderElection.leaseDurationMs = parseDuration(v)),
  },
  {
    name: 'leader-elect-renew-deadline',
    section: 'Leader election',
    valueType: 'duration',
    defaultText: '10s',
    usage: 'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration. This is only applicable if leader election is enabled.',
    apply: (d, v) => (d.leaderElection.renewDeadlineMs = parseDuration(v)),
  },
  {
    name: 'leader-elect-resource-lock',
    section: 'Leader election',
    valueType: 'string',
    defaultText: '"leases"',
    usage: "The type of resource object that is used for locking during leader election. Supported options are 'leases'.",
    apply: (d, v) => (d.leaderElection.resourceLock = v),
  },
  {
    name: 'leader-elect-resource-name',
    section: 'Leader election',
    valueType: 'string',
    defaultText: `"${CONTROLLER_MANAGER_LEASE_NAME}"`,
    usage: 'The name of resource object that is used for locking during leader election.',
    apply: (d, v) => (d.leaderElection.resourceName = v),
  },
  {
    name: 'leader-elect-resource-namespace',
    section: 'Leader election',
    valueType: 'string',
    defaultText: `"${SYSTEM_NAMESPACE}"`,
    usage: 'The namespace of resource object that is used for locking during leader election.',
    apply: (d, v) => (d.leaderElection.resourceNamespace = v),
  },
  {
    name: 'leader-elect-retry-period',
    section: 'Leader election',
    valueType: 'duration',
    defaultText: '2s',
    usage: 'The duration the clients should wait between attempting acquisition and renewal of a leadership. This is only applicable if leader election is enabled.',
    apply: (d, v) => (d.leaderElection.retryPeriodMs = parseDuration(v)),
  },
];
