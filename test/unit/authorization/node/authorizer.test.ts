import { expect } from 'chai';
import { nodeRules } from '../../../../lib/apis/rbac/bootstrap-policy/cluster-roles.js';
import { NODE_LEASE_NAMESPACE, vendorGroup } from '../../../../lib/apis/vendor.js';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';
import { NodeAuthorizer } from '../../../../lib/authorization/node/authorizer.js';
import { NodeGraph } from '../../../../lib/authorization/node/graph.js';
import type { UserInfo } from '../../../../lib/request/user.js';

const N1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

function attrs(a: Partial<AuthorizationAttributes>): AuthorizationAttributes {
  return { user: N1, verb: 'get', isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace: '', resource: '', subresource: '', name: '', ...a };
}

describe('Node authorizer decisions (spec 001 § Node authorization)', () => {
  const graph = new NodeGraph();
  graph.addPod({ namespace: 'ns', name: 'p', nodeName: 'n1', mirror: false, serviceAccountName: 'sa', secrets: ['s'], configMaps: ['cm'], claims: ['pvc'], resourceClaims: [] });
  graph.addPod({ namespace: 'ns', name: 'q', nodeName: 'n2', mirror: false, serviceAccountName: 'other-sa', secrets: ['s2'], configMaps: [], claims: [], resourceClaims: [] });
  graph.addPV({ name: 'pv', claim: { namespace: 'ns', name: 'pvc' }, secrets: [] });
  graph.addVolumeAttachment('va', 'n1');
  const node = new NodeAuthorizer(graph, nodeRules());
  const decide = (a: Partial<AuthorizationAttributes>) => node.decide(attrs(a));
  const relation = "no relationship found between node 'n1' and this object";

  describe('agents outside system:nodes or without a system:node:<name> username are not authorized by this mode', () => {
    const cases: [string, UserInfo][] = [
      ['a node username without the group', { name: 'system:node:n1', groups: ['system:authenticated'] }],
      ['the group without a node username', { name: 'kubelet', groups: ['system:nodes'] }],
      ['a user who is neither', { name: 'alice', groups: ['devs'] }],
      ['a service account', { name: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'] }],
    ];
    for (const [what, user] of cases) {
      it(`has no opinion on ${what}, even for the objects a node could read`, () => {
        expect(decide({ user, resource: 'secrets', namespace: 'ns', name: 's' })).to.deep.equal({ decision: 'NoOpinion', reason: '' });
        expect(decide({ user, verb: 'create', resource: 'events', namespace: 'ns' })).to.deep.equal({ decision: 'NoOpinion', reason: '' });
      });
    }

    it('has no opinion on a node user with an empty node name, with upstream reason', () => {
      expect(decide({ user: { name: 'system:node:', groups: ['system:nodes'] }, resource: 'secrets', namespace: 'ns', name: 's' })).to.deep.equal({
        decision: 'NoOpinion',
        reason: 'unknown node for user "system:node:"',
      });
    });
  });

  describe('objects reached through the graph', () => {
    const rows: [string, Partial<AuthorizationAttributes>, 'Allow' | 'NoOpinion', string][] = [
      ['get of a secret a pod on the node uses', { resource: 'secrets', namespace: 'ns', name: 's' }, 'Allow', ''],
      ['list of that secret by name', { verb: 'list', resource: 'secrets', namespace: 'ns', name: 's' }, 'Allow', ''],
      ['watch of that secret by name', { verb: 'watch', resource: 'secrets', namespace: 'ns', name: 's' }, 'Allow', ''],
      ['get of a secret of a pod on another node', { resource: 'secrets', namespace: 'ns', name: 's2' }, 'NoOpinion', relation],
      ['get of an unknown secret', { resource: 'secrets', namespace: 'ns', name: 'nope' }, 'NoOpinion', relation],
      ['list of all secrets', { verb: 'list', resource: 'secrets', namespace: 'ns' }, 'NoOpinion', 'No Object name found'],
      ['list of secrets across namespaces', { verb: 'list', resource: 'secrets' }, 'NoOpinion', 'can only read namespaced object of this type'],
      ['update of a related secret', { verb: 'update', resource: 'secrets', namespace: 'ns', name: 's' }, 'NoOpinion', 'can only read resources of this type'],
      ['get of a related config map', { resource: 'configmaps', namespace: 'ns', name: 'cm' }, 'Allow', ''],
      ['delete of a related config map', { verb: 'delete', resource: 'configmaps', namespace: 'ns', name: 'cm' }, 'NoOpinion', 'can only read resources of this type'],
      ['get of a related claim', { resource: 'persistentvolumeclaims', namespace: 'ns', name: 'pvc' }, 'Allow', ''],
      ['list of claims', { verb: 'list', resource: 'persistentvolumeclaims', namespace: 'ns' }, 'NoOpinion', 'can only get individual resources of this type'],
      ['update of a related claim status', { verb: 'update', resource: 'persistentvolumeclaims', subresource: 'status', namespace: 'ns', name: 'pvc' }, 'Allow', ''],
      ['get of a related claim status', { resource: 'persistentvolumeclaims', subresource: 'status', namespace: 'ns', name: 'pvc' }, 'NoOpinion', 'can only get/update/patch this type'],
      ['get of the volume bound to a related claim', { resource: 'persistentvolumes', name: 'pv' }, 'Allow', ''],
      ['get of a volume attachment to the node', { apiGroup: vendorGroup('storage'), resource: 'volumeattachments', name: 'va' }, 'Allow', ''],
      ['token of the service account of a pod on the node', { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' }, 'Allow', ''],
      ['token of another service account', { verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'other-sa' }, 'NoOpinion', relation],
      ['get of a related service account', { resource: 'serviceaccounts', namespace: 'ns', name: 'sa' }, 'NoOpinion', 'can only create tokens for individual service accounts'],
    ];
    for (const [what, a, decision, reason] of rows) {
      it(`${decision === 'Allow' ? 'allows' : 'has no opinion on'} ${what}`, () => expect(decide(a)).to.deep.equal({ decision, reason }));
    }
  });

  describe('leases and CSINodes', () => {
    const leases = { apiGroup: vendorGroup('coordination'), resource: 'leases' };
    it('allows get, update and delete of its own lease in the node lease namespace', () => {
      for (const verb of ['get', 'update', 'patch', 'delete']) expect(decide({ ...leases, verb, namespace: NODE_LEASE_NAMESPACE, name: 'n1' }).decision, verb).to.equal('Allow');
    });
    it('allows create in the node lease namespace (NodeRestriction checks the name)', () => {
      expect(decide({ ...leases, verb: 'create', namespace: NODE_LEASE_NAMESPACE }).decision).to.equal('Allow');
    });
    it("has no opinion on another node's lease, other namespaces and other verbs, with upstream's reasons", () => {
      expect(decide({ ...leases, namespace: NODE_LEASE_NAMESPACE, name: 'n2' }).reason).to.equal('can only access node lease with the same name as the requesting node');
      expect(decide({ ...leases, namespace: 'default', name: 'n1' }).reason).to.equal(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
      expect(decide({ ...leases, verb: 'list', namespace: NODE_LEASE_NAMESPACE }).reason).to.equal('can only get, create, update, patch, or delete a node lease');
    });
    it('allows its own CSINode only', () => {
      const csi = { apiGroup: vendorGroup('storage'), resource: 'csinodes' };
      expect(decide({ ...csi, name: 'n1' }).decision).to.equal('Allow');
      expect(decide({ ...csi, name: 'n2' }).reason).to.equal('can only access CSINode with the same name as the requesting node');
    });
  });

  describe('resources the graph does not subdivide: the static node rules', () => {
    const rows: [string, Partial<AuthorizationAttributes>, 'Allow' | 'NoOpinion'][] = [
      ['list of services', { verb: 'list', resource: 'services' }, 'Allow'],
      ['get of any node', { resource: 'nodes', name: 'n2' }, 'Allow'],
      ['update of node status', { verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' }, 'Allow'],
      ['create of events', { verb: 'create', resource: 'events', namespace: 'ns' }, 'Allow'],
      ['watch of pods', { verb: 'watch', resource: 'pods' }, 'Allow'],
      ['update of pod status', { verb: 'update', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'p' }, 'Allow'],
      ['create of a token review', { verb: 'create', apiGroup: vendorGroup('authentication'), resource: 'tokenreviews' }, 'Allow'],
      ['create of a certificate signing request', { verb: 'create', apiGroup: vendorGroup('certificates'), resource: 'certificatesigningrequests' }, 'Allow'],
      ['update of a pod', { verb: 'update', resource: 'pods', namespace: 'ns', name: 'p' }, 'NoOpinion'],
      ['delete of a node', { verb: 'delete', resource: 'nodes', name: 'n1' }, 'NoOpinion'],
      ['get of namespaces', { resource: 'namespaces', name: 'ns' }, 'NoOpinion'],
      ['create of a deployment', { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'ns' }, 'NoOpinion'],
      ['a non-resource path', { isResourceRequest: false, path: '/healthz' }, 'NoOpinion'],
    ];
    for (const [what, a, decision] of rows) {
      it(`${decision === 'Allow' ? 'allows' : 'has no opinion on'} ${what}`, () => expect(decide(a)).to.deep.equal({ decision, reason: '' }));
    }
  });

  it('reports rules of a node as incomplete (node authorizer does not support user rule resolution)', async () => {
    expect(await node.rulesFor(N1)).to.deep.include({ incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
    expect(await node.rulesFor({ name: 'alice', groups: [] })).to.deep.include({ incomplete: false });
  });
});
