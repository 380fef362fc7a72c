import { CoordinationV1Api, KubeConfig, RbacAuthorizationV1Api, Watch } from '@kubernetes/client-node';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const run = promisify(execFile);
const SCRIPT = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'python/upstream_groups.py');
const PYTHON = '/usr/bin/python3';

/** One watch event as the client library hands it over (the object as the server sent it). */
interface WatchEvent {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
}

/**
 * Opens a watch with @kubernetes/client-node's Watch on `watchPath` from `resourceVersion` and
 * answers the first event, or rejects after 10 s; the watch is closed either way.
 */
async function firstEvent(kc: KubeConfig, watchPath: string, resourceVersion: string, trigger: () => Promise<unknown>): Promise<WatchEvent> {
  let resolveEvent!: (ev: WatchEvent) => void;
  let rejectEvent!: (err: Error) => void;
  const event = new Promise<WatchEvent>((resolve, reject) => {
    resolveEvent = resolve;
    rejectEvent = reject;
  });
  event.catch(() => undefined); // a rejection after the trigger failed is not a second failure
  const controller = await new Watch(kc).watch(
    watchPath,
    { resourceVersion },
    (type, object) => resolveEvent({ type, object }),
    (err) => rejectEvent(new Error(`watch ${watchPath} ended before an event: ${err}`)),
  );
  const timer = setTimeout(() => rejectEvent(new Error(`no event on ${watchPath} within 10s`)), 10_000);
  try {
    await trigger();
    return await event;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

describe('official client libraries through the upstream group aliases (issue #9)', function () {
  this.timeout(60_000);
  let server: ServerProcess;

  /** Creates a namespace through the admin client. */
  async function namespace(name: string): Promise<void> {
    const res = await server.admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    if (res.status !== 201) throw new Error(`creating namespace ${name}: ${res.status} ${res.text}`);
  }

  before(async () => {
    if (!existsSync(PYTHON)) throw new Error(`${PYTHON} not found: the e2e suite needs Debian's python3 with python3-kubernetes (hack/install-test-clients.sh)`);
    await run(PYTHON, ['-c', 'import kubernetes']).catch(() => {
      throw new Error('python3-kubernetes is not installed: run hack/install-test-clients.sh');
    });
    server = await startServerProcess();
    await namespace('py');
    await namespace('js');
  });
  after(async () => {
    if (server) await server.stop();
  });

  it('Python: RbacAuthorizationV1Api and CoordinationV1Api create, list and watch a Role and a Lease', async () => {
    const { stdout } = await run(PYTHON, [SCRIPT, server.kubeconfig, 'py'], { timeout: 60_000 });
    const out = JSON.parse(stdout);
    expect(out.role).to.deep.equal({
      listed_before: [],
      created: ['rbac.authorization.k8s.io/v1', 'Role', 'py-role'],
      listed: ['rbac.authorization.k8s.io/v1', 'RoleList', ['py-role']],
      watched: [['ADDED', 'rbac.authorization.k8s.io/v1', 'Role', 'py-role']],
    });
    expect(out.lease).to.deep.equal({
      listed_before: [],
      created: ['coordination.k8s.io/v1', 'Lease', 'py-lease'],
      listed: ['coordination.k8s.io/v1', 'LeaseList', ['py-lease']],
      watched: [['ADDED', 'coordination.k8s.io/v1', 'Lease', 'py-lease']],
    });
    expect(out.role_rules).to.deep.equal([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    expect(out.lease_holder).to.equal('python');
  });

  describe('@kubernetes/client-node', () => {
    let kc: KubeConfig;
    before(() => {
      kc = new KubeConfig();
      kc.loadFromFile(server.kubeconfig);
    });

    it('RbacAuthorizationV1Api creates, lists and watches a Role', async () => {
      const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
      const before = await rbac.listNamespacedRole({ namespace: 'js' });
      expect(before.items).to.deep.equal([]);
      const body = { metadata: { name: 'js-role' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] };
      let created: Awaited<ReturnType<typeof rbac.createNamespacedRole>> | undefined;
      const ev = await firstEvent(kc, '/apis/rbac.authorization.k8s.io/v1/namespaces/js/roles', before.metadata!.resourceVersion!, async () => {
        created = await rbac.createNamespacedRole({ namespace: 'js', body });
      });
      expect([created!.apiVersion, created!.kind, created!.metadata!.name]).to.deep.equal(['rbac.authorization.k8s.io/v1', 'Role', 'js-role']);
      expect([ev.type, ev.object.apiVersion, ev.object.kind, ev.object.metadata.name]).to.deep.equal(['ADDED', 'rbac.authorization.k8s.io/v1', 'Role', 'js-role']);
      expect(ev.object.rules).to.deep.equal(body.rules);
      const list = await rbac.listNamespacedRole({ namespace: 'js' });
      expect([list.apiVersion, list.kind, list.items.map((r) => r.metadata!.name)]).to.deep.equal(['rbac.authorization.k8s.io/v1', 'RoleList', ['js-role']]);
    });

    it('CoordinationV1Api creates, lists and watches a Lease', async () => {
      const coordination = kc.makeApiClient(CoordinationV1Api);
      const before = await coordination.listNamespacedLease({ namespace: 'js' });
      expect(before.items).to.deep.equal([]);
      let created: Awaited<ReturnType<typeof coordination.createNamespacedLease>> | undefined;
      const ev = await firstEvent(kc, '/apis/coordination.k8s.io/v1/namespaces/js/leases', before.metadata!.resourceVersion!, async () => {
        created = await coordination.createNamespacedLease({ namespace: 'js', body: { metadata: { name: 'js-lease' }, spec: { holderIdentity: 'node', leaseDurationSeconds: 15 } } });
      });
      expect([created!.apiVersion, created!.kind, created!.metadata!.name, created!.spec!.holderIdentity]).to.deep.equal(['coordination.k8s.io/v1', 'Lease', 'js-lease', 'node']);
      expect([ev.type, ev.object.apiVersion, ev.object.kind, ev.object.metadata.name, ev.object.spec.holderIdentity]).to.deep.equal(['ADDED', 'coordination.k8s.io/v1', 'Lease', 'js-lease', 'node']);
      const list = await coordination.listNamespacedLease({ namespace: 'js' });
      expect([list.apiVersion, list.kind, list.items.map((l) => l.metadata!.name)]).to.deep.equal(['coordination.k8s.io/v1', 'LeaseList', ['js-lease']]);
    });

    it('a watch opened through coordination.k8s.io sees a Lease written through coordination.orch.io', async () => {
      const coordination = kc.makeApiClient(CoordinationV1Api);
      const before = await coordination.listNamespacedLease({ namespace: 'js' });
      const ev = await firstEvent(kc, '/apis/coordination.k8s.io/v1/namespaces/js/leases', before.metadata!.resourceVersion!, async () => {
        const res = await server.admin.post('/apis/coordination.orch.io/v1/namespaces/js/leases', {
          apiVersion: 'coordination.orch.io/v1',
          kind: 'Lease',
          metadata: { name: 'vendor-lease' },
          spec: { holderIdentity: 'vendor-writer' },
        });
        expect(res.status, res.text).to.equal(201);
        expect(res.body.apiVersion).to.equal('coordination.orch.io/v1');
      });
      expect([ev.type, ev.object.apiVersion, ev.object.kind, ev.object.metadata.name, ev.object.spec.holderIdentity]).to.deep.equal(['ADDED', 'coordination.k8s.io/v1', 'Lease', 'vendor-lease', 'vendor-writer']);
    });
  });
});
