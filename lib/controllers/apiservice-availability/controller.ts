/**
 * The APIService availability controller (issue #20 capability 1; upstream v1.30 kube-aggregator
 * `AvailableConditionController`, run by every server): keeps each APIService's `Available`
 * condition equal to what check.ts finds. It checks an APIService when it changes, when a Service
 * or Endpoints it names changes, and again every `recheckMs` (a remote one); it writes status
 * only when the condition changed, keeping `lastTransitionTime` unless the status flipped.
 */
import { formatTime } from '../../apimachinery/schema/decode.js';
import type { Obj } from '../../apis/define.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { updateObject } from '../writes.js';
import type { AggregatorMetrics } from '../../metrics/aggregator.js';
import { type Availability, type AvailabilityDeps, checkAvailability } from './check.js';

/** The condition type kept here. */
export const AVAILABLE = 'Available';

/** The post-start hook that starts the controller (upstream `start-kube-aggregator-informers` and the availability controller). */
export const APISERVICE_AVAILABILITY_HOOK = 'apiservice-status-available-controller';

/** Default interval between checks of a remote APIService (ms). */
export const DEFAULT_RECHECK_MS = 30_000;

/** What the controller works with. */
export interface AvailabilityControllerConfig {
  apiServices: Informer;
  services: Informer;
  endpoints: Informer;
  /** The APIService status store the controller writes through. */
  statusStore: Store;
  deps: AvailabilityDeps;
  /** Interval between checks of one remote APIService (ms). */
  recheckMs: number;
  ctx: RequestContext;
  onError: (err: unknown) => void;
  now?: () => Date;
  /** `aggregator_unavailable_apiservice{,_total}`: the gauge set at every check, the counter at each write that makes one unavailable. */
  metrics?: AggregatorMetrics;
}

type Condition = { type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string };

const conditionsOf = (o: Obj): Condition[] => (((o.status as Obj | undefined)?.conditions ?? []) as Condition[]);
const nameOf = (o: Obj): string => String((o.metadata as Obj | undefined)?.name ?? '');

/** True when the APIService's Available condition already says `a`. */
export function conditionMatches(apiService: Obj, a: Availability): boolean {
  const c = conditionsOf(apiService).find((x) => x.type === AVAILABLE);
  return c !== undefined && c.status === a.status && c.reason === a.reason && c.message === a.message;
}

/** Sets the Available condition of `apiService` (in place) to `a`, as upstream's SetAPIServiceCondition. */
export function setAvailableCondition(apiService: Obj, a: Availability, now: Date): void {
  const status = ((apiService.status ??= {}) as Obj);
  const conditions = conditionsOf(apiService);
  const old = conditions.find((x) => x.type === AVAILABLE);
  const lastTransitionTime = old && old.status === a.status && old.lastTransitionTime ? old.lastTransitionTime : formatTime(now);
  const next: Condition = { type: AVAILABLE, status: a.status, lastTransitionTime, reason: a.reason, message: a.message };
  status.conditions = old ? conditions.map((x) => (x === old ? next : x)) : [...conditions, next];
}

/** The APIServices that name Service `namespace/name`. */
function referencing(apiServices: Informer, namespace: string, name: string): string[] {
  return apiServices
    .list()
    .filter((a) => {
      const svc = ((a.spec as Obj | undefined)?.service ?? null) as { namespace?: string; name?: string } | null;
      return svc !== null && svc.namespace === namespace && svc.name === name;
    })
    .map(nameOf);
}

/** Runs the controller until `signal` aborts. */
export async function runAvailabilityController(cfg: AvailabilityControllerConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const now = cfg.now ?? (() => new Date());
  cfg.apiServices.addHandler((type, a) => {
    if (type !== 'DELETED') queue.add(nameOf(a));
    else cfg.metrics?.forget(nameOf(a));
  });
  const onService = (_type: string, o: Obj) => {
    const m = (o.metadata ?? {}) as { namespace?: string; name?: string };
    for (const n of referencing(cfg.apiServices, m.namespace ?? '', m.name ?? '')) queue.add(n);
  };
  cfg.services.addHandler(onService);
  cfg.endpoints.addHandler(onService);
  await Promise.all([cfg.apiServices.waitForSync(), cfg.services.waitForSync(), cfg.endpoints.waitForSync()]);
  for (const a of cfg.apiServices.list()) queue.add(nameOf(a));
  const sync = async (name: string) => {
    const current = cfg.apiServices.get(name);
    if (!current) return;
    const remote = Boolean((current.spec as Obj | undefined)?.service);
    if (remote) queue.addAfter(name, cfg.recheckMs);
    const result = await checkAvailability(cfg.deps, current);
    const available = result.status === 'True';
    cfg.metrics?.checked(name, available);
    if (conditionMatches(current, result)) return;
    // The informer's copy may lag behind this controller's own last write (two syncs of one
    // name in a row): what the condition was, and whether this write changes it, are read from
    // the object the write starts from, so one transition is counted once.
    let wasAvailable = false;
    let changes = false;
    await updateObject(cfg.ctx, cfg.statusStore, '', name, (obj) => {
      wasAvailable = conditionsOf(obj).some((c) => c.type === AVAILABLE && c.status === 'True');
      changes = !conditionMatches(obj, result);
      setAvailableCondition(obj, result, now());
    });
    if (changes) cfg.metrics?.written(name, wasAvailable, available, result.reason);
  };
  await queue.run(signal, sync, (err) => cfg.onError(err));
}
