import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

describe('health endpoints (spec 000 § Health endpoints)', () => {
  const server = useTestServer();

  for (const endpoint of ['livez', 'readyz', 'healthz']) {
    it(`/${endpoint} answers 200 "ok", and a verbose list ending "${endpoint} check passed"${covers(`000 § Health endpoints › GET /${endpoint}`)}`, async () => {
      const plain = await server().admin.get(`/${endpoint}`);
      expect(plain.status).to.equal(200);
      expect(plain.text).to.equal('ok');
      const verbose = await server().admin.get(`/${endpoint}?verbose`);
      const lines = verbose.text.trim().split('\n');
      expect(lines).to.include.members(['[+]ping ok', '[+]etcd ok', '[+]poststarthook/bootstrap-namespaces ok']);
      expect(lines[lines.length - 1]).to.equal(`${endpoint} check passed`);
    });
  }

  it('lists the checks in upstream kube-apiserver order: ping, log, etcd, then etcd-readiness and informer-sync in /readyz only, the post-start hooks, and shutdown last in /readyz', async () => {
    const checks = async (endpoint: string) => (await server().admin.get(`/${endpoint}?verbose`)).text.split('\n').filter((l) => l.startsWith('[+]'));
    const readyz = await checks('readyz');
    expect(readyz.slice(0, 5)).to.deep.equal(['[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]etcd-readiness ok', '[+]informer-sync ok']);
    expect(readyz[5]).to.match(/^\[\+\]poststarthook\//);
    expect(readyz[readyz.length - 1]).to.equal('[+]shutdown ok');
    for (const endpoint of ['livez', 'healthz']) {
      const lines = await checks(endpoint);
      expect(lines.slice(0, 3)).to.deep.equal(['[+]ping ok', '[+]log ok', '[+]etcd ok']);
      expect(lines.join('\n')).to.not.match(/etcd-readiness|informer-sync|shutdown/);
    }
    for (const path of ['/livez/log', '/readyz/informer-sync']) expect((await server().admin.get(path)).text, path).to.equal('ok');
  });

  it('marks an excluded check as "excluded: ok"', async () => {
    const res = await server().admin.get('/readyz?verbose&exclude=etcd');
    expect(res.text).to.include('[+]etcd excluded: ok\n');
  });

  it(`serves a single check at /livez/<check> and 404 for an unknown one${covers('000 § Health endpoints › GET /livez/<check_name>, GET /readyz/<check_name>')}`, async () => {
    const one = await server().admin.get('/livez/etcd');
    expect(one.status).to.equal(200);
    expect(one.text).to.equal('ok');
    expect((await server().admin.get('/livez/poststarthook/bootstrap-namespaces')).status).to.equal(200);
    expect((await server().admin.get('/livez/nope')).status).to.equal(404);
  });

  it('lists the shutdown check only in /readyz', async () => {
    expect((await server().admin.get('/readyz?verbose')).text).to.include('[+]shutdown ok');
    expect((await server().admin.get('/livez?verbose')).text).to.not.include('shutdown');
  });
});

describe('graceful shutdown (--shutdown-delay-duration)', () => {
  it('fails /readyz at once while still serving requests during the delay', async function () {
    this.timeout(30_000);
    const s = await startTestServer({ shutdownDelayMs: 2000 });
    const stopping = s.stop();
    await sleep(200);
    const ready = await s.admin.get('/readyz?verbose');
    expect(ready.status).to.equal(500);
    expect(ready.text).to.include('[-]shutdown failed: reason withheld');
    expect(ready.text.trim().split('\n').pop()).to.equal('readyz check failed');
    expect((await s.admin.get('/livez')).status).to.equal(200);
    expect((await s.admin.get('/api/v1/namespaces')).status).to.equal(200);
    await stopping;
    await s.admin.get('/livez').then(
      () => expect.fail('server still answering after shutdown'),
      (err: NodeJS.ErrnoException) => expect(err.code).to.equal('ECONNREFUSED'),
    );
  });
});
