/**
 * The simulated cluster (issue #24 item 5), in the manner of KWOK: the API traffic of N nodes
 * and their Pods with no real node behind it.
 * - setup: namespaces, N Nodes, their Leases, N × podsPerNode Pods bound to them;
 * - one kubelet per node: watches its Pods (`fieldSelector=spec.nodeName=<node>`), renews its
 *   Lease every 10 s, heartbeats its Node status every 60 s, and confirms a graceful deletion of
 *   one of its Pods with a `gracePeriodSeconds=0` delete, as a kubelet does once the containers
 *   stopped;
 * - the control plane's traffic: Pod status updates at N/10 a second (as kubelets report probes),
 *   a churn of graceful deletes whose Pods are created again once gone, 20 informers (8 on Pods,
 *   6 on Nodes, 6 on Leases) and a quorum LIST of every Pod every 15 s.
 */
import type { ClusterClient, Reply } from './client.js';
import { lease, node, nodeName, nodeStatusPatch, PATHS, pod, podNamespace, podStatusPatch } from './objects.js';
import { Reflector } from './reflector.js';
import { type VerbStats, WatchLag } from './recorder.js';

/** The size and rates of the simulated cluster. */
export interface ClusterShape {
  nodes: number;
  podsPerNode: number;
  namespaces: number;
  /** Graceful Pod deletions a second (each Pod created again once gone). */
  churnPerSecond: number;
  /** Pod status updates a second. */
  podStatusPerSecond: number;
}

/**
 * Who sends each part of the load: with a server started here, each kubelet as its node
 * (`system:node:<name>` in `system:nodes`, authorized by the Node authorizer and classified by
 * APF as upstream's kubelets are), the informers and the churn as the controller manager, the
 * full lists as an ordinary user; with a given server, one identity for all.
 */
export interface Identities {
  admin: ClusterClient;
  node(i: number): ClusterClient;
  controllers: ClusterClient;
  lister: ClusterClient;
}

/** The requests the benchmark times, by name (the report's rows). */
export type Verb = 'PUT lease' | 'PATCH node status' | 'PATCH pod status' | 'DELETE pod (graceful)' | 'DELETE pod (kubelet)' | 'POST pod' | 'LIST pods (quorum)';

type Meta = { name: string; namespace?: string; resourceVersion: string; uid?: string; deletionTimestamp?: string };
type Obj = { metadata: Meta };

/** Requests in flight allowed per open-loop generator before new ones are skipped (and counted). */
const MAX_IN_FLIGHT = 2000;

/** Runs `op` for every index below `count`, `concurrency` at a time. */
async function forEachIndex(count: number, concurrency: number, op: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    for (let i = next++; i < count; i = next++) await op(i);
  }));
}

/** A simulated cluster against one server. */
export class SimulatedCluster {
  readonly lag = new WatchLag();
  /** Requests an open-loop generator skipped because too many of its own were in flight. */
  skipped = 0;
  /** How long each timed request waited for one of the generator's pooled connections (ms). */
  readonly connectionWaits: number[] = [];
  private readonly kubelets: Reflector[] = [];
  private readonly informers: Reflector[] = [];
  /** Each node's Pods as its kubelet's watch shows them, by name. */
  private readonly podsOf: Map<string, Obj>[];
  /** Each node's Lease as its last renewal returned it. */
  private readonly leases: (Obj | undefined)[];
  /** Pods whose graceful deletion a kubelet confirmed, to be created again once gone. */
  private readonly confirming = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private running = false;
  private inFlight = 0;
  /** Timed requests sent and not answered yet (every kind, the full LIST included). */
  private unanswered = 0;
  private listing = false;
  private statusUpdates = 0;

  constructor(
    private readonly ids: Identities,
    private readonly shape: ClusterShape,
    private readonly stats: Record<Verb, VerbStats>,
  ) {
    this.podsOf = Array.from({ length: shape.nodes }, () => new Map());
    this.leases = new Array(shape.nodes);
  }

  /** `client` calls the server, timed under `verb`; a 2xx answer, or one of `okStatus`, succeeds. */
  private async timed(client: ClusterClient, verb: Verb, method: string, path: string, body?: unknown, contentType?: string, okStatus = 0): Promise<Reply | undefined> {
    const t0 = performance.now();
    this.unanswered++;
    try {
      const reply = await client.call(method, path, body, contentType);
      this.connectionWaits.push(reply.connectionWaitMs);
      const ok = (reply.status >= 200 && reply.status < 300) || reply.status === okStatus;
      this.stats[verb].add(t0, performance.now() - t0, ok ? undefined : `${reply.status} ${reply.body?.message ?? ''}`);
      return ok ? reply : undefined;
    } catch (err) {
      this.stats[verb].add(t0, performance.now() - t0, err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      this.unanswered--;
    }
  }

  /** Creates the namespaces, Nodes, Leases and Pods (`concurrency` requests at a time). */
  async setup(concurrency: number, progress: (what: string) => void): Promise<void> {
    const { nodes, podsPerNode, namespaces } = this.shape;
    const admin = this.ids.admin;
    const create = async (path: string, obj: unknown): Promise<Reply> => {
      const reply = await admin.call('POST', path, obj);
      if (reply.status !== 201 && reply.status !== 409) throw new Error(`POST ${path}: ${reply.status} ${reply.body?.message ?? ''}`);
      return reply;
    };
    await forEachIndex(namespaces, concurrency, async (k) => void (await create(PATHS.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `scale-${k}` } })));
    // Pods need their namespace's default ServiceAccount (the ServiceAccount admission plugin).
    await forEachIndex(namespaces, concurrency, async (k) => {
      for (let tries = 0; (await admin.call('GET', PATHS.serviceAccount(`scale-${k}`))).status !== 200; tries++) {
        if (tries > 300) throw new Error(`namespace scale-${k} has no default ServiceAccount after 30 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    await forEachIndex(nodes, concurrency, async (i) => {
      await create(PATHS.nodes, node(i));
      this.leases[i] = (await create(PATHS.leases, lease(i))).body;
    });
    progress(`${nodes} nodes and leases`);
    const total = nodes * podsPerNode;
    await forEachIndex(total, concurrency, async (n) => {
      const i = Math.floor(n / podsPerNode);
      await create(PATHS.pods(podNamespace(i, namespaces)), pod(i, n % podsPerNode, namespaces));
      if ((n + 1) % 10_000 === 0) progress(`${n + 1} pods`);
    });
  }

  /** Starts the kubelets' and informers' list-and-watch loops; resolves once all have listed. */
  async startWatches(): Promise<void> {
    for (let i = 0; i < this.shape.nodes; i++) {
      const pods = this.podsOf[i]!;
      this.kubelets.push(
        new Reflector(this.ids.node(i), {
          path: PATHS.allPods,
          query: { fieldSelector: `spec.nodeName=${nodeName(i)}` },
          onListed: (obj) => void pods.set(obj.metadata.name, obj),
          onEvent: (ev, at) => {
            const m = ev.object.metadata as Meta;
            this.lag.seen(m.namespace!, m.name, m.resourceVersion, at);
            if (ev.type === 'DELETED') {
              pods.delete(m.name);
              if (this.confirming.delete(`${m.namespace}/${m.name}`) && this.running) void this.recreate(i, m.name);
              return;
            }
            pods.set(m.name, ev.object);
            if (m.deletionTimestamp && !this.confirming.has(`${m.namespace}/${m.name}`)) void this.confirmDeletion(i, m);
          },
        }),
      );
    }
    const informer = (path: string) => new Reflector(this.ids.controllers, { path, onListed: () => undefined, onEvent: () => undefined });
    for (let k = 0; k < 8; k++) this.informers.push(informer(PATHS.allPods));
    for (let k = 0; k < 6; k++) this.informers.push(informer(PATHS.nodes));
    for (let k = 0; k < 6; k++) this.informers.push(informer(PATHS.leases));
    await Promise.all([...this.kubelets, ...this.informers].map((r) => r.synced));
  }

  /** The kubelet of node `i` confirms the graceful deletion of its Pod (grace 0, on the Pod's uid). */
  private async confirmDeletion(i: number, m: Meta): Promise<void> {
    this.confirming.add(`${m.namespace}/${m.name}`);
    const body = { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: m.uid } };
    await this.timed(this.ids.node(i), 'DELETE pod (kubelet)', 'DELETE', `${PATHS.pods(m.namespace!)}/${m.name}`, body, undefined, 404);
  }

  /** Creates again a Pod the churn deleted (same name, same node). */
  private async recreate(i: number, name: string): Promise<void> {
    const j = Number(name.slice(name.lastIndexOf('-p') + 2));
    await this.timed(this.ids.controllers, 'POST pod', 'POST', PATHS.pods(podNamespace(i, this.shape.namespaces)), pod(i, j, this.shape.namespaces));
  }

  /** A random Pod a kubelet knows and that is not being deleted, with its node, or undefined. */
  private randomPod(): [number, Obj] | undefined {
    for (let tries = 0; tries < 10; tries++) {
      const i = Math.floor(Math.random() * this.shape.nodes);
      const pods = [...this.podsOf[i]!.values()].filter((p) => !p.metadata.deletionTimestamp);
      if (pods.length > 0) return [i, pods[Math.floor(Math.random() * pods.length)]!];
    }
    return undefined;
  }

  /** Runs `op` `perSecond` times a second in 10 ms ticks (open loop, in-flight capped). */
  private every(perSecond: number, op: () => Promise<void>): void {
    let owed = 0;
    this.timers.push(
      setInterval(() => {
        owed += perSecond / 100;
        for (; owed >= 1; owed--) {
          if (this.inFlight >= MAX_IN_FLIGHT) {
            this.skipped++;
            continue;
          }
          this.inFlight++;
          void op().finally(() => this.inFlight--);
        }
      }, 10),
    );
  }

  /** Starts the steady load: leases, node heartbeats, Pod status updates, churn, full lists. */
  startLoad(): void {
    this.running = true;
    const { nodes } = this.shape;
    for (let i = 0; i < nodes; i++) {
      // Each kubelet renews every 10 s and heartbeats every 60 s, from a random phase.
      this.timers.push(setTimeout(() => void this.renewLoop(i), Math.random() * 10_000));
      this.timers.push(setTimeout(() => void this.heartbeatLoop(i), Math.random() * 60_000));
    }
    this.every(this.shape.podStatusPerSecond, async () => {
      const picked = this.randomPod();
      if (!picked) return;
      const [i, p] = picked;
      const m = p.metadata;
      const j = Number(m.name.slice(m.name.lastIndexOf('-p') + 2));
      const patch = podStatusPatch(i, j, this.statusUpdates++);
      // 404: the churn deleted the Pod while the patch was on its way (the kubelet had not seen
      // the deletion yet when it picked the Pod), the answer a kubelet gets then too.
      const reply = await this.timed(this.ids.node(i), 'PATCH pod status', 'PATCH', `${PATHS.pods(m.namespace!)}/${m.name}/status`, patch, 'application/merge-patch+json', 404);
      if (reply?.status === 200) this.lag.acknowledged(m.namespace!, m.name, reply.body.metadata.resourceVersion, performance.now());
    });
    this.every(this.shape.churnPerSecond, async () => {
      const picked = this.randomPod();
      if (!picked) return;
      const m = picked[1].metadata;
      const reply = await this.timed(this.ids.controllers, 'DELETE pod (graceful)', 'DELETE', `${PATHS.pods(m.namespace!)}/${m.name}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 30 }, undefined, 404);
      if (reply?.body?.metadata?.deletionTimestamp) this.lag.acknowledged(m.namespace!, m.name, reply.body.metadata.resourceVersion, performance.now());
    });
    this.timers.push(
      setInterval(() => {
        if (this.listing) return;
        this.listing = true;
        this.unanswered++;
        const t0 = performance.now();
        this.ids.lister.drain('GET', PATHS.allPods).then(
          (r) => this.stats['LIST pods (quorum)'].add(t0, performance.now() - t0, r.status === 200 ? undefined : String(r.status)),
          (err: Error) => this.stats['LIST pods (quorum)'].add(t0, performance.now() - t0, err.message),
        ).finally(() => {
          this.listing = false;
          this.unanswered--;
        });
      }, 15_000),
    );
  }

  private async renewLoop(i: number): Promise<void> {
    while (this.running) {
      const started = performance.now();
      const renewed = lease(i);
      const rv = this.leases[i]?.metadata.resourceVersion;
      const reply = await this.timed(this.ids.node(i), 'PUT lease', 'PUT', `${PATHS.leases}/${nodeName(i)}`, rv ? { ...renewed, metadata: { ...renewed.metadata, resourceVersion: rv } } : renewed);
      if (reply) this.leases[i] = reply.body;
      else this.leases[i] = (await this.ids.node(i).call('GET', `${PATHS.leases}/${nodeName(i)}`).catch(() => undefined))?.body;
      await new Promise((r) => this.timers.push(setTimeout(r, Math.max(0, 10_000 - (performance.now() - started)))));
    }
  }

  private async heartbeatLoop(i: number): Promise<void> {
    while (this.running) {
      await this.timed(this.ids.node(i), 'PATCH node status', 'PATCH', `${PATHS.nodes}/${nodeName(i)}/status`, nodeStatusPatch(), 'application/merge-patch+json');
      await new Promise((r) => this.timers.push(setTimeout(r, 60_000)));
    }
  }

  /** Stops the load (requests in flight finish on their own). */
  stopLoad(): void {
    this.running = false;
    for (const t of this.timers) clearTimeout(t);
  }

  /**
   * Resolves once every timed request sent has been answered (or failed), or after `limitMs`, with
   * the number still unanswered. Past saturation the answers come many seconds after the load
   * stopped; the watches must still be open to see their writes, and the server's figures must
   * be read after them.
   */
  async settled(limitMs: number): Promise<number> {
    const until = performance.now() + limitMs;
    while (this.unanswered > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
    return this.unanswered;
  }

  /** Stops every watch. */
  async stopWatches(): Promise<void> {
    await Promise.all([...this.kubelets, ...this.informers].map((r) => r.stop()));
  }

  /** Relists and failed watches of the kubelets and of the informers, and the events they received. */
  watchCounts(): { kubeletRelists: number; informerRelists: number; watchFailures: number; informerEvents: number } {
    const sum = (rs: Reflector[], f: (r: Reflector) => number) => rs.reduce((s, r) => s + f(r), 0);
    return {
      kubeletRelists: sum(this.kubelets, (r) => r.relists),
      informerRelists: sum(this.informers, (r) => r.relists),
      watchFailures: sum([...this.kubelets, ...this.informers], (r) => r.failures),
      informerEvents: sum(this.informers, (r) => r.events),
    };
  }
}
