import { expect } from 'chai';
import { admissionAttrs, rejection } from './attrs.js';
import type { AdmissionAttributes } from '../../../lib/admission/interface.js';
import { NodeRestriction, forbiddenNodeLabels, isNodeAgentLabel } from '../../../lib/admission/plugins/node-restriction.js';
import type { Obj } from '../../../lib/apis/define.js';
import { MIRROR_POD_ANNOTATION, NODE_LEASE_NAMESPACE, NODE_RESTRICTION_LABEL_DOMAIN, UPSTREAM_LABEL_DOMAIN, VENDOR_DOMAIN, vendorGroup } from '../../../lib/apis/vendor.js';
import { internalContext } from '../../../lib/request/context.js';
import type { UserInfo } from '../../../lib/request/user.js';

const N1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes'] };
const NODES: Record<string, Obj> = { n1: { metadata: { name: 'n1', uid: 'uid-n1' } } };
const PODS: Record<string, Obj> = {
  'ns/mine': { metadata: { name: 'mine', namespace: 'ns', uid: 'uid-mine' }, spec: { nodeName: 'n1' } },
  'ns/theirs': { metadata: { name: 'theirs', namespace: 'ns', uid: 'uid-theirs' }, spec: { nodeName: 'n2' } },
};
/** The plugin over fixed objects. */
const plugin = new NodeRestriction({
  pod: async (ns, name) => PODS[`${ns}/${name}`] ?? null,
  node: async (name) => NODES[name] ?? null,
});

function attrs(a: Partial<AdmissionAttributes>): AdmissionAttributes {
  return admissionAttrs(N1, a);
}

/** The message of the StatusError `admit` throws, or '' when it admits. */
async function outcome(a: Partial<AdmissionAttributes>): Promise<string> {
  return rejection(plugin.admit(internalContext(N1), attrs(a)));
}

function mirrorPod(extra: { meta?: Obj; spec?: Obj } = {}): Obj {
  return {
    metadata: {
      name: 'static-web',
      namespace: 'ns',
      annotations: { [MIRROR_POD_ANNOTATION]: 'hash' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-n1', controller: true }],
      ...extra.meta,
    },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...extra.spec },
  };
}

describe('NodeRestriction admission (spec 001 § Node authorization, § Admission control)', () => {
  it('passes requests of users who are not nodes untouched', async () => {
    expect(await outcome({ user: { name: 'alice', groups: [] }, resource: 'nodes', name: 'n2', object: {} })).to.equal('');
    expect(await outcome({ user: { name: 'system:node:n1', groups: [] }, resource: 'nodes', name: 'n2', object: {} })).to.equal('');
  });

  it('rejects a node user whose node cannot be determined', async () => {
    expect(await outcome({ user: { name: 'system:node:', groups: ['system:nodes'] }, resource: 'configmaps', name: 'x', object: {} })).to.equal(
      '403 configmaps "x" is forbidden: could not determine node from user "system:node:"',
    );
  });

  describe('Node objects', () => {
    it('lets a node create and update its own Node', async () => {
      expect(await outcome({ resource: 'nodes', name: 'n1', object: { metadata: { name: 'n1', labels: { [`${VENDOR_DOMAIN}/hostname`]: 'n1', team: 'a' } } } })).to.equal('');
      const old = { metadata: { name: 'n1', labels: {} }, spec: {} };
      expect(await outcome({ operation: 'UPDATE', resource: 'nodes', subresource: 'status', name: 'n1', object: old, oldObject: old })).to.equal('');
    });

    it('rejects modifying another node', async () => {
      expect(await outcome({ operation: 'UPDATE', resource: 'nodes', name: 'n2', object: {}, oldObject: {} })).to.equal(
        '403 nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
      );
      expect(await outcome({ operation: 'DELETE', resource: 'nodes', name: 'n2' })).to.equal('403 nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    });

    it('rejects registering with reserved labels, listed sorted', async () => {
      const labels = { [`${NODE_RESTRICTION_LABEL_DOMAIN}/pool`]: 'x', [`node-role.${VENDOR_DOMAIN}/control-plane`]: '', 'example.com/ok': '1' };
      expect(await outcome({ resource: 'nodes', name: 'n1', object: { metadata: { name: 'n1', labels } } })).to.equal(
        `403 nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: ${NODE_RESTRICTION_LABEL_DOMAIN}/pool, node-role.${VENDOR_DOMAIN}/control-plane`,
      );
    });

    it('rejects adding, changing or removing a protected label on update', async () => {
      const key = `${NODE_RESTRICTION_LABEL_DOMAIN}/pool`;
      const old = { metadata: { name: 'n1', labels: { [key]: 'a' } } };
      for (const labels of [{ [key]: 'b' }, {}]) {
        expect(await outcome({ operation: 'UPDATE', resource: 'nodes', name: 'n1', object: { metadata: { name: 'n1', labels } }, oldObject: old })).to.equal(
          `403 nodes "n1" is forbidden: is not allowed to modify labels: ${key}`,
        );
      }
    });

    it('rejects changing taints', async () => {
      const old = { metadata: { name: 'n1' }, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } };
      expect(await outcome({ operation: 'UPDATE', resource: 'nodes', name: 'n1', object: { metadata: { name: 'n1' }, spec: {} }, oldObject: old })).to.equal(
        '403 nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
      );
    });
  });

  describe('label rules', () => {
    it("allows the node agent's well-known labels in the vendor and upstream spellings, and kubelet./node. domains", () => {
      for (const d of [VENDOR_DOMAIN, UPSTREAM_LABEL_DOMAIN]) {
        for (const key of [`${d}/hostname`, `topology.${d}/zone`, `${d}/arch`, `beta.${d}/os`, `node.${d}/instance-type`, `kubelet.${d}/anything`, `x.node.${d}/y`]) {
          expect(isNodeAgentLabel(key), key).to.equal(true);
        }
      }
      expect(forbiddenNodeLabels([`${VENDOR_DOMAIN}/hostname`, 'team', 'example.com/x'])).to.deep.equal([]);
    });

    it('forbids other system-domain labels and the node-restriction domain', () => {
      const keys = [`node-role.${VENDOR_DOMAIN}/worker`, `${UPSTREAM_LABEL_DOMAIN}/custom`, 'x.k8s.io/y', `sub.${NODE_RESTRICTION_LABEL_DOMAIN}/z`];
      expect(forbiddenNodeLabels(keys)).to.deep.equal([...keys].sort());
    });
  });

  describe('pods', () => {
    it('admits a mirror pod bound to itself and owned by its Node', async () => {
      expect(await outcome({ resource: 'pods', namespace: 'ns', name: 'static-web', object: mirrorPod() })).to.equal('');
    });

    it('rejects a pod without the mirror annotation', async () => {
      const pod = mirrorPod({ meta: { annotations: {} } });
      expect(await outcome({ resource: 'pods', namespace: 'ns', name: 'static-web', object: pod })).to.equal(
        `403 pods "static-web" is forbidden: pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "n1" can only create mirror pods`,
      );
    });

    const rejections: [string, Obj, string][] = [
      ['bound to another node', mirrorPod({ spec: { nodeName: 'n2' } }), 'node "n1" can only create pods with spec.nodeName set to itself'],
      ['without an owner', mirrorPod({ meta: { ownerReferences: [] } }), 'node "n1" can only create pods with an owner reference set to itself'],
      [
        'owned by another node',
        mirrorPod({ meta: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n2', uid: 'u', controller: true }] } }),
        'node "n1" can only create pods with an owner reference set to itself',
      ],
      [
        'with a stale node uid',
        mirrorPod({ meta: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'old', controller: true }] } }),
        'node n1 UID mismatch: expected old got uid-n1',
      ],
      ['with a service account', mirrorPod({ spec: { serviceAccountName: 'sa' } }), 'node "n1" can not create pods that reference a service account'],
      ['with a secret volume', mirrorPod({ spec: { volumes: [{ name: 'v', secret: { secretName: 's' } }] } }), 'node "n1" can not create pods that reference secrets'],
      ['with a config map volume', mirrorPod({ spec: { volumes: [{ name: 'v', configMap: { name: 'c' } }] } }), 'node "n1" can not create pods that reference configmaps'],
      [
        'with a claim',
        mirrorPod({ spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] } }),
        'node "n1" can not create pods that reference persistentvolumeclaims',
      ],
    ];
    for (const [what, pod, reason] of rejections) {
      it(`rejects a mirror pod ${what}`, async () => {
        expect(await outcome({ resource: 'pods', namespace: 'ns', name: 'static-web', object: pod })).to.equal(`403 pods "static-web" is forbidden: ${reason}`);
      });
    }

    it('deletes only pods bound to itself; a missing pod is NotFound', async () => {
      expect(await outcome({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'mine' })).to.equal('');
      expect(await outcome({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'theirs' })).to.equal(
        '403 pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
      );
      expect(await outcome({ operation: 'DELETE', resource: 'pods', namespace: 'ns', name: 'gone' })).to.equal('404 pod "gone" not found');
    });

    it('rejects updating a pod', async () => {
      expect(await outcome({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', name: 'mine', object: {}, oldObject: {} })).to.equal(
        '403 pods "mine" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
      );
    });

    it('updates the status of pods bound to itself only, without relabelling', async () => {
      const mine = PODS['ns/mine']!;
      expect(await outcome({ operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'mine', object: mine, oldObject: mine })).to.equal('');
      const theirs = PODS['ns/theirs']!;
      expect(await outcome({ operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'theirs', object: theirs, oldObject: theirs })).to.equal(
        '403 pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
      );
      const relabelled = { ...mine, metadata: { ...(mine.metadata as Obj), labels: { a: 'b' } } };
      expect(await outcome({ operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'ns', name: 'mine', object: relabelled, oldObject: mine })).to.equal(
        '403 pods "mine" is forbidden: node "n1" cannot update labels through pod status',
      );
    });

    it('rejects other pod subresources', async () => {
      expect(await outcome({ resource: 'pods', subresource: 'binding', namespace: 'ns', name: 'mine', object: {} })).to.equal(
        `403 pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
      );
    });
  });

  describe('service account tokens, leases', () => {
    const token = (ref: Obj | undefined) => ({ operation: 'CREATE' as const, resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa', object: { spec: { boundObjectRef: ref } } });
    it('admits a token bound to a pod bound to itself', async () => {
      expect(await outcome(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'uid-mine' }))).to.equal('');
    });
    it('rejects unbound tokens, tokens without a uid, with a stale uid, or for pods on other nodes', async () => {
      const prefix = '403 serviceaccounts "sa" is forbidden: ';
      expect(await outcome(token(undefined))).to.equal(`${prefix}node requested token not bound to a pod`);
      expect(await outcome(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine' }))).to.equal(`${prefix}node requested token with a pod binding without a uid`);
      expect(await outcome(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' }))).to.equal(
        `${prefix}the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated`,
      );
      expect(await outcome(token({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'uid-theirs' }))).to.equal(`${prefix}node requested token bound to a pod scheduled on a different node`);
    });

    it('admits only its own lease in the node lease namespace', async () => {
      const lease = (namespace: string, name: string) => ({ group: vendorGroup('coordination'), resource: 'leases', namespace, name, object: { metadata: { name } } });
      expect(await outcome(lease(NODE_LEASE_NAMESPACE, 'n1'))).to.equal('');
      expect(await outcome(lease(NODE_LEASE_NAMESPACE, 'n2'))).to.equal(
        `403 leases.${vendorGroup('coordination')} "n2" is forbidden: can only access node lease with the same name as the requesting node`,
      );
      expect(await outcome(lease('default', 'n1'))).to.equal(
        `403 leases.${vendorGroup('coordination')} "n1" is forbidden: can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`,
      );
    });
  });
});
