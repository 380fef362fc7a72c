/**
 * Watch cache metrics (upstream apiserver/pkg/storage/cacher/metrics, v1.30, labelled by the
 * group-resource string, `pods`, `deployments.apps`), and three gauges of ours with no upstream
 * counterpart: the objects, history events and watchers each cache holds
 * (`apiserver_watch_cache_objects`, `_events`, `_watchers`, labelled by the plural resource).
 */
import type { Counter, Gauge } from 'prom-client';
import type { MetricDeclaration, StabilityRegistry } from './registry.js';

const RESOURCE = ['resource'] as const;
const declare = (name: string, help: string) => ({ name, help, labelNames: RESOURCE, stabilityLevel: 'ALPHA' }) as const satisfies MetricDeclaration<string>;

const EVENTS_DISPATCHED = declare('apiserver_watch_cache_events_dispatched_total', 'Counter of events dispatched in watch cache broken by resource type.');
const EVENTS_RECEIVED = declare('apiserver_watch_cache_events_received_total', 'Counter of events received in watch cache broken by resource type.');
const INITIALIZATIONS = declare('apiserver_watch_cache_initializations_total', 'Counter of watch cache initializations broken by resource type.');
const TERMINATED = declare('apiserver_terminated_watchers_total', 'Counter of watchers closed due to unresponsiveness broken by resource type.');
const INIT_EVENTS = declare('apiserver_init_events_total', 'Counter of init events processed in watch cache broken by resource type.');
const CAPACITY = declare('watch_cache_capacity', 'Total capacity of watch cache broken by resource type.');
const RESOURCE_VERSION = declare('apiserver_watch_cache_resource_version', 'Current resource version of watch cache broken by resource type.');
const LIST_TOTAL = {
  name: 'apiserver_cache_list_total',
  help: 'Number of LIST requests served from watch cache',
  labelNames: ['resource_prefix', 'index'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const LIST_FETCHED = {
  name: 'apiserver_cache_list_fetched_objects_total',
  help: 'Number of objects read from watch cache in the course of serving a LIST request',
  labelNames: ['resource_prefix', 'index'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const LIST_RETURNED = {
  name: 'apiserver_cache_list_returned_objects_total',
  help: 'Number of objects returned for a LIST request from watch cache',
  labelNames: ['resource_prefix'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const OBJECTS = declare('apiserver_watch_cache_objects', 'Number of objects held by the watch cache of each resource.');
const EVENTS = declare('apiserver_watch_cache_events', 'Number of events in the history window of the watch cache of each resource (bounded; the memory it holds).');
const WATCHERS = declare('apiserver_watch_cache_watchers', 'Number of watches served by the watch cache of each resource.');

/** What one resource's cacher records (lib/storage/cacher/cacher.ts). */
export interface CacherMetrics {
  /** `n` events entered the cache from its reflector; `dispatched`: some watcher was there to be offered them. */
  events(n: number, dispatched: boolean): void;
  /** The cache was (re)initialized from a list. */
  initialized(): void;
  /** A watch started with `n` synthetic ADDED events of the cache's current state. */
  initEvents(n: number): void;
  /** One LIST served from the cache: objects read, objects returned. */
  listed(fetched: number, returned: number): void;
  /** A watcher was closed because its client did not keep up with its events. */
  terminated(): void;
}

/** The sizes a cacher reports after every change. */
export interface CacheSizes {
  objects: number;
  events: number;
  watchers: number;
  resourceVersion: number;
}

/** The watch cache metrics of one server. */
export class WatchCacheMetrics {
  private readonly dispatched: Counter<'resource'>;
  private readonly received: Counter<'resource'>;
  private readonly initializations: Counter<'resource'>;
  private readonly initEventsTotal: Counter<'resource'>;
  private readonly terminatedWatchers: Counter<'resource'>;
  private readonly capacity: Gauge<'resource'>;
  private readonly resourceVersion: Gauge<'resource'>;
  private readonly listTotal: Counter<'resource_prefix' | 'index'>;
  private readonly listFetched: Counter<'resource_prefix' | 'index'>;
  private readonly listReturned: Counter<'resource_prefix'>;
  private readonly objects: Gauge<'resource'>;
  private readonly events: Gauge<'resource'>;
  private readonly watchers: Gauge<'resource'>;

  constructor(r: StabilityRegistry) {
    this.dispatched = r.counter(EVENTS_DISPATCHED);
    this.received = r.counter(EVENTS_RECEIVED);
    this.initializations = r.counter(INITIALIZATIONS);
    this.initEventsTotal = r.counter(INIT_EVENTS);
    this.terminatedWatchers = r.counter(TERMINATED);
    this.capacity = r.gauge(CAPACITY);
    this.resourceVersion = r.gauge(RESOURCE_VERSION);
    this.listTotal = r.counter(LIST_TOTAL);
    this.listFetched = r.counter(LIST_FETCHED);
    this.listReturned = r.counter(LIST_RETURNED);
    this.objects = r.gauge(OBJECTS);
    this.events = r.gauge(EVENTS);
    this.watchers = r.gauge(WATCHERS);
  }

  /**
   * The recorder of one cache: `groupResource` labels the upstream metrics, `resourcePrefix`
   * (`/pods`, `/deployments.apps`… as upstream's `resource_prefix`) the list metrics, `capacity`
   * the most events its history holds.
   */
  forResource(groupResource: string, resourcePrefix: string, capacity: number): CacherMetrics {
    const resource = { resource: groupResource };
    const list = { resource_prefix: resourcePrefix, index: '' };
    const prefix = { resource_prefix: resourcePrefix };
    this.capacity.set(resource, capacity);
    return {
      events: (n, dispatched) => {
        this.received.inc(resource, n);
        if (dispatched) this.dispatched.inc(resource, n);
      },
      initialized: () => this.initializations.inc(resource),
      initEvents: (n) => {
        if (n > 0) this.initEventsTotal.inc(resource, n);
      },
      listed: (fetched, returned) => {
        this.listTotal.inc(list);
        this.listFetched.inc(list, fetched);
        this.listReturned.inc(prefix, returned);
      },
      terminated: () => this.terminatedWatchers.inc(resource),
    };
  }

  /** Records the sizes of one cache: ours by plural `resource`, the resource version by `groupResource`. */
  sizes(resource: string, groupResource: string, s: CacheSizes): void {
    this.objects.set({ resource }, s.objects);
    this.events.set({ resource }, s.events);
    this.watchers.set({ resource }, s.watchers);
    this.resourceVersion.set({ resource: groupResource }, s.resourceVersion);
  }
}
