/**
 * Storage metrics (upstream apiserver/pkg/storage/etcd3/metrics, v1.30): the latency, count and
 * failures of every etcd request by operation and object type, the cost of LISTs served from
 * etcd, the stored object counts and the size of the etcd database. The storage layer records
 * through {@link EtcdResourceMetrics}, bound once per resource so a request costs one histogram
 * observation and one counter increment.
 */
import type { Counter, Gauge, Histogram } from 'prom-client';
import type { HistogramDeclaration, MetricDeclaration, StabilityRegistry } from './registry.js';

/** Upstream's etcd request latency buckets (seconds), the same as `apiserver_request_duration_seconds`. */
export const ETCD_REQUEST_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

const OP_TYPE = ['operation', 'type'] as const;
const RESOURCE = ['resource'] as const;

const ETCD_LATENCY = {
  name: 'etcd_request_duration_seconds',
  help: 'Etcd request latency in seconds for each operation and object type.',
  labelNames: OP_TYPE,
  buckets: ETCD_REQUEST_BUCKETS,
  stabilityLevel: 'ALPHA',
} as const satisfies HistogramDeclaration<string>;
const ETCD_REQUESTS = { name: 'etcd_requests_total', help: 'Etcd request counts for each operation and object type.', labelNames: OP_TYPE, stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const ETCD_ERRORS = { name: 'etcd_request_errors_total', help: 'Etcd failed request counts for each operation and object type.', labelNames: OP_TYPE, stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const OBJECTS = { name: 'apiserver_storage_objects', help: 'Number of stored objects at the time of last check split by kind.', labelNames: RESOURCE, stabilityLevel: 'STABLE' } as const satisfies MetricDeclaration<string>;
const DB_TOTAL_SIZE = {
  name: 'apiserver_storage_db_total_size_in_bytes',
  help: 'Total size of the storage database file physically allocated in bytes.',
  labelNames: ['endpoint'],
  stabilityLevel: 'ALPHA',
  deprecatedVersion: '1.28.0',
} as const satisfies MetricDeclaration<string>;
const SIZE = { name: 'apiserver_storage_size_bytes', help: 'Size of the storage database file physically allocated in bytes.', labelNames: ['storage_cluster_id'], stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const EVENTS_RECEIVED = { name: 'apiserver_storage_events_received_total', help: 'Number of etcd events received split by kind.', labelNames: RESOURCE, stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const BOOKMARKS = { name: 'etcd_bookmark_counts', help: 'Number of etcd bookmarks (progress notify events) split by kind.', labelNames: RESOURCE, stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const LIST_TOTAL = { name: 'apiserver_storage_list_total', help: 'Number of LIST requests served from storage', labelNames: RESOURCE, stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const LIST_FETCHED = {
  name: 'apiserver_storage_list_fetched_objects_total',
  help: 'Number of objects read from storage in the course of serving a LIST request',
  labelNames: RESOURCE,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const LIST_EVALUATED = {
  name: 'apiserver_storage_list_evaluated_objects_total',
  help: 'Number of objects tested in the course of serving a LIST request from storage',
  labelNames: RESOURCE,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const LIST_RETURNED = {
  name: 'apiserver_storage_list_returned_objects_total',
  help: 'Number of objects returned for a LIST request from storage',
  labelNames: RESOURCE,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;

/** An etcd operation as upstream's store labels it. */
export type EtcdOperation = 'create' | 'get' | 'list' | 'listWithCount' | 'update' | 'delete' | 'getCount';

/** The storage metrics of one resource (`type`/`resource` label: upstream's group-resource string, `pods`, `deployments.apps`). */
export interface EtcdResourceMetrics {
  /** One etcd request of `operation` that started at `startNs` (process.hrtime.bigint()); `failed`: it threw. */
  request(operation: EtcdOperation, startNs: bigint, failed: boolean): void;
  /** One LIST served from etcd: objects read, tested against the predicate, returned. */
  list(fetched: number, evaluated: number, returned: number): void;
  /** One event received from an etcd watch. */
  eventReceived(): void;
  /** One progress notification received from an etcd watch. */
  bookmark(): void;
}

/** Reads the etcd database size in bytes (etcd's Status `dbSize`); rejects when etcd does not answer. */
export type DBSizeSource = () => Promise<number>;

/** How long a scrape waits for the database size (upstream: 1s). */
const DB_SIZE_TIMEOUT_MS = 1_000;

/**
 * The storage metrics of one server. `apiserver_storage_size_bytes{storage_cluster_id="etcd-0"}`
 * is read at each scrape from {@link sizeSource} (upstream's monitor collector); nothing is
 * exported for it while no source is set or etcd does not answer within a second.
 */
export class StorageMetrics {
  private readonly latency: Histogram<(typeof OP_TYPE)[number]>;
  private readonly requests: Counter<(typeof OP_TYPE)[number]>;
  private readonly errors: Counter<(typeof OP_TYPE)[number]>;
  private readonly objects: Gauge<'resource'>;
  private readonly eventsReceived: Counter<'resource'>;
  private readonly bookmarks: Gauge<'resource'>;
  private readonly listTotal: Counter<'resource'>;
  private readonly listFetched: Counter<'resource'>;
  private readonly listEvaluated: Counter<'resource'>;
  private readonly listReturned: Counter<'resource'>;
  /** The database size reader; set once the etcd client exists. */
  sizeSource: DBSizeSource | undefined;

  constructor(r: StabilityRegistry) {
    this.latency = r.histogram(ETCD_LATENCY);
    this.requests = r.counter(ETCD_REQUESTS);
    this.errors = r.counter(ETCD_ERRORS);
    this.objects = r.gauge(OBJECTS);
    r.gauge(DB_TOTAL_SIZE);
    const size = async (): Promise<number | undefined> => {
      const source = this.sizeSource;
      if (!source) return undefined;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DB_SIZE_TIMEOUT_MS)));
      try {
        return await Promise.race([source(), timeout]);
      } catch {
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    };
    r.gauge(SIZE, async function () {
      this.reset();
      const bytes = await size();
      if (bytes !== undefined) this.set({ storage_cluster_id: 'etcd-0' }, bytes);
    });
    this.eventsReceived = r.counter(EVENTS_RECEIVED);
    this.bookmarks = r.gauge(BOOKMARKS);
    this.listTotal = r.counter(LIST_TOTAL);
    this.listFetched = r.counter(LIST_FETCHED);
    this.listEvaluated = r.counter(LIST_EVALUATED);
    this.listReturned = r.counter(LIST_RETURNED);
  }

  /** The recorder of one resource, its label objects built once. */
  forResource(groupResource: string): EtcdResourceMetrics {
    const byOp = new Map<EtcdOperation, { operation: string; type: string }>();
    const labelsOf = (operation: EtcdOperation) => {
      let l = byOp.get(operation);
      if (!l) byOp.set(operation, (l = { operation, type: groupResource }));
      return l;
    };
    const resource = { resource: groupResource };
    return {
      request: (operation, startNs, failed) => {
        const labels = labelsOf(operation);
        this.latency.observe(labels, Number(process.hrtime.bigint() - startNs) / 1e9);
        this.requests.inc(labels);
        if (failed) this.errors.inc(labels);
      },
      list: (fetched, evaluated, returned) => {
        this.listTotal.inc(resource);
        this.listFetched.inc(resource, fetched);
        this.listEvaluated.inc(resource, evaluated);
        this.listReturned.inc(resource, returned);
      },
      eventReceived: () => this.eventsReceived.inc(resource),
      bookmark: () => this.bookmarks.inc(resource),
    };
  }

  /** `apiserver_storage_objects{resource}` = `count` (the group-resource string). */
  setObjectCount(groupResource: string, count: number): void {
    this.objects.set({ resource: groupResource }, count);
  }
}

/** Upstream's group-resource string: `resource` for the core group, else `resource.group`. */
export function groupResourceString(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}
