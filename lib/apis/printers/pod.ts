/**
 * The Pod's Table columns (spec 000 § Table representation, issue #6 item 5): Name, Ready,
 * Status, Restarts, Age; wide: IP, Node, Nominated Node, Readiness Gates. The cells follow the
 * upstream v1.30 printer:
 * - Ready: ready containers / containers (sidecars — init containers with restartPolicy Always —
 *   count as containers).
 * - Status: the pod's reason or phase; `SchedulingGated`; while initializing, the first init
 *   container not done (`Init:<reason>`, `Init:ExitCode:<n>`, `Init:Signal:<n>`, `Init:<i>/<n>`);
 *   then the first container (from the last) that waits or terminated (its reason, or
 *   `ExitCode:<n>` / `Signal:<n>`); `Completed` with a container still running is `Running` when
 *   the pod is Ready, else `NotReady`; a pod being deleted is `Terminating` (`Unknown` when its
 *   node was lost).
 * - Restarts: the sum of restart counts, with `(<age> ago)` of the last termination when not 0.
 * A Succeeded or Failed pod's row carries the condition `Completed`.
 */
import { humanDuration } from '../../apimachinery/table/human-duration.js';
import { timestampMillis } from '../../apimachinery/table/timestamps.js';
import type { TablePrinter, TableRowCondition } from '../../apimachinery/table/types.js';
import { obj, objs, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, conditionStatus, int, NAME_COLUMN, objectName, orNone, WIDE } from './common.js';

const COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Ready', 'string', 'Ready containers out of all containers of the pod.'),
  column('Status', 'string', 'Summary of the pod phase and of its container states.'),
  column('Restarts', 'string', 'Container restarts, and the time since the last one.'),
  AGE_COLUMN,
  column('IP', 'string', 'The first IP address assigned to the pod.', WIDE),
  column('Node', 'string', 'The node the pod is bound to.', WIDE),
  column('Nominated Node', 'string', 'The node nominated for the pod by preemption.', WIDE),
  column('Readiness Gates', 'string', 'Readiness gates whose condition is true, out of all gates.', WIDE),
]);

/** Restart count and time of the last termination, summed over container statuses. */
interface Restarts {
  count: number;
  /** Epoch ms of the latest `lastState.terminated.finishedAt`, if any. */
  last: number | undefined;
}

function addRestarts(r: Restarts, status: Obj): void {
  r.count += int(status.restartCount);
  const finished = timestampMillis(at(status, 'lastState', 'terminated').finishedAt);
  if (finished !== undefined && (r.last === undefined || r.last < finished)) r.last = finished;
}

/** The reason of a terminated state without one: `Signal:<n>` or `ExitCode:<n>`. */
function exitText(terminated: Obj): string {
  const signal = int(terminated.signal);
  return signal !== 0 ? `Signal:${signal}` : `ExitCode:${int(terminated.exitCode)}`;
}

function hasReadyCondition(status: Obj): boolean {
  return objs(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Ready and Status from the init containers, adding their restarts to `all` (and to `sidecars`
 * for sidecars); true while the pod is still initializing.
 */
function initContainerState(spec: Obj, status: Obj, state: { reason: string; ready: number }, all: Restarts, sidecars: Restarts): boolean {
  const specs = objs(spec.initContainers);
  const sidecarNames = new Set(specs.filter((c) => c.restartPolicy === 'Always').map((c) => str(c.name)));
  const statuses = objs(status.initContainerStatuses);
  for (let i = 0; i < statuses.length; i++) {
    const cs = statuses[i]!;
    const sidecar = sidecarNames.has(str(cs.name));
    addRestarts(all, cs);
    if (sidecar) addRestarts(sidecars, cs);
    const terminated = obj(at(cs, 'state').terminated);
    const waiting = at(cs, 'state', 'waiting');
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready === true) state.ready++;
      continue;
    }
    if (terminated) state.reason = `Init:${str(terminated.reason) || exitText(terminated)}`;
    else if (str(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') state.reason = `Init:${str(waiting.reason)}`;
    else state.reason = `Init:${i}/${specs.length}`;
    return true;
  }
  return false;
}

/** Ready and Status from the app containers (scanned from the last), adding their restarts. */
function containerState(status: Obj, state: { reason: string; ready: number }, restarts: Restarts): void {
  const statuses = objs(status.containerStatuses);
  let hasRunning = false;
  for (let i = statuses.length - 1; i >= 0; i--) {
    const cs = statuses[i]!;
    addRestarts(restarts, cs);
    const waiting = at(cs, 'state', 'waiting');
    const terminated = obj(at(cs, 'state').terminated);
    if (str(waiting.reason) !== '') state.reason = str(waiting.reason);
    else if (terminated) state.reason = str(terminated.reason) || exitText(terminated);
    else if (cs.ready === true && obj(at(cs, 'state').running) !== undefined) {
      hasRunning = true;
      state.ready++;
    }
  }
  if (state.reason === 'Completed' && hasRunning) state.reason = hasReadyCondition(status) ? 'Running' : 'NotReady';
}

function podCells(pod: Obj, now: number): Array<string | number> {
  const spec = at(pod, 'spec');
  const status = at(pod, 'status');
  const sidecarCount = objs(spec.initContainers).filter((c) => c.restartPolicy === 'Always').length;
  const total = objs(spec.containers).length + sidecarCount;
  const state = { reason: str(status.reason) || str(status.phase), ready: 0 };
  if (objs(status.conditions).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) state.reason = 'SchedulingGated';

  const all: Restarts = { count: 0, last: undefined };
  const sidecars: Restarts = { count: 0, last: undefined };
  const initializing = initContainerState(spec, status, state, all, sidecars);
  let restarts = all;
  if (!initializing || conditionStatus(status, 'Initialized') === 'True') {
    restarts = sidecars;
    containerState(status, state, restarts);
  }

  const deleting = at(pod, 'metadata').deletionTimestamp != null;
  if (deleting) state.reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';

  const restartText = restarts.count !== 0 && restarts.last !== undefined ? `${restarts.count} (${humanDuration(now - restarts.last)} ago)` : String(restarts.count);
  return [objectName(pod), `${state.ready}/${total}`, state.reason, restartText, age(pod, now), ...wideCells(spec, status)];
}

function wideCells(spec: Obj, status: Obj): string[] {
  const podIP = str(objs(status.podIPs)[0]?.ip);
  const gates = objs(spec.readinessGates);
  let readinessGates = '<none>';
  if (gates.length > 0) {
    const trueGates = gates.filter((g) => conditionStatus(status, str(g.conditionType)) === 'True').length;
    readinessGates = `${trueGates}/${gates.length}`;
  }
  return [orNone(podIP), orNone(str(spec.nodeName)), orNone(str(status.nominatedNodeName)), readinessGates];
}

function podConditions(pod: Obj): TableRowCondition[] | undefined {
  switch (at(pod, 'status').phase) {
    case 'Succeeded':
      return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'All containers of the pod terminated successfully.' }];
    case 'Failed':
      return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod terminated in failure.' }];
    default:
      return undefined;
  }
}

/** The Pod printer. */
export const podPrinter: TablePrinter = Object.freeze({ columns: COLUMNS, cells: podCells, conditions: podConditions });
