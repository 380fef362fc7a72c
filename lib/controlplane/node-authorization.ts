/**
 * The wiring of Node authorization (spec 001 § Node authorization). Feeds the Node authorizer's
 * graph from informers (upstream's graph populator): every pod bound to a node with the objects it
 * uses, and — once those resources are served — persistent volumes and volume attachments. The
 * graph changes inside the informer's event handler, so a decision reflects a change from the
 * watch event that brought it. Also the pod and node informers that the graph and the
 * NodeRestriction admission plugin share.
 */
import type { NodeRestrictionGetters } from '../admission/plugins/node-restriction.js';
import { isReason } from '../apimachinery/errors.js';
import type { Obj } from '../apis/define.js';
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, pvSecretReferences } from '../apis/core/v1/pod-references.js';
import { obj, objs, str } from '../apis/core/v1/obj-access.js';
import { nodeRules } from '../apis/rbac/bootstrap-policy/cluster-roles.js';
import { MIRROR_POD_ANNOTATION } from '../apis/vendor.js';
import { NodeAuthorizer } from '../authorization/node/authorizer.js';
import { NodeGraph, type PodReferences } from '../authorization/node/graph.js';
import { Informer } from '../client/informer.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import type { RequestContext } from '../request/context.js';
import type { StoredObject } from '../storage/interface.js';

/** The informers the graph follows; those of resources this server does not serve yet are absent. */
export interface NodeGraphInformers {
  pods: Informer;
  persistentVolumes?: Informer;
  volumeAttachments?: Informer;
}

/** The references of a bound pod, as the graph keeps them. */
export function podReferences(pod: StoredObject): PodReferences {
  const meta = obj(pod.metadata) ?? {};
  const spec = obj(pod.spec) ?? {};
  return {
    namespace: str(meta.namespace),
    name: str(meta.name),
    nodeName: str(spec.nodeName),
    mirror: Object.hasOwn(obj(meta.annotations) ?? {}, MIRROR_POD_ANNOTATION),
    serviceAccountName: str(spec.serviceAccountName),
    secrets: podSecretNames(pod),
    configMaps: podConfigMapNames(pod),
    claims: podClaimNames(pod),
    resourceClaims: podResourceClaimNames(pod),
  };
}

/**
 * Whether two versions of a bound pod give it the same edges: the same uid, node, and resource
 * claim names in its status (everything else the edges come from is in its immutable spec). An
 * update that keeps these leaves the graph as it is.
 */
function sameEdges(a: StoredObject, b: StoredObject): boolean {
  if (str(obj(a.metadata)?.uid) !== str(obj(b.metadata)?.uid) || str(obj(a.spec)?.nodeName) !== str(obj(b.spec)?.nodeName)) return false;
  const ca = objs(obj(a.status)?.resourceClaimStatuses);
  const cb = objs(obj(b.status)?.resourceClaimStatuses);
  return ca.length === cb.length && ca.every((c, i) => str(c.name) === str(cb[i]!.name) && str(c.resourceClaimName) === str(cb[i]!.resourceClaimName));
}

/**
 * Registers the graph's handlers on `informers` (before they run, to see the initial objects).
 * Pods without `spec.nodeName` are ignored until bound.
 */
export function populateNodeGraph(graph: NodeGraph, informers: NodeGraphInformers): void {
  informers.pods.addHandler((type, pod, old) => {
    if (type === 'DELETED') {
      if (str(obj(pod.spec)?.nodeName) !== '') graph.deletePod(str(obj(pod.metadata)?.namespace), str(obj(pod.metadata)?.name));
      return;
    }
    if (str(obj(pod.spec)?.nodeName) === '') return;
    if (old && sameEdges(old, pod)) return;
    graph.addPod(podReferences(pod));
  });
  informers.persistentVolumes?.addHandler((type, pv) => {
    const name = str(obj(pv.metadata)?.name);
    if (type === 'DELETED') return graph.deletePV(name);
    const claim = obj(obj(pv.spec)?.claimRef);
    graph.addPV({
      name,
      claim: claim ? { namespace: str(claim.namespace), name: str(claim.name) } : undefined,
      secrets: pvSecretReferences(pv).filter((s) => s.nodeVisible),
    });
  });
  informers.volumeAttachments?.addHandler((type, va) => {
    const name = str(obj(va.metadata)?.name);
    if (type === 'DELETED') return graph.deleteVolumeAttachment(name);
    graph.addVolumeAttachment(name, str(obj(va.spec)?.nodeName));
  });
}

/**
 * Builds the Node authorizer over a fresh graph fed by `informers`, with the `system:node` rules
 * of the default policy as its static rules (as upstream hands it `bootstrappolicy.NodeRules()`).
 */
export function newNodeAuthorizer(informers: NodeGraphInformers): NodeAuthorizer {
  const graph = new NodeGraph();
  populateNodeGraph(graph, informers);
  return new NodeAuthorizer(graph, nodeRules());
}

/** The pod and node informers the Node mode and NodeRestriction share, and the getters NodeRestriction reads through. */
export interface NodeInformers {
  pods: Informer;
  nodes: Informer;
  /** Current objects: the informer's cache, else a live read (a pod or node created a moment ago); null when absent. */
  getters: NodeRestrictionGetters;
  /** Runs both informers until `signal` aborts; resolves once both have synced. */
  run(signal: AbortSignal): Promise<void>;
}

/**
 * Builds the pod and node informers over the served `pods` and `nodes` stores.
 * @throws Error when the control plane serves no pods or nodes.
 */
export function newNodeInformers(resources: readonly ResourceStorage[], ctx: RequestContext, onError: (what: string) => (err: unknown) => void): NodeInformers {
  const storeOf = (resource: string) => {
    const r = resources.find((x) => x.store.strategy.kind.group === '' && x.store.strategy.kind.resource === resource);
    if (!r) throw new Error(`the control plane serves no ${resource}`);
    return r.store;
  };
  const pods = storeOf('pods');
  const nodes = storeOf('nodes');
  const podInformer = new Informer(pods.storage, pods.prefixFor(''), onError('pod informer'));
  const nodeInformer = new Informer(nodes.storage, nodes.prefixFor(''), onError('node informer'));
  const read = async (store: typeof pods, informer: Informer, namespace: string, name: string): Promise<Obj | null> => {
    const cached = informer.get(namespace ? `${namespace}/${name}` : name);
    if (cached) return cached;
    try {
      return await store.get(ctx, namespace, name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return null;
      throw err;
    }
  };
  return {
    pods: podInformer,
    nodes: nodeInformer,
    getters: {
      pod: (namespace, name) => read(pods, podInformer, namespace, name),
      node: (name) => read(nodes, nodeInformer, '', name),
    },
    async run(signal) {
      void podInformer.run(signal);
      void nodeInformer.run(signal);
      await Promise.all([podInformer.waitForSync(), nodeInformer.waitForSync()]);
    },
  };
}
