/**
 * `--controllers` on the real command (issues #10, #16; upstream kube-controller-manager syntax):
 * the default `*` runs the garbage collector but not the token cleaner, `*,tokencleaner` adds the
 * cleaner, `-garbagecollector` stops the collector, `-namespace` the namespace controller. The
 * servers run without leader election, so each controller starts as a post-start hook that
 * `/healthz?verbose` lists; what a stopped controller would have done is checked after a running
 * one has acted on a later event, so no assertion waits on time.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { NAMESPACE_FINALIZER } from '../../../lib/apis/core/v1/namespace-defaults.js';
import { BOOTSTRAP_TOKEN_SECRET_TYPE, SYSTEM_NAMESPACE } from '../../../lib/apis/vendor.js';
import type { TestClient } from '../../framework/client.js';
import { useEtcd } from '../../framework/etcd.js';
import { startServerProcess, type ServerProcess } from '../../framework/server-process.js';
import { eventually } from '../../framework/storage-contract.js';

const TOKENS = `/api/v1/namespaces/${SYSTEM_NAMESPACE}/secrets`;
const CMS = '/api/v1/namespaces/default/configmaps';

/** Creates the bootstrap token Secret `bootstrap-token-<id>`, expired since 2020. */
async function expiredToken(admin: TestClient, id: string): Promise<string> {
  const res = await admin.post(TOKENS, {
    metadata: { name: `bootstrap-token-${id}` },
    type: BOOTSTRAP_TOKEN_SECRET_TYPE,
    stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', expiration: '2020-01-01T00:00:00Z' },
  });
  expect(res.status, res.text).to.equal(201);
  return `${TOKENS}/bootstrap-token-${id}`;
}

/** Creates ConfigMap `<name>` and a dependent ConfigMap `<name>-dep`, deletes the owner, and returns the dependent's path. */
async function orphanedDependent(admin: TestClient, name: string): Promise<string> {
  const owner = await admin.post(CMS, { metadata: { name } });
  expect(owner.status, owner.text).to.equal(201);
  const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name, uid: owner.body.metadata.uid }];
  expect((await admin.post(CMS, { metadata: { name: `${name}-dep`, ownerReferences } })).status).to.equal(201);
  expect((await admin.delete(`${CMS}/${name}`)).status).to.equal(200);
  return `${CMS}/${name}-dep`;
}

/** The post-start hooks `/healthz?verbose` lists (without `--leader-elect` each controller starts as one). */
async function startedHooks(admin: TestClient): Promise<string[]> {
  const res = await admin.get('/healthz?verbose');
  expect(res.status, res.text).to.equal(200);
  return [...res.text.matchAll(/^\[\+\]poststarthook\/(\S+) ok$/gm)].map((m) => m[1]!);
}

const gone = (admin: TestClient, path: string) => async () => (await admin.get(path)).status === 404;

describe('--controllers on the command (upstream syntax: *, name, -name)', function () {
  this.timeout(120_000);
  let server: ServerProcess | undefined;

  /** Starts the command over the shared etcd under a fresh prefix with `args`. */
  async function start(args: string[]): Promise<TestClient> {
    const { endpoint } = await useEtcd();
    server = await startServerProcess(['--leader-elect=false', `--etcd-servers=${endpoint}`, `--etcd-prefix=/controllers-flag-${randomUUID()}`, ...args]);
    return server.admin;
  }

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('the default runs the garbage collector and not the token cleaner', async () => {
    const admin = await start([]);
    const started = await startedHooks(admin);
    expect(started).to.include.members(['start-garbage-collector', 'start-namespace-controller', 'start-serviceaccount-controller', 'start-resourcequota-controller']);
    expect(started).to.not.include.members(['start-tokencleaner']);
    expect(started).to.not.include.members(['start-bootstrapsigner']);
    const token = await expiredToken(admin, 'dflt00');
    const dependent = await orphanedDependent(admin, 'default-owner');
    await eventually(gone(admin, dependent), 20_000, 'the garbage collector deletes the dependent');
    expect((await admin.get(token)).status, 'an expired token is kept').to.equal(200);
  });

  it('--controllers=*,tokencleaner,-garbagecollector,-namespace deletes an expired token, leaves orphans and a deleted namespace Terminating', async () => {
    const admin = await start(['--controllers=*,tokencleaner,-garbagecollector,-namespace']);
    const started = await startedHooks(admin);
    expect(started).to.include.members(['start-tokencleaner', 'start-serviceaccount-controller']);
    expect(started).to.not.include.members(['start-garbage-collector']);
    expect(started).to.not.include.members(['start-namespace-controller']);
    expect((await admin.post('/api/v1/namespaces', { metadata: { name: 'kept' } })).status).to.equal(201);
    expect((await admin.delete('/api/v1/namespaces/kept')).status).to.equal(200);
    const dependent = await orphanedDependent(admin, 'nogc-owner');
    const token = await expiredToken(admin, 'clean0');
    await eventually(gone(admin, token), 20_000, 'the token cleaner deletes the expired token');
    const orphan = await admin.get(dependent);
    expect(orphan.status, 'the dependent stays').to.equal(200);
    expect(orphan.body.metadata.ownerReferences).to.have.length(1);
    const ns = await admin.get('/api/v1/namespaces/kept');
    expect(ns.status, 'the namespace stays').to.equal(200);
    expect(ns.body.status.phase).to.equal('Terminating');
    expect(ns.body.spec.finalizers).to.deep.equal([NAMESPACE_FINALIZER]);
  });
});
