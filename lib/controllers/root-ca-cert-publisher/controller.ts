/**
 * The root CA publisher (`root-ca-certificate-publisher-controller`, on by default; issue #10
 * item 2; upstream pkg/controller/certificates/rootcacertpublisher): every Active namespace has
 * the ConfigMap `<vendor>-root-ca.crt` whose `data` is exactly `{"ca.crt": <cluster CA bundle>}`,
 * annotated with its description. Edits to it are undone and a deleted one is created again, as
 * upstream; other annotations, labels and `binaryData` are left as they are.
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import type { Obj } from '../../apis/define.js';
import { DESCRIPTION_ANNOTATION, ROOT_CA_CONFIGMAP_NAME, ROOT_CA_DESCRIPTION } from '../../apis/vendor.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { createObject, isNamespaceActive, updateObject } from '../writes.js';

/** The data key holding the CA bundle. */
export const ROOT_CA_KEY = 'ca.crt';

/** What the controller works with. */
export interface RootCAPublisherConfig {
  /** Namespaces (an informer shared with the namespace controller). */
  namespaces: Informer;
  /** ConfigMaps of every namespace: at least those named as the root CA ConfigMap (the only ones it reads). */
  configMaps: Informer;
  /** The ConfigMap store the controller writes through. */
  store: Store;
  /** The PEM bundle of the CA(s) that verify the server's serving certificate. */
  rootCAPem: string;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

/** Runs the controller until `signal` aborts. */
export async function runRootCAPublisher(cfg: RootCAPublisherConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  cfg.namespaces.addHandler((type, ns) => {
    if (type !== 'DELETED') queue.add(ns.metadata?.name as string);
  });
  cfg.configMaps.addHandler((type, cm) => {
    if (type !== 'ADDED' && cm.metadata?.name === ROOT_CA_CONFIGMAP_NAME) queue.add(cm.metadata.namespace as string);
  });
  await Promise.all([cfg.namespaces.waitForSync(), cfg.configMaps.waitForSync()]);
  for (const ns of cfg.namespaces.list()) queue.add(ns.metadata?.name as string);
  await queue.run(signal, (namespace) => syncNamespace(cfg, namespace), (err) => cfg.onError(err));
}

/** Creates or repairs the root CA ConfigMap of `namespace` when the namespace is Active. */
async function syncNamespace(cfg: RootCAPublisherConfig, namespace: string): Promise<void> {
  if (!isNamespaceActive(cfg.namespaces, namespace)) return;
  const data = { [ROOT_CA_KEY]: cfg.rootCAPem };
  const cached = cfg.configMaps.get(`${namespace}/${ROOT_CA_CONFIGMAP_NAME}`);
  if (!cached) {
    await createObject(cfg.ctx, cfg.store, namespace, {
      metadata: { name: ROOT_CA_CONFIGMAP_NAME, namespace, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
      data,
    });
    return;
  }
  if (isPublished(cached, data)) return;
  await updateObject(cfg.ctx, cfg.store, namespace, ROOT_CA_CONFIGMAP_NAME, (cm) => {
    cm.data = data;
    const meta = cm.metadata as Obj;
    meta.annotations = { ...((meta.annotations as Record<string, string> | undefined) ?? {}), [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION };
  });
}

/** Upstream's test: the data is exactly the bundle and the description annotation is not empty. */
function isPublished(cm: Obj, data: Record<string, string>): boolean {
  const annotations = ((cm.metadata as Obj | undefined)?.annotations ?? {}) as Record<string, string>;
  return deepEqual(cm.data ?? {}, data) && (annotations[DESCRIPTION_ANNOTATION] ?? '') !== '';
}
