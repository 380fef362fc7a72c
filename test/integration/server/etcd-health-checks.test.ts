/**
 * The `etcd` and `etcd-readiness` health checks (upstream's storage health checks): `/readyz`
 * lists both, the other endpoints `etcd` only, and each probes etcd at most once per half its
 * timeout (`--etcd-healthcheck-timeout`, `--etcd-readycheck-timeout`), answering the last probe's
 * outcome in between. Shown with a server process over an etcd member the test freezes (SIGSTOP).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';
import { useTestServer } from '../../framework/test-server.js';

describe('etcd health checks: etcd and etcd-readiness', () => {
  const server = useTestServer();

  it('lists etcd-readiness after etcd in /readyz only, and serves it at /readyz/etcd-readiness', async () => {
    const readyz = (await server().admin.get('/readyz?verbose')).text.split('\n');
    expect(readyz.indexOf('[+]etcd-readiness ok')).to.equal(readyz.indexOf('[+]etcd ok') + 1);
    for (const endpoint of ['livez', 'healthz']) expect((await server().admin.get(`/${endpoint}?verbose`)).text).to.not.include('etcd-readiness');
    const one = await server().admin.get('/readyz/etcd-readiness');
    expect([one.status, one.text]).to.deep.equal([200, 'ok']);
    expect((await server().admin.get('/livez/etcd-readiness')).status).to.equal(404);
    expect((await server().admin.get('/readyz?verbose&exclude=etcd-readiness')).text).to.include('[+]etcd-readiness excluded: ok\n');
  });
});

describe('etcd health checks: one probe per half timeout, over a frozen etcd', function () {
  this.timeout(60_000);
  let cluster: EtcdCluster | undefined;
  let proc: ServerProcess | undefined;

  after(async () => {
    cluster?.thaw(0);
    await proc?.stop();
    await cluster?.stop();
  });

  it('answers the last probe until half the timeout has passed, then probes again and fails after the timeout', async () => {
    cluster = await startEtcdCluster({ members: 1 });
    // etcd: a probe every 30 s at most; etcd-readiness: every 0.5 s, failing after 1 s.
    proc = await startServerProcess([`--etcd-servers=${cluster.endpoints[0]}`, '--etcd-healthcheck-timeout=60s', '--etcd-readycheck-timeout=1s']);
    const admin = proc.admin;
    expect((await admin.get('/livez/etcd')).status).to.equal(200);
    expect((await admin.get('/readyz/etcd-readiness')).status).to.equal(200);

    cluster.freeze(0);
    await sleep(600);
    const [readiness, health] = await Promise.all([admin.get('/readyz/etcd-readiness'), admin.get('/livez/etcd')]);
    expect(readiness.status).to.equal(500);
    expect(readiness.text).to.equal('internal server error: error getting data from etcd: etcd did not answer within 1s\n');
    expect([health.status, health.text]).to.deep.equal([200, 'ok']);
    const verbose = (await admin.get('/readyz?verbose')).text.split('\n');
    expect(verbose).to.include.members(['[+]etcd ok', '[-]etcd-readiness failed: reason withheld']);

    cluster.thaw(0);
    const thawedAt = Date.now();
    for (;;) {
      if ((await admin.get('/readyz/etcd-readiness')).status === 200) break;
      expect(Date.now() - thawedAt).to.be.below(15_000);
      await sleep(100);
    }
  });
});
