/**
 * Two API server replicas in one process on one etcd prefix (issue #16 item 1): each keeps its
 * identity Lease (labelled, renewed), stale identity leases are garbage-collected, the
 * once-per-cluster controllers run under leader election in one replica only, a follower is
 * ready and healthy, and when the leader stops the other takes the Lease and runs them (the
 * namespace controller finalizes a namespace deleted afterwards).
 */
import { expect } from 'chai';
import { formatMicroTime } from '../../../lib/apimachinery/schema/decode.js';
import { API_SERVER_IDENTITY_LABEL, HOSTNAME_LABEL, SYSTEM_NAMESPACE, vendorGroup } from '../../../lib/apis/vendor.js';
import { defaultLeaderElectionOptions } from '../../../lib/server/options/leader-election-flags.js';
import { eventually } from '../../framework/storage-contract.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../../framework/test-server.js';

// Response bodies are read field by field, as JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type O = Record<string, any>;
const LEASES = `/apis/${vendorGroup('coordination')}/v1/namespaces/${SYSTEM_NAMESPACE}/leases`;
const ELECTION = `${LEASES}/orch-controller-manager`;
const OPTIONS: TestServerOptions = {
  leaderElection: { ...defaultLeaderElectionOptions(), leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 200 },
  identityLease: { renewIntervalMs: 200, gcPeriodMs: 300 },
};

describe('API server replicas: identity leases and leader-elected controllers (issue #16 item 1)', function () {
  this.timeout(60_000);
  let a: TestServer | undefined;
  let b: TestServer | undefined;

  before(async () => {
    a = await startTestServer(OPTIONS);
    b = await startTestServer({ ...OPTIONS, prefix: a.prefix });
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  const identityLeases = async (s: TestServer): Promise<O[]> =>
    (await s.admin.get(`${LEASES}?labelSelector=${encodeURIComponent(`${API_SERVER_IDENTITY_LABEL}=orch-apiserver`)}`)).body.items as O[];

  it('each replica keeps its identity Lease: labelled, held by its ID, 3600 s, renewed', async () => {
    const ids = [a!.cp.identity.id, b!.cp.identity.id];
    expect(ids[0]).to.match(/^orch-apiserver-[a-z2-7]{26}$/);
    await eventually(async () => (await identityLeases(a!)).filter((l) => ids.includes(l.metadata.name)).length === 2, 10_000, 'both identity leases');
    const leases = (await identityLeases(b!)).filter((l) => ids.includes(l.metadata.name));
    for (const l of leases) {
      expect(l.spec.holderIdentity).to.equal(l.metadata.name);
      expect(l.spec.leaseDurationSeconds).to.equal(3600);
      expect(l.metadata.labels).to.include({ [API_SERVER_IDENTITY_LABEL]: 'orch-apiserver', [HOSTNAME_LABEL]: a!.cp.identity.hostname });
    }
    const before = (await a!.admin.get(`${LEASES}/${ids[0]}`)).body.spec.renewTime as string;
    await eventually(async () => (await a!.admin.get(`${LEASES}/${ids[0]}`)).body.spec.renewTime !== before, 5_000, 'a renewal');
  });

  it('an expired identity lease is garbage-collected; an expired lease without the label is not', async () => {
    const past = formatMicroTime(new Date(Date.now() - 2 * 3600_000));
    const stale = { metadata: { name: 'orch-apiserver-stale', labels: { [API_SERVER_IDENTITY_LABEL]: 'orch-apiserver' } }, spec: { holderIdentity: 'orch-apiserver-stale', leaseDurationSeconds: 3600, renewTime: past } };
    const other = { metadata: { name: 'not-an-identity' }, spec: { holderIdentity: 'x', leaseDurationSeconds: 1, renewTime: past } };
    expect((await a!.admin.post(LEASES, stale)).status).to.equal(201);
    expect((await a!.admin.post(LEASES, other)).status).to.equal(201);
    await eventually(async () => (await a!.admin.get(`${LEASES}/orch-apiserver-stale`)).status === 404, 5_000, 'the stale identity lease to go');
    expect((await a!.admin.get(`${LEASES}/not-an-identity`)).status).to.equal(200);
    expect((await a!.admin.get(`${LEASES}/${a!.cp.identity.id}`)).status).to.equal(200);
  });

  it('one replica holds the controllers Lease; both are ready and healthy (leaderElection check)', async () => {
    await eventually(async () => (await a!.admin.get(ELECTION)).status === 200, 5_000, 'the election Lease');
    const holder = (await a!.admin.get(ELECTION)).body.spec.holderIdentity as string;
    expect([a!.cp.identity.electionID, b!.cp.identity.electionID]).to.include(holder);
    for (const s of [a!, b!]) {
      expect((await s.admin.get('/readyz')).status).to.equal(200);
      const health = await s.admin.get('/healthz?verbose');
      expect(health.status).to.equal(200);
      expect(health.text).to.include('[+]leaderElection ok');
    }
  });

  it('when the leader stops, the other replica takes the Lease and runs the namespace controller', async () => {
    const holder = (await a!.admin.get(ELECTION)).body.spec.holderIdentity as string;
    const transitions = ((await a!.admin.get(ELECTION)).body.spec.leaseTransitions as number | undefined) ?? 0;
    const leaderIsA = holder === a!.cp.identity.electionID;
    const follower = leaderIsA ? b! : a!;
    const leader = leaderIsA ? a! : b!;
    await leader.stop();
    if (leaderIsA) a = undefined;
    else b = undefined;
    await eventually(async () => (await follower.admin.get(ELECTION)).body.spec.holderIdentity === follower.cp.identity.electionID, 5_000, 'the follower to lead');
    expect((await follower.admin.get(ELECTION)).body.spec.leaseTransitions).to.equal(transitions + 1);
    const ns = `ha-${Date.now()}`;
    expect((await follower.admin.post('/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    expect((await follower.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'c' } })).status).to.equal(201);
    expect((await follower.admin.delete(`/api/v1/namespaces/${ns}`)).status).to.equal(200);
    await eventually(async () => (await follower.admin.get(`/api/v1/namespaces/${ns}`)).status === 404, 10_000, 'the namespace to be finalized');
  });
});
