/**
 * `--workers=2` (issue #17 item 4): the real command with a managed etcd; two server workers
 * behind one port, each a replica over the same etcd. Which worker holds a connection is read
 * from /proc (test/framework/workers.ts); the server is not asked.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { API_SERVER_IDENTITY_LEASE_PREFIX, CONTROLLER_MANAGER_LEASE_NAME, SYSTEM_NAMESPACE, vendorGroup } from '../../../lib/apis/vendor.js';
import { processAlive } from '../../framework/processes.js';
import { commandArgv, type ServerProcess, startServerProcess } from '../../framework/server-process.js';
import { eventually } from '../../framework/storage-contract.js';
import { childPids, type ClientTLS, clientOnWorker } from '../../framework/workers.js';

/** Worker processes are the children whose command line names the command's entry file (the sources' or the bundle's). */
const MARKER = commandArgv().at(-1)!;
const SHUTDOWN_DELAY_S = 10;

describe('integration/workers: --workers=2', function () {
  this.timeout(240_000);
  let server: ServerProcess;
  let tls: ClientTLS;
  let workers: number[];

  before(async () => {
    // Each worker listens once ready (its post-start hooks done), and two bootstrap the same defaults at once.
    server = await startServerProcess(['--workers=2', '--bind-address=127.0.0.1', `--shutdown-delay-duration=${SHUTDOWN_DELAY_S}s`], undefined, 150_000);
    tls = { ca: server.admin.ca, cert: server.admin.creds.cert!, key: server.admin.creds.key! };
    workers = await childPids(server.pid, MARKER);
  });
  after(async () => {
    await server?.stop();
  });

  it('forks two workers, each a replica with its own identity Lease, and leader-elected controllers run in one', async () => {
    expect(workers).to.have.length(2);
    await eventually(async () => {
      const res = await server.admin.get(`/apis/${vendorGroup('coordination')}/v1/namespaces/${SYSTEM_NAMESPACE}/leases`);
      const names: string[] = res.body.items.map((l: { metadata: { name: string } }) => l.metadata.name);
      return names.filter((n) => n.startsWith(API_SERVER_IDENTITY_LEASE_PREFIX)).length === 2;
    }, 30_000, 'two identity leases');
    const election = await server.admin.get(`/apis/${vendorGroup('coordination')}/v1/namespaces/${SYSTEM_NAMESPACE}/leases/${CONTROLLER_MANAGER_LEASE_NAME}`);
    expect(election.status).to.equal(200);
    expect(election.body.spec.holderIdentity).to.be.a('string');
    expect(server.log().match(/successfully acquired lease/g)).to.have.length(1);
  });

  it('answers requests on many connections from both workers', async () => {
    const owners = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const c = await clientOnWorker(server.url, tls, workers);
      owners.add(c.pid);
      const res = await c.send('GET', '/api/v1/namespaces/default');
      expect(res.status).to.equal(200);
      c.close();
    }
    expect([...owners].sort((a, b) => a - b)).to.deep.equal(workers);
  });

  it('a write through one worker is seen, with every event in order, by a watch served by the other', async () => {
    const writer = await clientOnWorker(server.url, tls, workers, workers[0]);
    const watcher = await clientOnWorker(server.url, tls, workers, workers[1]);
    try {
      const base = '/api/v1/namespaces/default/configmaps';
      const first = await writer.send('POST', base, { metadata: { name: 'workers-0' }, data: { n: '0' } });
      expect(first.status).to.equal(201);
      const rv = JSON.parse(first.text).metadata.resourceVersion as string;
      // The watch starts at a revision the writer's worker produced: the other worker waits for its cache to reach it.
      const watch = await watcher.watch(`${base}?watch=1&resourceVersion=${rv}`);
      expect(watch.status).to.equal(200);
      const written: string[] = [];
      for (let i = 1; i <= 10; i++) {
        const res = await writer.send('POST', base, { metadata: { name: `workers-${i}` }, data: { n: String(i) } });
        expect(res.status).to.equal(201);
        written.push(JSON.parse(res.text).metadata.resourceVersion);
        const upd = await writer.send('PUT', `${base}/workers-${i}`, { ...JSON.parse(res.text), data: { n: `${i}b` } });
        expect(upd.status).to.equal(200);
        written.push(JSON.parse(upd.text).metadata.resourceVersion);
      }
      const seen: Array<[string, string, string]> = [];
      while (seen.length < written.length) {
        const ev = await watch.next(20_000);
        if (ev === null) throw new Error('watch ended');
        seen.push([ev.type, ev.object.metadata.name, ev.object.metadata.resourceVersion]);
      }
      watch.close();
      const want = written.map((r, i): [string, string, string] => [i % 2 === 0 ? 'ADDED' : 'MODIFIED', `workers-${Math.floor(i / 2) + 1}`, r]);
      expect(seen).to.deep.equal(want);
    } finally {
      writer.close();
      watcher.close();
    }
  });

  it('survives a worker killed with SIGKILL: the others answer, the primary forks a new one', async () => {
    const [victim, survivor] = workers as [number, number];
    process.kill(victim, 'SIGKILL');
    await eventually(() => server.log().includes('worker exited unexpectedly; restarting'), 20_000, 'the primary saw the exit');
    for (let i = 0; i < 8; i++) {
      const c = await clientOnWorker(server.url, tls, [survivor]);
      expect((await c.send('GET', '/api/v1/namespaces/default')).status).to.equal(200);
      c.close();
    }
    let replaced: number[] = [];
    await eventually(async () => {
      replaced = await childPids(server.pid, MARKER);
      return replaced.length === 2 && !replaced.includes(victim);
    }, 60_000, 'a new worker');
    const fresh = replaced.find((p) => p !== survivor)!;
    await eventually(async () => {
      const c = await clientOnWorker(server.url, tls, replaced, fresh).catch(() => undefined);
      if (!c) return false;
      const ok = (await c.send('GET', '/readyz')).status === 200;
      c.close();
      return ok;
    }, 120_000, 'the new worker serving and ready');
    workers = replaced;
  });

  it('SIGTERM to the primary: every worker fails /readyz yet serves for the shutdown delay, then all stop, then the managed etcd; exit 0', async () => {
    const etcdPid = Number((await readFile(path.join(server.dataDir, 'etcd.pid'), 'utf8')).split('\n')[0]);
    expect(await processAlive(etcdPid)).to.equal(true);
    const stopped = server.stop();
    for (const pid of workers) {
      await eventually(async () => {
        const c = await clientOnWorker(server.url, tls, workers, pid);
        const ready = await c.send('GET', '/readyz');
        const served = await c.send('GET', '/api/v1/namespaces/default');
        c.close();
        return ready.status === 500 && served.status === 200;
      }, 4000, `worker ${pid} draining`);
    }
    const code = await stopped;
    expect(code).to.equal(0);
    for (const pid of [...workers, etcdPid]) expect(await processAlive(pid), `pid ${pid}`).to.equal(false);
  });
});
