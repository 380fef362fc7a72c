/**
 * The API objects a Pod or a PersistentVolume refers to by name, as upstream's visitors find them
 * (`VisitPodSecretNames`, `VisitPodConfigmapNames`, the ephemeral and resource claim names,
 * `VisitPVSecretNames`). The Node authorizer's graph and the NodeRestriction admission plugin
 * read them (spec 001 § Node authorization).
 */
import { type Obj, obj, objs, str } from './obj-access.js';

/** Init, regular and ephemeral containers of a pod spec, in upstream's AllContainers order. */
function allContainers(spec: Obj): Obj[] {
  return [...objs(spec.initContainers), ...objs(spec.containers), ...objs(spec.ephemeralContainers)];
}

/** Names, in visit order, without empty names and without repeats. */
function names(visit: (add: (name: string) => void) => void): string[] {
  const out = new Set<string>();
  visit((n) => {
    if (n !== '') out.add(n);
  });
  return [...out];
}

/** `ref.name` of an optional reference object. */
function refName(ref: unknown): string {
  return str(obj(ref)?.name);
}

/**
 * The Secrets a pod uses: image pull secrets, `envFrom[].secretRef` and `env[].valueFrom.secretKeyRef`
 * of every container, and the volume sources that name a secret (secret, projected secret
 * sources, CSI `nodePublishSecretRef`, and the in-tree plugins' `secretRef` / `secretName`).
 */
export function podSecretNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  return names((add) => {
    for (const r of objs(spec.imagePullSecrets)) add(str(r.name));
    for (const c of allContainers(spec)) {
      for (const e of objs(c.envFrom)) if (obj(e.secretRef)) add(refName(e.secretRef));
      for (const e of objs(c.env)) {
        const ref = obj(obj(e.valueFrom)?.secretKeyRef);
        if (ref) add(str(ref.name));
      }
    }
    for (const v of objs(spec.volumes)) {
      if (obj(v.azureFile)) add(str(obj(v.azureFile)!.secretName));
      for (const plugin of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos']) {
        const src = obj(v[plugin]);
        if (src && obj(src.secretRef)) add(refName(src.secretRef));
      }
      for (const s of objs(obj(v.projected)?.sources)) if (obj(s.secret)) add(refName(s.secret));
      if (obj(v.secret)) add(str(obj(v.secret)!.secretName));
      const csi = obj(v.csi);
      if (csi && obj(csi.nodePublishSecretRef)) add(refName(csi.nodePublishSecretRef));
    }
  });
}

/**
 * The ConfigMaps a pod uses: `envFrom[].configMapRef` and `env[].valueFrom.configMapKeyRef` of every
 * container, configMap volumes and projected configMap sources.
 */
export function podConfigMapNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  return names((add) => {
    for (const c of allContainers(spec)) {
      for (const e of objs(c.envFrom)) if (obj(e.configMapRef)) add(refName(e.configMapRef));
      for (const e of objs(c.env)) {
        const ref = obj(obj(e.valueFrom)?.configMapKeyRef);
        if (ref) add(str(ref.name));
      }
    }
    for (const v of objs(spec.volumes)) {
      for (const s of objs(obj(v.projected)?.sources)) if (obj(s.configMap)) add(refName(s.configMap));
      if (obj(v.configMap)) add(refName(v.configMap));
    }
  });
}

/**
 * The PersistentVolumeClaims a pod's volumes use: `persistentVolumeClaim.claimName`, and for a
 * generic ephemeral volume the claim created for it, `<pod name>-<volume name>`.
 */
export function podClaimNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  const podName = str(obj(pod.metadata)?.name);
  return names((add) => {
    for (const v of objs(spec.volumes)) {
      if (obj(v.persistentVolumeClaim)) add(str(obj(v.persistentVolumeClaim)!.claimName));
      else if (obj(v.ephemeral)) add(`${podName}-${str(v.name)}`);
    }
  });
}

/**
 * The ResourceClaims a pod uses (`spec.resourceClaims[]`): `source.resourceClaimName`, or for a
 * claim made from a template the name recorded in `status.resourceClaimStatuses[]` (none while the
 * claim is not yet created, or when none is needed).
 */
export function podResourceClaimNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  const statuses = objs(obj(pod.status)?.resourceClaimStatuses);
  return names((add) => {
    for (const c of objs(spec.resourceClaims)) {
      const source = obj(c.source) ?? {};
      if (str(source.resourceClaimName) !== '') add(str(source.resourceClaimName));
      else if (str(source.resourceClaimTemplateName) !== '') add(str(statuses.find((s) => str(s.name) === str(c.name))?.resourceClaimName));
    }
  });
}

/** A Secret a PersistentVolume names; `nodeVisible` when the node agent reads it (not the controller-only CSI secrets). */
export interface PVSecretReference {
  namespace: string;
  name: string;
  nodeVisible: boolean;
}

/**
 * The Secrets a PersistentVolume's source names, with the namespace each is read from: the
 * reference's own namespace, else the namespace of the claim the volume is bound to.
 */
export function pvSecretReferences(pv: Obj): PVSecretReference[] {
  const spec = obj(pv.spec) ?? {};
  const claimNamespace = str(obj(spec.claimRef)?.namespace);
  const out: PVSecretReference[] = [];
  const add = (namespace: string, name: string, nodeVisible: boolean) => {
    if (name !== '') out.push({ namespace, name, nodeVisible });
  };
  const azureFile = obj(spec.azureFile);
  if (azureFile) add(str(azureFile.secretNamespace) || claimNamespace, str(azureFile.secretName), true);
  for (const plugin of ['cephfs', 'flexVolume', 'rbd', 'scaleIO', 'iscsi']) {
    const ref = obj(obj(spec[plugin])?.secretRef);
    if (ref) add(str(ref.namespace) || claimNamespace, str(ref.name), true);
  }
  for (const plugin of ['cinder', 'storageos']) {
    const ref = obj(obj(spec[plugin])?.secretRef);
    if (ref) add(str(ref.namespace), str(ref.name), true);
  }
  const csi = obj(spec.csi);
  if (csi) {
    for (const [key, nodeVisible] of [
      ['controllerPublishSecretRef', false],
      ['controllerExpandSecretRef', false],
      ['nodePublishSecretRef', true],
      ['nodeStageSecretRef', true],
      ['nodeExpandSecretRef', true],
    ] as const) {
      const ref = obj(csi[key]);
      if (ref) add(str(ref.namespace), str(ref.name), nodeVisible);
    }
  }
  return out;
}
