/**
 * The LimitRanges of a namespace as LimitRanger sees them (upstream v1.30 GetLimitRanges): the
 * informer cache; when that has none (it may not have caught up with a LimitRange just created),
 * a live list, remembered per namespace for 30 seconds (at most 10 000 namespaces) and shared by
 * concurrent requests, so a namespace without LimitRanges costs one live list per 30 seconds.
 */
import type { Obj } from '../../../apis/define.js';
import type { Lister } from '../../plugin-deps.js';

/** How long a live lookup is trusted (upstream liveTTL). */
export const LIVE_TTL_MS = 30_000;
/** How many namespaces' live lookups are kept (upstream's LRU size). */
export const LIVE_CACHE_SIZE = 10_000;

/** The LimitRanges of a namespace. */
export interface LimitRangeSource {
  /** @throws whatever the live list throws. */
  forNamespace(namespace: string): Promise<Obj[]>;
}

/** {@link LimitRangeSource} over an informer cache and a live list. */
export class LimitRangeLookup implements LimitRangeSource {
  private readonly live = new Map<string, { expiry: number; items: Obj[] }>();
  private readonly inFlight = new Map<string, Promise<Obj[]>>();

  constructor(
    private readonly lister: Lister,
    private readonly liveList: (namespace: string) => Promise<Obj[]>,
    private readonly now: () => number = Date.now,
  ) {}

  async forNamespace(namespace: string): Promise<Obj[]> {
    const cached = this.lister.list(namespace);
    if (cached.length > 0) return cached;
    const entry = this.live.get(namespace);
    if (entry && entry.expiry >= this.now()) {
      this.live.delete(namespace);
      this.live.set(namespace, entry);
      return entry.items;
    }
    let pending = this.inFlight.get(namespace);
    if (!pending) {
      pending = this.lookup(namespace).finally(() => this.inFlight.delete(namespace));
      this.inFlight.set(namespace, pending);
    }
    return pending;
  }

  private async lookup(namespace: string): Promise<Obj[]> {
    const items = await this.liveList(namespace);
    this.live.delete(namespace);
    this.live.set(namespace, { expiry: this.now() + LIVE_TTL_MS, items });
    if (this.live.size > LIVE_CACHE_SIZE) {
      const oldest = this.live.keys().next().value;
      if (oldest !== undefined) this.live.delete(oldest);
    }
    return items;
  }
}
