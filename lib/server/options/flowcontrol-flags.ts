/**
 * The flow-control flags (upstream v1.30 `server/options/server_run_options.go` and
 * `feature.go`): `--max-requests-inflight` (400) and `--max-mutating-requests-inflight` (200),
 * whose sum is the server's concurrency limit under API Priority and Fairness, and
 * `--enable-priority-and-fairness` (true), with upstream's help texts, sections and validation;
 * and ours, `--max-event-loop-delay` and `--event-loop-shed-levels` (flowcontrol/loop-pressure.ts).
 */
import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import { DEFAULT_SHED_LEVELS } from '../../flowcontrol/loop-pressure.js';
import type { FlagSpec } from './flag-table.js';
import { parseGoBool, parseGoInt, parseStringSlice } from './flag-values.js';

/** The flow-control options of the command line. */
export interface FlowControlFlags {
  enablePriorityAndFairness: boolean;
  maxRequestsInFlight: number;
  maxMutatingRequestsInFlight: number;
  /** `--max-event-loop-delay`, ms: the loop delay at which APF starts shedding the least important levels; 0: never. */
  maxEventLoopDelayMs: number;
  /** `--event-loop-shed-levels`: the priority levels event-loop pressure sheds, least important first. */
  eventLoopShedLevels: string[];
}

/** Default of `--max-event-loop-delay`, ms. */
export const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 100;

/** Upstream's defaults, and ours for `--max-event-loop-delay`. */
export function defaultFlowControlFlags(): FlowControlFlags {
  return { enablePriorityAndFairness: true, maxRequestsInFlight: 400, maxMutatingRequestsInFlight: 200, maxEventLoopDelayMs: DEFAULT_MAX_EVENT_LOOP_DELAY_MS, eventLoopShedLevels: [...DEFAULT_SHED_LEVELS] };
}

/**
 * Upstream's validation: `--max-requests-inflight can not be negative value`, the same for
 * `--max-mutating-requests-inflight`, and, with priority and fairness on, the start-up error
 * `invalid configuration: MaxRequestsInFlight=<n> and MaxMutatingRequestsInFlight=<m>; they must add up to something positive`.
 */
export function validateFlowControlFlags(f: FlowControlFlags): string[] {
  const problems: string[] = [];
  if (f.maxRequestsInFlight < 0) problems.push('--max-requests-inflight can not be negative value');
  if (f.maxMutatingRequestsInFlight < 0) problems.push('--max-mutating-requests-inflight can not be negative value');
  if (f.maxEventLoopDelayMs < 0) problems.push('--max-event-loop-delay can not be negative');
  if (problems.length === 0 && f.enablePriorityAndFairness && f.maxRequestsInFlight + f.maxMutatingRequestsInFlight <= 0) {
    problems.push(
      `invalid configuration: MaxRequestsInFlight=${f.maxRequestsInFlight} and MaxMutatingRequestsInFlight=${f.maxMutatingRequestsInFlight}; they must add up to something positive`,
    );
  }
  return problems;
}

/** Every flow-control flag, in help order within its section. */
export const FLOW_CONTROL_FLAGS: readonly FlagSpec[] = [
  {
    name: 'max-mutating-requests-inflight',
    section: 'Generic',
    valueType: 'int',
    defaultText: '200',
    usage:
      "This and --max-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of mutating requests in flight, or a zero value disables the limit completely.",
    apply: (d, v) => (d.flowControl.maxMutatingRequestsInFlight = parseGoInt(v, 32)),
  },
  {
    name: 'max-requests-inflight',
    section: 'Generic',
    valueType: 'int',
    defaultText: '400',
    usage:
      "This and --max-mutating-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of non-mutating requests in flight, or a zero value disables the limit completely.",
    apply: (d, v) => (d.flowControl.maxRequestsInFlight = parseGoInt(v, 32)),
  },
  {
    name: 'enable-priority-and-fairness',
    section: 'Features',
    valueType: '',
    defaultText: 'true',
    usage: 'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness',
    apply: (d, v) => (d.flowControl.enablePriorityAndFairness = parseGoBool(v)),
  },
  {
    name: 'max-event-loop-delay',
    section: 'Generic',
    valueType: 'duration',
    defaultText: formatDuration(DEFAULT_MAX_EVENT_LOOP_DELAY_MS),
    usage:
      "If --enable-priority-and-fairness is true: the event loop's mean delay at which flow control starts cutting the concurrency limits of the priority levels of --event-loop-shed-levels, one level after another while the delay lasts, down to dispatching none of them (their requests wait in their queues, up to the wait limit). 0 disables it.",
    apply: (d, v) => (d.flowControl.maxEventLoopDelayMs = parseDuration(v)),
  },
  {
    name: 'event-loop-shed-levels',
    section: 'Generic',
    valueType: 'strings',
    defaultText: `[${DEFAULT_SHED_LEVELS.join(',')}]`,
    usage:
      'Comma-separated priority levels that event-loop pressure (--max-event-loop-delay) cuts and then sheds, least important first. A level not listed, and an exempt one, is never shed.',
    apply: (d, v) => (d.flowControl.eventLoopShedLevels = parseStringSlice(v)),
  },
];
