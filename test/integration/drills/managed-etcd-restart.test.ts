/**
 * The `kill -9` drill (issue #19 items 4 and 5): the real server with its managed etcd (no
 * `--etcd-servers`) on a temporary data directory; an object is created, the server is
 * SIGKILLed, and the server is started again on the same data directory. The old etcd must not
 * outlive its server for long (parent-death signal) or must be stopped by the next start; the
 * restarted server must become ready with the object still there, and its log must say how the
 * stale etcd was dealt with. Prints the figures.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { processAlive } from '../../framework/processes.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';

/** What the restarted server logs about the previous server's etcd (lib/server/etcd/managed-etcd.ts). */
const STALE_MESSAGES = [
  'the managed etcd of a previous server has already stopped; removing its pid file',
  'stopped the stale managed etcd; taking over its data directory',
];

describe('drill: kill -9 of the server, then a restart with the managed etcd (issue #19 items 4 and 5)', function () {
  this.timeout(120_000);
  let dataDir = '';
  const servers: ServerProcess[] = [];
  let oldEtcdPid = 0;

  after(async () => {
    for (const s of servers) await s.stop().catch(() => undefined);
    if (oldEtcdPid && (await processAlive(oldEtcdPid))) process.kill(oldEtcdPid, 'SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('restarts on the same data directory with the data kept and the stale etcd handled', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orch-kill9-'));
    const firstAt = Date.now();
    const first = await startServerProcess([], dataDir);
    const firstStartMs = Date.now() - firstAt;
    servers.push(first);
    const created = await first.admin.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'survivor' }, data: { k: 'v' } });
    expect(created.status).to.equal(201);
    const [etcdLine, ownerLine] = (await readFile(path.join(dataDir, 'etcd.pid'), 'utf8')).split('\n');
    oldEtcdPid = Number(etcdLine);
    expect(Number(ownerLine)).to.equal(first.pid);

    const killedAt = Date.now();
    process.kill(first.pid, 'SIGKILL');
    await first.stop();
    const startedAt = Date.now();
    const second = await startServerProcess([], dataDir);
    servers.push(second);
    const restartMs = Date.now() - killedAt;
    const startMs = Date.now() - startedAt;

    expect(await processAlive(oldEtcdPid)).to.equal(false);
    const got = await second.admin.get('/api/v1/namespaces/default/configmaps/survivor');
    expect(got.status).to.equal(200);
    expect(got.body.data).to.deep.equal({ k: 'v' });
    const said = STALE_MESSAGES.filter((m) => second.log().includes(m));
    expect(said, second.log()).to.have.lengthOf(1);
    const line = second.log().split('\n').find((l) => l.includes(said[0]!)) ?? '';
    expect(line).to.match(new RegExp(`etcdPid\\W{1,3}${oldEtcdPid}\\b`));
    expect(line).to.match(new RegExp(`ownerPid\\W{1,3}${first.pid}\\b`));
    console.log(`      figures: kill -9 to ready again ${restartMs} ms (start to ready ${startMs} ms; first start ${firstStartMs} ms); old etcd pid ${oldEtcdPid}; the restart logged: "${said[0]}"`);
  });
});
