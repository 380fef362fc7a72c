import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { MIRROR_POD_ANNOTATION, NODE_LEASE_NAMESPACE, NODE_RESTRICTION_LABEL_DOMAIN, vendorGroup } from '../../../lib/apis/vendor.js';
import { type TestClient } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

const TOKENS = [
  'tok-n1,system:node:n1,uid-n1,"system:nodes"',
  'tok-n2,system:node:n2,uid-n2,"system:nodes"',
  'tok-nogroup,system:node:n1,uid-x,"devs"',
  'tok-kubelet,kubelet,uid-k,"system:nodes"',
].join('\n');

const NS = 'default';
const COORDINATION = vendorGroup('coordination');

/** Polls `cond` every 50 ms for up to 10 s (informer events arrive asynchronously). */
async function eventually(cond: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await cond()) return;
    await sleep(50);
  }
  throw new Error(`${what}: not within 10s`);
}

function pod(name: string, nodeName: string, secret: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'v', secret: { secretName: secret } }] },
  };
}

describe('Node authorization and NodeRestriction against a real server (spec 001 § Node authorization)', () => {
  const server = useTestServer({ tokens: TOKENS });
  const as = (token: string): TestClient => server().admin.as({ token });
  const secretPath = (name: string) => `/api/v1/namespaces/${NS}/secrets/${name}`;

  before(async () => {
    for (const name of ['s1', 's2']) {
      const res = await server().admin.post(`/api/v1/namespaces/${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { k: name } });
      expect(res.status, res.text).to.equal(201);
    }
    for (const name of ['n1', 'n2']) {
      const res = await server().admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } });
      expect(res.status, res.text).to.equal(201);
    }
  });

  describe('Node authorizer', () => {
    it('lets a node get a secret that a pod bound to it uses, and not another secret', async () => {
      expect((await server().admin.post(`/api/v1/namespaces/${NS}/pods`, pod('p1', 'n1', 's1'))).status).to.equal(201);
      await eventually(async () => (await as('tok-n1').get(secretPath('s1'))).status === 200, 'node n1 reads s1');
      const other = await as('tok-n1').get(secretPath('s2'));
      expect(other.status).to.equal(403);
      expect(other.body.message).to.equal(
        `secrets "s2" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "${NS}": no relationship found between node 'n1' and this object`,
      );
    });

    it('lets a node list that one secret by name (field selector), but not every secret', async () => {
      expect((await as('tok-n1').get(`/api/v1/namespaces/${NS}/secrets?fieldSelector=metadata.name%3Ds1`)).status).to.equal(200);
      const all = await as('tok-n1').get(`/api/v1/namespaces/${NS}/secrets`);
      expect(all.status).to.equal(403);
      expect(all.body.message).to.match(/: No Object name found$/);
    });

    it('does not let another node read the secret', async () => {
      const res = await as('tok-n2').get(secretPath('s1'));
      expect(res.status).to.equal(403);
      expect(res.body.message).to.include("no relationship found between node 'n2' and this object");
    });

    it('does not authorize agents outside system:nodes or without a system:node:<name> username', async () => {
      for (const token of ['tok-nogroup', 'tok-kubelet']) {
        const res = await as(token).get(secretPath('s1'));
        expect(res.status, token).to.equal(403);
        expect(res.body.message, token).not.to.include('relationship');
        expect((await as(token).post(`/api/v1/namespaces/${NS}/events`, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' } })).status, token).to.equal(403);
      }
    });

    it('gives nodes the static node rules (events, services, nodes)', async () => {
      const ev = await as('tok-n1').post(`/api/v1/namespaces/${NS}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'n1-event' },
        involvedObject: { kind: 'Node', name: 'n1' },
        reason: 'Started',
        message: 'started',
      });
      expect(ev.status, ev.text).to.equal(201);
      expect((await as('tok-n1').get(`/api/v1/namespaces/${NS}/services`)).status).to.equal(200);
      expect((await as('tok-n1').get('/api/v1/nodes/n2')).status).to.equal(200);
      expect((await as('tok-n1').get('/api/v1/namespaces')).status).to.equal(403);
    });

    it('keeps the access while the pod terminates, and takes it away when the pod is gone', async () => {
      // A bound pod is deleted gracefully: it stays (terminating) until its node confirms.
      expect((await server().admin.delete(`/api/v1/namespaces/${NS}/pods/p1`)).status).to.equal(200);
      expect((await as('tok-n1').get(secretPath('s1'))).status).to.equal(200);
      expect((await server().admin.delete(`/api/v1/namespaces/${NS}/pods/p1?gracePeriodSeconds=0`)).status).to.equal(200);
      await eventually(async () => (await as('tok-n1').get(secretPath('s1'))).status === 403, 'access to s1 revoked');
    });

    it('moves the access to the node the recreated pod is bound to', async () => {
      expect((await server().admin.post(`/api/v1/namespaces/${NS}/pods`, pod('p1', 'n2', 's1'))).status).to.equal(201);
      await eventually(async () => (await as('tok-n2').get(secretPath('s1'))).status === 200, 'node n2 reads s1');
      expect((await as('tok-n1').get(secretPath('s1'))).status).to.equal(403);
    });
  });

  describe('NodeRestriction', () => {
    it("rejects a node's update of another node", async () => {
      const res = await as('tok-n1').patch('/api/v1/nodes/n2', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    });

    it('lets a node label its own node, but not with a protected label', async () => {
      expect((await as('tok-n1').patch('/api/v1/nodes/n1', { metadata: { labels: { team: 'a' } } }, 'application/merge-patch+json')).status).to.equal(200);
      const key = `${NODE_RESTRICTION_LABEL_DOMAIN}/pool`;
      const res = await as('tok-n1').patch('/api/v1/nodes/n1', { metadata: { labels: { [key]: 'x' } } }, 'application/merge-patch+json');
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal(`nodes "n1" is forbidden: is not allowed to modify labels: ${key}`);
    });

    it('rejects a pod without the mirror annotation', async () => {
      const res = await as('tok-n1').post(`/api/v1/namespaces/${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } });
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal(`pods "x" is forbidden: pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "n1" can only create mirror pods`);
    });

    it('admits a mirror pod bound to the node and owned by its Node', async () => {
      const node = await server().admin.get('/api/v1/nodes/n1');
      const res = await as('tok-n1').post(`/api/v1/namespaces/${NS}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'static-n1',
          annotations: { [MIRROR_POD_ANNOTATION]: 'h' },
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: node.body.metadata.uid, controller: true }],
        },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
      });
      expect(res.status, res.text).to.equal(201);
    });

    it('rejects deleting a pod bound to another node', async () => {
      const res = await as('tok-n1').delete(`/api/v1/namespaces/${NS}/pods/p1`);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('pods "p1" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
    });

    it('lets a node create its own lease in the node lease namespace, not one of another name', async () => {
      await eventually(async () => (await server().admin.get(`/api/v1/namespaces/${NODE_LEASE_NAMESPACE}`)).status === 200, 'node lease namespace');
      const lease = (name: string) => ({ apiVersion: `${COORDINATION}/v1`, kind: 'Lease', metadata: { name }, spec: { holderIdentity: name } });
      const path = `/apis/${COORDINATION}/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`;
      expect((await as('tok-n1').post(path, lease('n1'))).status).to.equal(201);
      const res = await as('tok-n1').post(path, lease('n2'));
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal(`leases.${COORDINATION} "n2" is forbidden: can only access node lease with the same name as the requesting node`);
    });
  });
});
