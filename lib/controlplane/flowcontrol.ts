/**
 * Wiring of flow control into our server (issue #16 item 5): with `--enable-priority-and-fairness`
 * (default), API Priority and Fairness — informers over the served FlowSchemas and
 * PriorityLevelConfigurations, the config consumer writing the FlowSchemas' `Dangling`
 * conditions (as upstream's, field manager `api-priority-and-fairness-config-consumer-v1`), the
 * `apiserver_flowcontrol_*` metrics, the object counts the LIST work estimator reads and the
 * event-loop pressure (`--max-event-loop-delay`, `--event-loop-shed-levels`);
 * without it, the max-in-flight limits.
 */
import { Informer } from '../client/informer.js';
import { flowControlStores } from '../controllers/flowcontrol-bootstrap/ensure.js';
import { updateObject } from '../controllers/writes.js';
import { APFController, type DanglingCondition } from '../flowcontrol/controller.js';
import { eventLoopDelaySampler } from '../flowcontrol/loop-pressure.js';
import { APFMetrics } from '../flowcontrol/metrics.js';
import type { ObjectCounts } from '../flowcontrol/work-estimator.js';
import type { Obj } from '../apis/define.js';
import { FLOWCONTROL_GROUP } from '../apis/flowcontrol/v1/index.js';
import type { RequestContext } from '../request/context.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import type { HandlerChainConfig } from '../server/handler-chain.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { ServerMetrics } from '../server/metrics.js';
import { defaultFlowControlFlags, type FlowControlFlags } from '../server/options/flowcontrol-flags.js';

/** Upstream's post-start hook of the config consumer. */
export const APF_CONSUMER_HOOK = 'priority-and-fairness-config-consumer';
/** Upstream's field manager of the Dangling condition writes. */
export const APF_CONSUMER_FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';

/** What the wiring needs from the control plane. */
export interface FlowControlDeps {
  resources: readonly ResourceStorage[];
  metrics: ServerMetrics;
  /** A privileged internal context (status writes). */
  ctx: RequestContext;
  /** Non-long-running request deadline (ms); queued requests wait at most a quarter of it. */
  requestTimeoutMs: number;
  signal: AbortSignal;
  /** Stored object counts, fed by the watch caches (the LIST work estimator reads them). */
  objectCounts: ObjectCounts;
  onError: (what: string) => (err: unknown) => void;
}

/** Flow control of one server. */
export interface FlowControl {
  /** For the handler chain. */
  filter: NonNullable<HandlerChainConfig['flowControl']>;
  /** The APF controller, absent without APF. */
  apf?: APFController;
  addHooks(hooks: PostStartHooks): void;
}

/** Builds flow control from the flags (default: upstream's). */
export function newFlowControl(flags: FlowControlFlags | undefined, deps: FlowControlDeps): FlowControl {
  const f = flags ?? defaultFlowControlFlags();
  if (!f.enablePriorityAndFairness) {
    return { filter: { maxRequestsInFlight: f.maxRequestsInFlight, maxMutatingRequestsInFlight: f.maxMutatingRequestsInFlight }, addHooks: () => undefined };
  }
  const stores = flowControlStores(deps.resources);
  const status = deps.resources.find((r) => r.store.strategy.kind.group === FLOWCONTROL_GROUP && r.store.strategy.kind.resource === 'flowschemas')?.subresources.get('status');
  const informer = (store: typeof stores.flowSchemas, what: string) => new Informer(store.storage, store.prefixFor(''), deps.onError(what));
  const ctx: RequestContext = { ...deps.ctx, userAgent: APF_CONSUMER_FIELD_MANAGER };
  const writeDangling = async (name: string, c: DanglingCondition) => {
    await updateObject(ctx, status!, '', name, (obj: Obj) => {
      const st = ((obj.status ??= {}) as Obj);
      const conditions = ((st.conditions as Obj[] | undefined) ?? []).filter((x) => x.type !== c.type);
      st.conditions = [...conditions, { ...c, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }];
    });
  };
  const apf = new APFController({
    flowSchemas: informer(stores.flowSchemas, 'flowschema informer'),
    priorityLevels: informer(stores.priorityLevels, 'prioritylevelconfiguration informer'),
    serverConcurrencyLimit: f.maxRequestsInFlight + f.maxMutatingRequestsInFlight,
    metrics: new APFMetrics(deps.metrics.stabilityRegistry),
    objectCounts: deps.objectCounts,
    requestWaitLimitMs: deps.requestTimeoutMs / 4,
    ...(status && { writeDangling }),
    ...(f.maxEventLoopDelayMs > 0 && { loopPressure: { limitMs: f.maxEventLoopDelayMs, shedLevels: f.eventLoopShedLevels, startSampler: eventLoopDelaySampler } }),
    onError: deps.onError('priority and fairness'),
  });
  return {
    filter: { apf },
    apf,
    addHooks(hooks) {
      hooks.add(APF_CONSUMER_HOOK, () => apf.run(deps.signal));
    },
  };
}
