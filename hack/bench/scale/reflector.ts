/**
 * The list-then-watch loop of a kubelet or an informer in the simulated cluster (issue #24 item
 * 5), as client-go's reflector runs it: a list at `resourceVersion=0`, then a watch from the
 * list's revision with bookmarks; a watch that ends is resumed from the last revision seen, and
 * one answered 410 Gone starts again with a list (a relist, counted).
 */
import type { ClusterClient, WatchEvent, WatchHandle } from './client.js';

/** What a reflector watches and where its events go. */
export interface ReflectorConfig {
  /** The collection's path, e.g. `/api/v1/pods`. */
  path: string;
  /** Query parameters of both the list and the watch (e.g. a field selector). */
  query?: Record<string, string>;
  /** Each object of the initial list, and after a relist. */
  onListed(obj: { metadata: { name: string; namespace?: string; resourceVersion: string } }): void;
  /** Each watch event but bookmarks, at the time it arrived (ms, performance.now). */
  onEvent(ev: WatchEvent, at: number): void;
}

/** A running reflector. */
export class Reflector {
  relists = 0;
  failures = 0;
  events = 0;
  private rv = '0';
  private handle?: WatchHandle;
  private stopped = false;
  private readonly loop: Promise<void>;
  /** Resolves once the first list is done. */
  readonly synced: Promise<void>;

  constructor(
    private readonly client: ClusterClient,
    private readonly cfg: ReflectorConfig,
  ) {
    let markSynced!: () => void;
    this.synced = new Promise((resolve) => (markSynced = resolve));
    this.loop = this.run(markSynced);
  }

  private query(extra: Record<string, string>): string {
    return new URLSearchParams({ ...this.cfg.query, ...extra }).toString();
  }

  private async list(): Promise<void> {
    const reply = await this.client.call('GET', `${this.cfg.path}?${this.query({ resourceVersion: '0' })}`);
    if (reply.status !== 200) throw new Error(`list ${this.cfg.path}: ${reply.status}`);
    for (const obj of reply.body.items) this.cfg.onListed(obj);
    this.rv = reply.body.metadata.resourceVersion;
  }

  private async run(markSynced: () => void): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      try {
        if (needList) {
          await this.list();
          markSynced();
          needList = false;
        }
        let gone = false;
        this.handle = this.client.watch(`${this.cfg.path}?${this.query({ watch: '1', resourceVersion: this.rv, allowWatchBookmarks: 'true' })}`, (ev) => {
          const at = performance.now();
          if (ev.type === 'ERROR') {
            if (ev.object?.code === 410) gone = true;
            return;
          }
          this.rv = ev.object.metadata.resourceVersion;
          if (ev.type === 'BOOKMARK') return;
          this.events++;
          this.cfg.onEvent(ev, at);
        });
        await this.handle.done;
        if (gone) {
          this.relists++;
          needList = true;
        }
      } catch (err) {
        if (this.stopped) return;
        if ((err as { status?: number }).status === 410) {
          this.relists++;
          needList = true;
          continue;
        }
        this.failures++;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /** Stops watching; resolves once the loop ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.handle?.stop();
    await this.loop;
  }
}
