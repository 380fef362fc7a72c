/**
 * The events API (issue #12 item 1): `events.<vendor>/v1` events, served over the core/v1 Event
 * storage — one storage, one watch cache — through stores with the events/v1 rules.
 */
import { eventV1Conversion } from '../../apis/events/v1/index.js';
import { keyRootFor, type ResourceStorage } from '../generic/resource-storage.js';
import { Store } from '../generic/store.js';
import { eventV1Strategy } from './event/strategy.js';

/** Serves the core Event storage `core` as `events.<vendor>/v1` too; returns `core`. */
export function withEventsV1(core: ResourceStorage, prefix: string): ResourceStorage {
  const kind = core.store.strategy.kind;
  const store = new Store({ storage: core.store.storage, keyRoot: keyRootFor(prefix, kind.group, kind.resource), strategy: eventV1Strategy });
  core.versions = [...(core.versions ?? []), { conversion: eventV1Conversion, store, subresources: new Map() }];
  return core;
}
