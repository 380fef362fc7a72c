/**
 * NodeRestriction (spec 001 § Node authorization, § Admission control; upstream v1.30's plugin of
 * the same name): limits what a node agent (`system:node:<name>` in `system:nodes`) may write to
 * its own Node and Lease and to the pods bound to it. Requests of anyone else pass untouched.
 *  - Node: only its own; on create no labels, and on update no label changes, in the reserved
 *    domains (`node-restriction.<vendor>`, and the system domains except the node agent's
 *    well-known labels); no taint changes; no new non-nil configSource.
 *  - Pod: create only mirror pods bound to itself, owned by its Node, referring to no other API
 *    object; delete, update status and evict only pods bound to itself; no other subresource.
 *  - PersistentVolumeClaim: only status, and only capacity and conditions.
 *  - ServiceAccount token: only bound to a pod bound to itself.
 *  - Lease: only its own, in the node lease namespace. CSINode: only its own.
 * Rejections are 403 Forbidden with upstream's messages. A mutating plugin, as upstream's (so it
 * runs before validation and sees every create, update and delete).
 */
import { StatusError, newForbidden, newNotFound } from '../../apimachinery/errors.js';
import { goQuote } from '../../apimachinery/go-quote.js';
import type { Obj } from '../../apis/define.js';
import { obj, objs, str, strMap } from '../../apis/core/v1/obj-access.js';
import { podConfigMapNames, podSecretNames } from '../../apis/core/v1/pod-references.js';
import { diffLines, semanticEqual } from '../../apis/core/v1/semantic-equal.js';
import { MIRROR_POD_ANNOTATION, NODE_LABEL_DOMAINS, NODE_LEASE_NAMESPACE, NODE_RESTRICTION_LABEL_DOMAIN, SYSTEM_LABEL_DOMAINS, canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import { nodeIdentity } from '../../request/node-identity.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../interface.js';
import { type AdmissionPluginFactory, cachedOrLive } from '../plugin-deps.js';

/** Reads current objects (from an informer cache, then a live read when absent there); null when absent. */
export interface NodeRestrictionGetters {
  pod(namespace: string, name: string): Promise<Obj | null>;
  node(name: string): Promise<Obj | null>;
}

/** The domain of a label key (the part before `/`), or ''. */
function labelDomain(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** True when `domain` is `parent` or a subdomain of it. */
function inDomain(domain: string, parent: string): boolean {
  return domain === parent || domain.endsWith(`.${parent}`);
}

/** The well-known labels a node agent sets on its own Node, in each spelling of NODE_LABEL_DOMAINS. */
const NODE_AGENT_LABELS: ReadonlySet<string> = new Set(
  NODE_LABEL_DOMAINS.flatMap((d) => [
    `${d}/hostname`,
    `topology.${d}/zone`,
    `topology.${d}/region`,
    `failure-domain.beta.${d}/zone`,
    `failure-domain.beta.${d}/region`,
    `beta.${d}/instance-type`,
    `node.${d}/instance-type`,
    `${d}/os`,
    `${d}/arch`,
    `beta.${d}/os`,
    `beta.${d}/arch`,
  ]),
);
/** The label domains (with their subdomains) a node agent may set freely. */
const NODE_AGENT_LABEL_DOMAINS: readonly string[] = NODE_LABEL_DOMAINS.flatMap((d) => [`kubelet.${d}`, `node.${d}`]);

/** True for a label a node agent may set on its own Node (upstream IsKubeletLabel). */
export function isNodeAgentLabel(key: string): boolean {
  if (NODE_AGENT_LABELS.has(key)) return true;
  const domain = labelDomain(key);
  return NODE_AGENT_LABEL_DOMAINS.some((d) => inDomain(domain, d));
}

/**
 * The label keys of `modified` a node agent may not add, remove or change: those in the
 * node-restriction domain, and those in a system domain that are not node agent labels; sorted.
 */
export function forbiddenNodeLabels(modified: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const key of modified) {
    const domain = labelDomain(key);
    if (inDomain(domain, NODE_RESTRICTION_LABEL_DOMAIN)) out.add(key);
    if (SYSTEM_LABEL_DOMAINS.some((d) => inDomain(domain, d)) && !isNodeAgentLabel(key)) out.add(key);
  }
  return [...out].sort();
}

/** The keys whose values differ between two label maps (added, removed or changed). */
function modifiedLabels(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]);
}

const meta = (o: Obj | null): Obj => obj(o?.metadata) ?? {};
const spec = (o: Obj | null): Obj => obj(o?.spec) ?? {};

/** The NodeRestriction admission plugin. */
export class NodeRestriction implements MutatingAdmissionPlugin {
  readonly name = 'NodeRestriction';

  constructor(private readonly getters: NodeRestrictionGetters) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE' || op === 'DELETE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    const { isNode, nodeName } = nodeIdentity(a.user);
    if (!isNode) return;
    if (nodeName === '') throw forbidden(a, `could not determine node from user ${goQuote(a.user.name)}`);
    const group = canonicalGroup(a.group);
    if (group === '') {
      switch (a.resource) {
        case 'pods':
          if (a.subresource === '') return this.admitPod(nodeName, a);
          if (a.subresource === 'status') return admitPodStatus(nodeName, a);
          if (a.subresource === 'eviction') return this.admitPodEviction(nodeName, a);
          throw forbidden(a, `unexpected pod subresource ${goQuote(a.subresource)}, only 'status' and 'eviction' are allowed`);
        case 'nodes':
          return admitNode(nodeName, a);
        case 'persistentvolumeclaims':
          if (a.subresource === 'status') return admitPVCStatus(nodeName, a);
          throw forbidden(a, 'may only update PVC status');
        case 'serviceaccounts':
          return this.admitServiceAccount(nodeName, a);
      }
    } else if (group === vendorGroup('coordination') && a.resource === 'leases') {
      return admitLease(nodeName, a);
    } else if (group === vendorGroup('storage') && a.resource === 'csinodes') {
      if (a.name !== nodeName) throw forbidden(a, 'can only access CSINode with the same name as the requesting node');
    }
  }

  private async admitPod(nodeName: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation === 'CREATE') return this.admitMirrorPod(nodeName, a);
    if (a.operation === 'DELETE') {
      const pod = await this.existingPod(a.namespace, a.name);
      if (str(spec(pod).nodeName) !== nodeName) throw forbidden(a, `node ${goQuote(nodeName)} can only delete pods with spec.nodeName set to itself`);
      return;
    }
    throw forbidden(a, `unexpected operation ${goQuote(a.operation)}, node ${goQuote(nodeName)} can only create and delete mirror pods`);
  }

  private async admitMirrorPod(nodeName: string, a: AdmissionAttributes): Promise<void> {
    const pod = a.object ?? {};
    const q = goQuote(nodeName);
    if (!Object.hasOwn(obj(meta(pod).annotations) ?? {}, MIRROR_POD_ANNOTATION)) {
      throw forbidden(a, `pod does not have ${goQuote(MIRROR_POD_ANNOTATION)} annotation, node ${q} can only create mirror pods`);
    }
    if (str(spec(pod).nodeName) !== nodeName) throw forbidden(a, `node ${q} can only create pods with spec.nodeName set to itself`);
    const owners = objs(meta(pod).ownerReferences);
    if (owners.length > 1) throw forbidden(a, `node ${q} can only create pods with a single owner reference set to itself`);
    if (owners.length === 0) throw forbidden(a, `node ${q} can only create pods with an owner reference set to itself`);
    const owner = owners[0]!;
    if (str(owner.apiVersion) !== 'v1' || str(owner.kind) !== 'Node' || str(owner.name) !== nodeName) {
      throw forbidden(a, `node ${q} can only create pods with an owner reference set to itself`);
    }
    if (owner.controller !== true) throw forbidden(a, `node ${q} can only create pods with a controller owner reference set to itself`);
    if (owner.blockOwnerDeletion === true) throw forbidden(a, `node ${q} must not set blockOwnerDeletion on an owner reference`);
    const node = await this.getters.node(nodeName);
    if (!node) throw newNotFound({ group: '', resource: 'node' }, nodeName);
    const uid = str(meta(node).uid);
    if (str(owner.uid) !== uid) throw forbidden(a, `node ${nodeName} UID mismatch: expected ${str(owner.uid)} got ${uid}`);

    if (str(spec(pod).serviceAccountName) !== '') throw forbidden(a, `node ${q} can not create pods that reference a service account`);
    if (podSecretNames(pod).length > 0) throw forbidden(a, `node ${q} can not create pods that reference secrets`);
    if (podConfigMapNames(pod).length > 0) throw forbidden(a, `node ${q} can not create pods that reference configmaps`);
    const volumes = objs(spec(pod).volumes);
    if (volumes.some((v) => objs(obj(v.projected)?.sources).some((s) => obj(s.clusterTrustBundle)))) {
      throw forbidden(a, `node ${q} can not create pods that reference clustertrustbundles`);
    }
    if (volumes.some((v) => obj(v.persistentVolumeClaim))) {
      throw forbidden(a, `node ${q} can not create pods that reference persistentvolumeclaims`);
    }
  }

  private async admitPodEviction(nodeName: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE') throw forbidden(a, `unexpected operation ${a.operation}`);
    const podName = a.name || str(meta(a.object).name);
    if (podName === '') throw forbidden(a, 'could not determine pod from request data');
    const pod = await this.existingPod(a.namespace, podName);
    if (str(spec(pod).nodeName) !== nodeName) throw forbidden(a, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
  }

  private async admitServiceAccount(nodeName: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const ref = obj(spec(a.object).boundObjectRef);
    if (!ref || str(ref.apiVersion) !== 'v1' || str(ref.kind) !== 'Pod' || str(ref.name) === '') throw forbidden(a, 'node requested token not bound to a pod');
    if (str(ref.uid) === '') throw forbidden(a, 'node requested token with a pod binding without a uid');
    const pod = await this.existingPod(a.namespace, str(ref.name));
    if (str(ref.uid) !== str(meta(pod).uid)) {
      throw forbidden(
        a,
        `the UID in the bound object reference (${str(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    if (str(spec(pod).nodeName) !== nodeName) throw forbidden(a, 'node requested token bound to a pod scheduled on a different node');
  }

  /** The current pod; NotFound (`pod "x" not found`, as upstream's lister says) when there is none. */
  private async existingPod(namespace: string, name: string): Promise<Obj> {
    const pod = await this.getters.pod(namespace, name);
    if (!pod) throw newNotFound({ group: '', resource: 'pod' }, name);
    return pod;
  }
}

/**
 * Upstream's admission.NewForbidden: `<resource>[.<group>] "<name>" is forbidden: <reason>`, the
 * name being the request's, else the object's name or generateName, else `Unknown`.
 */
function forbidden(a: AdmissionAttributes, reason: string): StatusError {
  const m = meta(a.object);
  const name = a.name || str(m.name) || str(m.generateName) || 'Unknown';
  return newForbidden({ group: a.group, resource: a.resource }, name, reason);
}

function admitPodStatus(nodeName: string, a: AdmissionAttributes): void {
  if (a.operation !== 'UPDATE') throw forbidden(a, `unexpected operation ${goQuote(a.operation)}`);
  const q = goQuote(nodeName);
  if (str(spec(a.oldObject).nodeName) !== nodeName) throw forbidden(a, `node ${q} can only update pod status for pods with spec.nodeName set to itself`);
  if (!semanticEqual(strMap(meta(a.oldObject).labels), strMap(meta(a.object).labels))) throw forbidden(a, `node ${q} cannot update labels through pod status`);
  const claims = (o: Obj | null) => objs(obj(o?.status)?.resourceClaimStatuses).map((s) => [str(s.name), s.resourceClaimName ?? null]);
  if (JSON.stringify(claims(a.oldObject)) !== JSON.stringify(claims(a.object))) throw forbidden(a, `node ${q} cannot update resource claim statues`);
}

function admitPVCStatus(nodeName: string, a: AdmissionAttributes): void {
  if (a.operation !== 'UPDATE') throw forbidden(a, `unexpected operation ${goQuote(a.operation)}`);
  const strip = (o: Obj | null): Obj => {
    const m = { ...meta(o) };
    delete m.resourceVersion;
    delete m.managedFields;
    const status = { ...(obj(o?.status) ?? {}) };
    delete status.capacity;
    delete status.conditions;
    return { ...o, metadata: m, status };
  };
  const before = strip(a.oldObject);
  const after = strip(a.object);
  if (!semanticEqual(before, after)) {
    throw forbidden(a, `node ${goQuote(nodeName)} is not allowed to update fields other than status.capacity and status.conditions: ${diffLines(before, after, '')}`);
  }
}

function admitNode(nodeName: string, a: AdmissionAttributes): void {
  const q = goQuote(nodeName);
  if (a.name !== nodeName) throw forbidden(a, `node ${q} is not allowed to modify node ${goQuote(a.name)}`);
  if (a.operation === 'CREATE') {
    if (spec(a.object).configSource != null) throw forbidden(a, `node ${q} is not allowed to create pods with a non-nil configSource`);
    const labels = forbiddenNodeLabels(modifiedLabels(strMap(meta(a.object).labels), {}));
    if (labels.length > 0) throw forbidden(a, `node ${q} is not allowed to set the following labels: ${labels.join(', ')}`);
  }
  if (a.operation === 'UPDATE') {
    const now = spec(a.object);
    const old = spec(a.oldObject);
    if (now.configSource != null && !semanticEqual(now.configSource, old.configSource)) {
      throw forbidden(a, `node ${q} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!semanticEqual(now.taints, old.taints)) throw forbidden(a, `node ${q} is not allowed to modify taints`);
    const labels = forbiddenNodeLabels(modifiedLabels(strMap(meta(a.object).labels), strMap(meta(a.oldObject).labels)));
    if (labels.length > 0) throw forbidden(a, `is not allowed to modify labels: ${labels.join(', ')}`);
  }
}

function admitLease(nodeName: string, a: AdmissionAttributes): void {
  if (a.namespace !== NODE_LEASE_NAMESPACE) throw forbidden(a, `can only access leases in the ${goQuote(NODE_LEASE_NAMESPACE)} system namespace`);
  const name = a.operation === 'CREATE' ? str(meta(a.object).name) : a.name;
  if (name !== nodeName) throw forbidden(a, 'can only access node lease with the same name as the requesting node');
}

/** The NodeRestriction factory: reads pods and nodes through their informers (lib/admission/plugins/index.ts). */
export const nodeRestrictionPlugin: AdmissionPluginFactory = {
  name: 'NodeRestriction',
  create(deps) {
    const pods = deps.resource('', 'pods');
    const nodes = deps.resource('', 'nodes');
    return new NodeRestriction({
      pod: (namespace, name) => cachedOrLive(pods, namespace, name),
      node: (name) => cachedOrLive(nodes, '', name),
    });
  },
};
