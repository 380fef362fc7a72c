/**
 * The Node authorizer's graph (spec 001 § Node authorization; upstream's node authorizer graph):
 * vertices for API objects, edges pointing toward the nodes that may read them.
 *
 *   node <- pod                          (the pod is bound to the node)
 *   pod  <- secret, configmap, pvc, serviceAccount, resourceclaim   (the pod uses it)
 *   pvc  <- pv <- secret                 (the volume is bound to the claim; it names the secret)
 *   node <- volumeattachment
 *
 * An edge that leads to exactly one node (everything except pv -> pvc and secret -> pv) records
 * that node, its destination; a vertex with more than {@link DESTINATION_INDEX_THRESHOLD} outgoing
 * edges (a service account or config map shared by many pods) also counts them by destination, as
 * upstream's destination edge index does. So "may node N read object X" is one map lookup on a
 * shared object, a scan of at most that many edges on any other, plus, for persistent volumes and
 * their secrets, a walk over the few edges without a destination: never O(graph). A Pod's vertex,
 * with its one edge to its node, holds no index (about a fifth of the graph's memory per Pod).
 */

/** The kinds of vertex. */
export type VertexType = 'configmap' | 'node' | 'pod' | 'pvc' | 'pv' | 'resourceclaim' | 'secret' | 'volumeattachment' | 'serviceAccount';

/** What the graph needs of a pod bound to a node (lib/apis/core/v1/pod-references.ts computes the names). */
export interface PodReferences {
  namespace: string;
  name: string;
  /** `spec.nodeName`; never empty (unbound pods are not in the graph). */
  nodeName: string;
  /** True for a mirror pod: it gets only its edge to the node, never edges granting other objects. */
  mirror: boolean;
  serviceAccountName: string;
  secrets: readonly string[];
  configMaps: readonly string[];
  claims: readonly string[];
  resourceClaims: readonly string[];
}

/** What the graph needs of a PersistentVolume: the claim it is bound to and the secrets the node agent reads for it. */
export interface PVReferences {
  name: string;
  /** `spec.claimRef`; absent for an unbound volume (which then gets no edges). */
  claim?: { namespace: string; name: string };
  secrets: readonly { namespace: string; name: string }[];
}

/** Outgoing edges a vertex has before it counts them by destination (upstream's destinationEdgeThreshold). */
export const DESTINATION_INDEX_THRESHOLD = 200;

class Vertex {
  /** Outgoing edges: target → destination node name ('' for an edge without destination). */
  readonly out = new Map<Vertex, string>();
  readonly in = new Set<Vertex>();
  /**
   * Outgoing edges with a destination, counted by destination node name: made once the vertex has
   * more than {@link DESTINATION_INDEX_THRESHOLD} outgoing edges, then kept with them.
   */
  destinations: Map<string, number> | undefined;

  constructor(
    readonly type: VertexType,
    readonly namespace: string,
    readonly name: string,
  ) {}

  get degree(): number {
    return this.out.size + this.in.size;
  }

  /** Whether an outgoing edge has `node` as its destination. */
  leadsTo(node: string): boolean {
    if (this.destinations) return this.destinations.has(node);
    for (const destination of this.out.values()) if (destination === node) return true;
    return false;
  }

  /** Counts an outgoing edge toward `destination` ('' none) in the index, making the index when the edges pass the threshold. */
  counted(destination: string): void {
    if (!this.destinations) {
      if (this.out.size <= DESTINATION_INDEX_THRESHOLD) return;
      this.destinations = new Map();
      for (const d of this.out.values()) if (d !== '') this.destinations.set(d, (this.destinations.get(d) ?? 0) + 1);
      return;
    }
    if (destination !== '') this.destinations.set(destination, (this.destinations.get(destination) ?? 0) + 1);
  }

  /** Takes an outgoing edge toward `destination` out of the index. */
  uncounted(destination: string): void {
    if (!this.destinations || destination === '') return;
    const n = (this.destinations.get(destination) ?? 0) - 1;
    if (n > 0) this.destinations.set(destination, n);
    else this.destinations.delete(destination);
  }
}

function vertexKey(type: VertexType, namespace: string, name: string): string {
  return `${type}\0${namespace}\0${name}`;
}

/**
 * The graph. Every mutation is synchronous, so a decision never sees a half-applied change;
 * callers feed it from informer events (lib/controlplane/node-authorization.ts).
 */
export class NodeGraph {
  private readonly vertices = new Map<string, Vertex>();

  /** Number of vertices (for tests and metrics). */
  get size(): number {
    return this.vertices.size;
  }

  private vertex(type: VertexType, namespace: string, name: string): Vertex | undefined {
    return this.vertices.get(vertexKey(type, namespace, name));
  }

  private getOrCreate(type: VertexType, namespace: string, name: string): Vertex {
    const key = vertexKey(type, namespace, name);
    let v = this.vertices.get(key);
    if (!v) {
      v = new Vertex(type, namespace, name);
      this.vertices.set(key, v);
    }
    return v;
  }

  private addEdge(from: Vertex, to: Vertex, destination: string): void {
    if (from.out.has(to)) this.removeEdge(from, to);
    from.out.set(to, destination);
    to.in.add(from);
    from.counted(destination);
  }

  private removeEdge(from: Vertex, to: Vertex): void {
    const destination = from.out.get(to);
    if (destination === undefined) return;
    from.out.delete(to);
    to.in.delete(from);
    from.uncounted(destination);
  }

  /** Removes a vertex with its edges, and every neighbour left without any edge. */
  private deleteVertex(type: VertexType, namespace: string, name: string): void {
    const v = this.vertex(type, namespace, name);
    if (!v) return;
    const neighbours = [...v.out.keys(), ...v.in];
    for (const to of [...v.out.keys()]) this.removeEdge(v, to);
    for (const from of [...v.in]) this.removeEdge(from, v);
    this.vertices.delete(vertexKey(v.type, v.namespace, v.name));
    for (const n of neighbours) if (n.degree === 0) this.vertices.delete(vertexKey(n.type, n.namespace, n.name));
  }

  /**
   * Adds (or replaces) a pod bound to a node: pod -> node, and unless it is a mirror pod, its
   * service account, secrets, config maps, claims and resource claims -> pod, all with the node as
   * destination.
   */
  addPod(p: PodReferences): void {
    this.deleteVertex('pod', p.namespace, p.name);
    const pod = this.getOrCreate('pod', p.namespace, p.name);
    const node = this.getOrCreate('node', '', p.nodeName);
    this.addEdge(pod, node, p.nodeName);
    if (p.mirror) return;
    const edge = (type: VertexType, name: string) => this.addEdge(this.getOrCreate(type, p.namespace, name), pod, p.nodeName);
    if (p.serviceAccountName !== '') edge('serviceAccount', p.serviceAccountName);
    for (const s of p.secrets) edge('secret', s);
    for (const c of p.configMaps) edge('configmap', c);
    for (const c of p.claims) edge('pvc', c);
    for (const c of p.resourceClaims) edge('resourceclaim', c);
  }

  /** Removes a pod and the objects only it referred to. */
  deletePod(namespace: string, name: string): void {
    this.deleteVertex('pod', namespace, name);
  }

  /** Adds (or replaces) a persistent volume: pv -> its claim, and its node-visible secrets -> pv. */
  addPV(p: PVReferences): void {
    this.deleteVertex('pv', '', p.name);
    if (!p.claim) return;
    const pv = this.getOrCreate('pv', '', p.name);
    this.addEdge(pv, this.getOrCreate('pvc', p.claim.namespace, p.claim.name), '');
    for (const s of p.secrets) this.addEdge(this.getOrCreate('secret', s.namespace, s.name), pv, '');
  }

  /** Removes a persistent volume. */
  deletePV(name: string): void {
    this.deleteVertex('pv', '', name);
  }

  /** Adds (or replaces) a volume attachment: attachment -> node (none when `nodeName` is empty). */
  addVolumeAttachment(name: string, nodeName: string): void {
    this.deleteVertex('volumeattachment', '', name);
    if (nodeName === '') return;
    this.addEdge(this.getOrCreate('volumeattachment', '', name), this.getOrCreate('node', '', nodeName), nodeName);
  }

  /** Removes a volume attachment. */
  deleteVolumeAttachment(name: string): void {
    this.deleteVertex('volumeattachment', '', name);
  }

  /**
   * True when a path leads from the object `type namespace/name` to node `nodeName`: the object,
   * or an object it reaches over edges without destination, has an edge whose destination is the
   * node (edges toward other nodes are never followed).
   */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): boolean {
    if (!this.vertex('node', '', nodeName)) return false;
    const start = this.vertex(type, namespace, name);
    if (!start) return false;
    const seen = new Set<Vertex>([start]);
    const queue = [start];
    for (let v = queue.pop(); v; v = queue.pop()) {
      if (v.leadsTo(nodeName)) return true;
      for (const [to, destination] of v.out) {
        if (destination === '' && !seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
      }
    }
    return false;
  }
}
