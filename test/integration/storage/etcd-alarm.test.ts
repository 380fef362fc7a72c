/**
 * etcd's database full (the NOSPACE alarm). etcd applies the write that takes the database past
 * its quota and answers it `database space exceeded`, raising the alarm; it refuses every later
 * write before proposing it. The server answers as upstream does, 500 with etcd's message and no
 * reason, at once and without a retry. Before, the answer was taken for a write that may have been
 * applied, and every write was a 504 Timeout "sent to etcd but not confirmed; it may have
 * succeeded: read it before retrying", true of the first only. Reads keep working.
 */
import { expect } from 'chai';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { startTestServer, type TestServer } from '../../framework/test-server.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe('storage: etcd\'s database full (NOSPACE alarm)', function () {
  this.timeout(120_000);
  let cluster: EtcdCluster | undefined;
  let server: TestServer | undefined;

  before(async () => {
    cluster = await startEtcdCluster({ members: 1, flags: ['--quota-backend-bytes=16000000'] });
    server = await startTestServer({ etcdEndpoints: cluster.endpoints });
  });
  after(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  it('answers writes 500 with etcd\'s message, refuses every write once the alarm is raised, and keeps serving reads', async () => {
    const admin = server!.admin;
    const large = 'x'.repeat(900_000);
    let refused: { res: Awaited<ReturnType<typeof admin.post>> } | undefined;
    const created: string[] = [];
    for (let i = 0; i < 40 && !refused; i++) {
      const name = `fill-${i}`;
      const res = await admin.post(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { large } });
      if (res.status === 201) created.push(name);
      else refused = { res };
    }
    expect(refused, 'a 16 MB quota refuses a write within 40 of 900 KB').to.not.equal(undefined);
    expect(created.length).to.be.greaterThan(0);
    const alarm = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: mvcc: database space exceeded', code: 500 };
    expect(refused!.res.status, refused!.res.text.slice(0, 300)).to.equal(500);
    expect(refused!.res.body).to.deep.equal(alarm);
    // The alarm is raised now: a write is refused before etcd proposes it.
    const after = await admin.post(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-alarm' }, data: { a: 'b' } });
    expect(after.body).to.deep.equal(alarm);
    expect((await admin.get(`${CONFIGMAPS}/after-alarm`)).status).to.equal(404);
    const update = await admin.patch(`${CONFIGMAPS}/${created[0]}`, { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
    expect(update.status).to.equal(500);
    expect(update.body.message).to.equal('etcdserver: mvcc: database space exceeded');
    const got = await admin.get(`${CONFIGMAPS}/${created[0]}`);
    expect(got.status).to.equal(200);
    expect(got.body.metadata.labels).to.equal(undefined);
    // (The write answered first may be listed too: etcd applies a write that crosses the quota.)
    const names = (await admin.get(CONFIGMAPS)).body.items.map((o: { metadata: { name: string } }) => o.metadata.name);
    expect(names).to.include.members(created).and.not.include('after-alarm');
  });
});
