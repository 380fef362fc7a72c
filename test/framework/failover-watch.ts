/**
 * A list+watch client over several replicas of the server, as an informer behaves across a
 * replica failure (issue #16 § HA replicas): it lists once, watches from the list's
 * resourceVersion with bookmarks, and when a watch breaks it watches again on the next replica
 * from the last resourceVersion it saw; a 410 Gone makes it list again. It records what a test
 * needs to prove there was no gap and no duplicate.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestClient, WatchStream } from './client.js';

/** A resumption after a broken watch: when the break was seen and how long until a watch was open again (ms). */
export interface Resumption {
  brokenAt: number;
  resumedAfterMs: number;
  /** Index of the replica the watch resumed on. */
  replica: number;
}

/** A list+watch of one collection path (`/api/v1/namespaces/default/configmaps`). */
export class FailoverWatch {
  /** name → resourceVersion of every object the client believes exists. */
  readonly state = new Map<string, string>();
  /** Names delivered as ADDED (or listed) more than once while present. */
  readonly duplicates: string[] = [];
  /** MODIFIED or DELETED events for unknown names: evidence of a missed ADDED. */
  readonly gaps: string[] = [];
  readonly resumptions: Resumption[] = [];
  /** Lists done (1 + relists after 410). */
  lists = 0;
  /** The last resourceVersion seen (list, event or bookmark). */
  resourceVersion = '';
  /** Index of the replica the current watch runs on. */
  replica: number;
  private stopped = false;
  private stream: WatchStream | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly replicas: TestClient[],
    private readonly path: string,
    firstReplica = 0,
  ) {
    this.replica = firstReplica;
  }

  /** Lists and opens the first watch; events are then applied in the background. */
  async start(): Promise<void> {
    await this.list();
    this.stream = await this.open();
    this.loop = this.run();
  }

  /** Stops watching; resolves when the background loop has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stream?.close();
    await this.loop;
  }

  private async list(): Promise<void> {
    for (;;) {
      const res = await this.replicas[this.replica]!.get(this.path).catch(() => undefined);
      if (res?.status === 200) {
        this.state.clear();
        for (const item of res.body.items) this.state.set(item.metadata.name, item.metadata.resourceVersion);
        this.resourceVersion = res.body.metadata.resourceVersion;
        this.lists++;
        return;
      }
      this.replica = (this.replica + 1) % this.replicas.length;
      await sleep(50);
    }
  }

  /** Opens a watch from {@link resourceVersion}, trying replicas in turn; undefined when stopped. */
  private async open(): Promise<WatchStream | undefined> {
    while (!this.stopped) {
      const url = `${this.path}?watch=1&allowWatchBookmarks=true&resourceVersion=${this.resourceVersion}`;
      const w = await this.replicas[this.replica]!.watch(url).catch(() => undefined);
      if (w?.status === 200) return w;
      w?.close();
      if (w?.status === 410) await this.list();
      else this.replica = (this.replica + 1) % this.replicas.length;
      await sleep(50);
    }
    return undefined;
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.stream !== undefined) {
      const ev = await this.stream.next(3_600_000).catch(() => null);
      if (ev === null) {
        if (this.stopped) return;
        const brokenAt = Date.now();
        this.replica = (this.replica + 1) % this.replicas.length;
        this.stream = await this.open();
        if (this.stream !== undefined) this.resumptions.push({ brokenAt, resumedAfterMs: Date.now() - brokenAt, replica: this.replica });
        continue;
      }
      this.apply(ev);
      if (ev.type === 'ERROR' && ev.object?.code === 410) {
        this.stream.close();
        await this.list();
        this.stream = await this.open();
      }
    }
  }

  private apply(ev: { type: string; object: { code?: number; metadata: { name: string; resourceVersion: string } } }): void {
    if (ev.type === 'ERROR') return;
    this.resourceVersion = ev.object.metadata.resourceVersion;
    if (ev.type === 'BOOKMARK') return;
    const { name, resourceVersion } = ev.object.metadata;
    if (ev.type === 'ADDED') {
      if (this.state.has(name)) this.duplicates.push(name);
      this.state.set(name, resourceVersion);
    } else if (ev.type === 'MODIFIED') {
      if (!this.state.has(name)) this.gaps.push(name);
      this.state.set(name, resourceVersion);
    } else if (ev.type === 'DELETED') {
      if (!this.state.delete(name)) this.gaps.push(name);
    }
  }
}
