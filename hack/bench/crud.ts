/**
 * CRUD benchmark (issue #2 item 13): create, get, list (1,000 ConfigMaps), update and delete of
 * 1 KiB ConfigMaps at 1 and 32 concurrent clients over HTTPS against the real server command,
 * beside the raw etcd put / range rates measured in the same run with the etcd3 client.
 * Run: `make bench` or `npx tsx hack/bench/crud.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newEtcdClient } from '../../lib/storage/etcd3/client.js';
import { startManagedEtcd } from '../../lib/server/etcd/managed-etcd.js';
import { startServerProcess } from '../../test/framework/server-process.js';
import { BenchClient } from './bench-client.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const VALUE = 'x'.repeat(1024);
const LIST_SIZE = 1000;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-'));
  const etcd = await startManagedEtcd({ dataDir: path.join(dir, 'etcd-data'), logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  const server = await startServerProcess([`--etcd-servers=${etcd.endpoint}`], path.join(dir, 'server'));
  const etcdClient = newEtcdClient([etcd.endpoint]);
  const results: PhaseResult[] = [];
  const raw: PhaseResult[] = [];
  try {
    for (const concurrency of [1, 32]) {
      const client = new BenchClient(server, concurrency);
      const call = (method: string, p: string, body?: unknown) => client.call(method, p, { body }).then(() => undefined);
      const ns = `bench-c${concurrency}`;
      await call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      const cms = `/api/v1/namespaces/${ns}/configmaps`;
      const n = concurrency === 1 ? 1000 : 3000;
      const name = (i: number) => `cm-${i}`;
      results.push(await measure('create', n, concurrency, (i) => call('POST', cms, { metadata: { name: name(i) }, data: { v: VALUE } })));
      results.push(await measure('get', n, concurrency, (i) => call('GET', `${cms}/${name((i * 7919) % n)}`)));
      const listNs = `bench-list-c${concurrency}`;
      await call('POST', '/api/v1/namespaces', { metadata: { name: listNs } });
      await measure('fill', LIST_SIZE, 32, (i) => call('POST', `/api/v1/namespaces/${listNs}/configmaps`, { metadata: { name: name(i) }, data: { v: VALUE } }));
      results.push(await measure(`list ${LIST_SIZE}`, concurrency === 1 ? 30 : 64, concurrency, () => call('GET', `/api/v1/namespaces/${listNs}/configmaps`)));
      results.push(await measure('update', n, concurrency, (i) => call('PUT', `${cms}/${name(i)}`, { metadata: { name: name(i) }, data: { v: VALUE.replace('x', 'y') } })));
      results.push(await measure('delete', n, concurrency, (i) => call('DELETE', `${cms}/${name(i)}`)));
      client.close();

      const prefix = `/bench-raw/c${concurrency}/`;
      raw.push(await measure('etcd put', n, concurrency, async (i) => void (await etcdClient.put(`${prefix}${i}`).value(VALUE))));
      raw.push(await measure('etcd range 1', n, concurrency, async (i) => void (await etcdClient.get(`${prefix}${(i * 7919) % n}`).string())));
      await measure('etcd fill', LIST_SIZE, 32, async (i) => void (await etcdClient.put(`/bench-list/c${concurrency}/${i}`).value(VALUE)));
      raw.push(await measure(`etcd range ${LIST_SIZE}`, concurrency === 1 ? 30 : 64, concurrency, async () => void (await etcdClient.getAll().prefix(`/bench-list/c${concurrency}/`).buffers())));
    }
  } finally {
    etcdClient.close();
    await server.stop();
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const rawOf = (name: string, c: number): PhaseResult | undefined => {
    const key = name === 'create' || name === 'update' || name === 'delete' ? 'etcd put' : name === 'get' ? 'etcd range 1' : `etcd range ${LIST_SIZE}`;
    return raw.find((r) => r.name === key && r.concurrency === c);
  };
  console.log(`\nCRUD over HTTPS, 1 KiB ConfigMaps (${os.cpus().length} cores, node ${process.version})\n`);
  printTable(
    ['verb', 'clients', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'etcd op', 'etcd op/s', 'server/etcd'],
    results.map((r) => {
      const e = rawOf(r.name, r.concurrency);
      return [r.name, r.concurrency, r.count, r.rate, r.p50, r.p99, r.errors, e?.name ?? '', e?.rate ?? 0, e ? `${((100 * r.rate) / e.rate).toFixed(0)}%` : ''];
    }),
  );
  console.log('\nraw etcd (etcd3 client, same run)\n');
  printTable(['op', 'clients', 'ops', 'ops/s', 'p50 ms', 'p99 ms'], raw.map((r) => [r.name, r.concurrency, r.count, r.rate, r.p50, r.p99]));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
