/**
 * The server's shared in-process informers (lib/client/informer.ts), one per served resource at
 * most: admission plugins, authorizers and controllers that read the same resource share one
 * cache and one watch (spec 000 § Resource versions: list, then watch from the list's version).
 */
import { Informer } from '../client/informer.js';
import type { HealthCheck } from '../server/healthz/checks.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';

/** Informers by `group/resource`, created on first request and run together. */
export class SharedInformers {
  private readonly informers = new Map<string, Informer>();
  private readonly started = new Set<Informer>();
  /** Set once `run` was called: informers asked for later start at once. */
  private signal: AbortSignal | undefined;

  constructor(
    private readonly resources: readonly ResourceStorage[],
    private readonly onError: (what: string) => (err: unknown) => void,
  ) {}

  /** The served resource `group`/`resource` (group '' = core). @throws Error when it is not served. */
  resourceStorage(group: string, resource: string): ResourceStorage {
    const r = this.resources.find((x) => x.store.strategy.kind.group === group && x.store.strategy.kind.resource === resource);
    if (!r) throw new Error(`the control plane serves no resource ${resource}${group ? `.${group}` : ''}`);
    return r;
  }

  /** The informer of `group`/`resource`, created when first asked for (and started, once `run` was called). @throws Error when it is not served. */
  informer(group: string, resource: string): Informer {
    const key = `${group}/${resource}`;
    let inf = this.informers.get(key);
    if (!inf) {
      const { store } = this.resourceStorage(group, resource);
      inf = new Informer(store.storage, store.prefixFor(''), this.onError(`${resource} informer`));
      this.informers.set(key, inf);
      if (this.signal && !this.signal.aborted) {
        this.started.add(inf);
        void inf.run(this.signal);
      }
    }
    return inf;
  }

  /** Adopts an informer made elsewhere for `group`/`resource`, so that later requests share it. */
  adopt(group: string, resource: string, informer: Informer, running: boolean): void {
    this.informers.set(`${group}/${resource}`, informer);
    if (running) this.started.add(informer);
  }

  /**
   * The `informer-sync` check of `/readyz` (upstream's InformerSyncHealthz over its shared
   * informer factories): fails while an informer this set has started has not loaded its first
   * list, naming them (`2 informers not started yet: [*v1.Namespace *v1.Secret]`, upstream's
   * wording: Go types, sorted).
   */
  readonly syncCheck: HealthCheck = {
    name: 'informer-sync',
    check: async () => {
      const waiting: string[] = [];
      for (const [key, inf] of this.informers) if (this.started.has(inf) && !inf.hasSynced) waiting.push(this.typeName(key));
      if (waiting.length > 0) throw new Error(`${waiting.length} informers not started yet: [${waiting.sort().join(' ')}]`);
    },
  };

  /** The Go type upstream names an informer by: `*<version>.<Kind>` of the resource's storage version. */
  private typeName(key: string): string {
    const slash = key.indexOf('/');
    const { kind } = this.resourceStorage(key.slice(0, slash), key.slice(slash + 1)).store.strategy;
    return `*${kind.version}.${kind.kind}`;
  }

  /**
   * Starts every informer not yet running (until `signal` aborts) and resolves once all have
   * synced; informers asked for afterwards start when they are created (their caches fill shortly
   * after: callers fall back to storage reads until then).
   */
  async run(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    for (const inf of this.informers.values()) {
      if (this.started.has(inf)) continue;
      this.started.add(inf);
      void inf.run(signal);
    }
    await Promise.all([...this.informers.values()].map((inf) => inf.waitForSync()));
  }
}
