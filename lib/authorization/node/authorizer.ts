/**
 * The Node authorization mode (spec 001 § Node authorization; upstream v1.30's NodeAuthorizer).
 * Only node agents (`system:node:<name>` in `system:nodes`) get an opinion; everyone else gets
 * NoOpinion so the next mode decides. For a node:
 *  - secrets and config maps: get, list and watch of one named object related to the node in the
 *    graph (node <- pod <- object);
 *  - persistentvolumeclaims, persistentvolumes, resourceclaims, volumeattachments: get of a
 *    related object; `persistentvolumeclaims/status`: update and patch of a related claim;
 *  - `serviceaccounts/token`: create for a service account of a pod bound to the node;
 *  - leases: get, create, update, patch, delete in the node lease namespace, named after the node
 *    (create is checked by NodeRestriction, which sees the name);
 *  - csinodes: get, create, update, patch, delete of the CSINode named after the node;
 *  - anything else: allowed when one of the static node rules allows it (upstream applies its
 *    `bootstrappolicy.NodeRules()`, the rules of the `system:node` ClusterRole, handed in by
 *    lib/controlplane), else NoOpinion.
 * Never Deny: a refusal is NoOpinion with upstream's reason, so RBAC may still allow.
 */
import { goQuote } from '../../apimachinery/go-quote.js';
import { NODE_LEASE_NAMESPACE, canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import { nodeIdentity } from '../../request/node-identity.js';
import type { UserInfo } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from '../interface.js';
import { type CompiledRule, type PolicyRule, compileRule, ruleAllows } from '../rbac/rules.js';
import type { NodeGraph, VertexType } from './graph.js';

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const noOpinion = (reason: string): AuthorizationResult => ({ decision: 'NoOpinion', reason });

const STORAGE_GROUP = vendorGroup('storage');

/** The Node authorizer and its rule resolver, over a graph kept current by informers. */
export class NodeAuthorizer implements Authorizer, RuleResolver {
  private readonly rules: readonly CompiledRule[];

  /** `rules`: the static rules every node holds on the resources the graph does not subdivide. */
  constructor(
    private readonly graph: NodeGraph,
    rules: readonly PolicyRule[],
  ) {
    this.rules = rules.map(compileRule);
  }

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return this.decide(a);
  }

  /** The decision, synchronously (the graph is in memory). */
  decide(a: AuthorizationAttributes): AuthorizationResult {
    const { isNode, nodeName } = nodeIdentity(a.user);
    if (!isNode) return noOpinion('');
    if (nodeName === '') return noOpinion(`unknown node for user ${goQuote(a.user.name)}`);
    if (a.isResourceRequest) {
      const group = canonicalGroup(a.apiGroup);
      if (group === '') {
        switch (a.resource) {
          case 'secrets':
            return this.readNamespacedObject(nodeName, 'secret', a);
          case 'configmaps':
            return this.readNamespacedObject(nodeName, 'configmap', a);
          case 'persistentvolumeclaims':
            return a.subresource === 'status' ? this.statusUpdate(nodeName, 'pvc', a) : this.get(nodeName, 'pvc', a);
          case 'persistentvolumes':
            return this.get(nodeName, 'pv', a);
          case 'serviceaccounts':
            return this.createToken(nodeName, a);
        }
      } else if (group === vendorGroup('resource') && a.resource === 'resourceclaims') {
        return this.get(nodeName, 'resourceclaim', a);
      } else if (group === STORAGE_GROUP && a.resource === 'volumeattachments') {
        return this.get(nodeName, 'volumeattachment', a);
      } else if (group === vendorGroup('coordination') && a.resource === 'leases') {
        return this.lease(nodeName, a);
      } else if (group === STORAGE_GROUP && a.resource === 'csinodes') {
        return this.csiNode(nodeName, a);
      }
    }
    return this.rules.some((r) => ruleAllows(a, r)) ? ALLOW : noOpinion('');
  }

  /**
   * Nodes have no enumerable rules: for a node the answer is incomplete with upstream's error;
   * for anyone else it is empty and complete (spec 001 § Access-review resources).
   */
  async rulesFor(user: UserInfo): Promise<RulesResult> {
    if (nodeIdentity(user).isNode) {
      return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
    }
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }

  private readNamespacedObject(nodeName: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (!['get', 'list', 'watch'].includes(a.verb)) return noOpinion('can only read resources of this type');
    if (a.subresource !== '') return noOpinion('cannot read subresource');
    if (a.namespace === '') return noOpinion('can only read namespaced object of this type');
    return this.related(nodeName, type, a);
  }

  private get(nodeName: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource !== '') return noOpinion('cannot get subresource');
    return this.related(nodeName, type, a);
  }

  private statusUpdate(nodeName: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    if (a.subresource !== 'status') return noOpinion('can only update status subresource');
    return this.related(nodeName, type, a);
  }

  private related(nodeName: string, type: VertexType, a: AuthorizationAttributes): AuthorizationResult {
    if (a.name === '') return noOpinion('No Object name found');
    return this.graph.hasPathFrom(nodeName, type, a.namespace, a.name) ? ALLOW : noOpinion(`no relationship found between node '${nodeName}' and this object`);
  }

  private createToken(nodeName: string, a: AuthorizationAttributes): AuthorizationResult {
    if (a.verb !== 'create' || a.name === '') return noOpinion('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.graph.hasPathFrom(nodeName, 'serviceAccount', a.namespace, a.name) ? ALLOW : noOpinion(`no relationship found between node '${nodeName}' and this object`);
  }

  private lease(nodeName: string, a: AuthorizationAttributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the ${goQuote(NODE_LEASE_NAMESPACE)} system namespace`);
    if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
    return ALLOW;
  }

  private csiNode(nodeName: string, a: AuthorizationAttributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource !== '') return noOpinion('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access CSINode with the same name as the requesting node');
    return ALLOW;
  }
}
