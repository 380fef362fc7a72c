/**
 * Large and amplifying inputs: what one request near the limits costs, and how long it holds the
 * event loop (the worst latency of a cheap GET sent every 5 ms while it runs). Rows: a ConfigMap
 * of about 1 MB written by create, merge patch, apply and PUT (updates of it failed with 500
 * before the stored value stopped being sent twice to etcd); a strategic merge patch deleting
 * half of a 16,000-item list (12 s when items were found by scanning); a JSON patch copying part
 * of an object into itself 24 times (17 s before upstream's copy bound; now refused with 422).
 * Run: `npx tsx hack/bench/large-inputs.ts` (part of `make bench`).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { type BenchClient, runBench } from './bench-client.js';
import { printTable } from './stats.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const ROUNDS = Number(process.env.BENCH_LARGE_ROUNDS ?? 3);

/** `keys` ConfigMap entries of about `bytes` in all. */
function data(keys: number, bytes: number, fill: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < keys; i++) out[`k${i}`] = fill.repeat(Math.floor(bytes / keys) - 8);
  return out;
}

/** The status of a call (a refusal is an answer here, not an error). */
async function status(client: BenchClient, method: string, path: string, body: unknown, contentType: string): Promise<number> {
  try {
    return (await client.call(method, path, { body: Buffer.from(JSON.stringify(body)), headers: { 'Content-Type': contentType } })).status;
  } catch (err) {
    const m = /: (\d{3}) /.exec((err as Error).message);
    if (!m) throw err;
    return Number(m[1]);
  }
}

interface Row {
  name: string;
  statuses: Set<number>;
  ms: number[];
  heldMs: number[];
}

runBench('large-inputs', 4, async ({ client }) => {
  const rows = new Map<string, Row>();
  /** Runs one request while probing the server every 5 ms; records its time and the worst probe. */
  const run = async (name: string, method: string, path: string, body: unknown, contentType = 'application/json') => {
    let done = false;
    let worst = 0;
    const probe = (async () => {
      while (!done) {
        const t = performance.now();
        await client.call('GET', '/readyz');
        worst = Math.max(worst, performance.now() - t);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const t = performance.now();
    const code = await status(client, method, path, body, contentType);
    const ms = performance.now() - t;
    done = true;
    await probe;
    const row = rows.get(name) ?? { name, statuses: new Set(), ms: [], heldMs: [] };
    row.statuses.add(code);
    row.ms.push(ms);
    row.heldMs.push(worst);
    rows.set(name, row);
  };

  for (let round = 0; round < ROUNDS; round++) {
    const cm = `big-${round}`;
    await run('ConfigMap 1 MB (1,000 keys): create', 'POST', CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cm }, data: data(1_000, 1_000_000, 'x') });
    await run('  merge patch of one key', 'PATCH', `${CONFIGMAPS}/${cm}`, { data: { k0: 'changed' } }, 'application/merge-patch+json');
    await run('  apply of a label (another manager)', 'PATCH', `${CONFIGMAPS}/${cm}?fieldManager=bench`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cm, labels: { a: 'b' } } }, 'application/apply-patch+yaml');
    await run('  PUT of new data', 'PUT', `${CONFIGMAPS}/${cm}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cm }, data: data(1_000, 1_000_000, 'y') });

    const dep = `env-${round}`;
    const env = Array.from({ length: 16_000 }, (_, i) => ({ name: `E${i}`, value: 'v' }));
    const template = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', env }] } };
    await run('Deployment, 16,000 env vars: create', 'POST', DEPLOYMENTS, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: dep }, spec: { selector: { matchLabels: { a: 'b' } }, template } });
    const deletions = env.slice(0, 8_000).map((e) => ({ name: e.name, $patch: 'delete' }));
    await run('  strategic merge patch deleting 8,000', 'PATCH', `${DEPLOYMENTS}/${dep}`, { spec: { template: { spec: { containers: [{ name: 'c', env: deletions }] } } } }, 'application/strategic-merge-patch+json');

    const bomb = [{ op: 'copy', from: '/data', path: '/x' }, ...Array.from({ length: 24 }, (_, i) => ({ op: 'copy', from: '/x', path: `/x/y${i}` }))];
    await run('JSON patch doubling the object 24 times', 'PATCH', `${CONFIGMAPS}/${cm}`, bomb, 'application/json-patch+json');
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`\nLarge inputs: median of ${ROUNDS} rounds (${os.cpus().length} cores, node ${process.version})\n`);
  printTable(
    ['request', 'status', 'ms', 'loop held ms (worst probe)'],
    [...rows.values()].map((r) => [r.name, [...r.statuses].join('/'), Math.round(median(r.ms)), Math.round(median(r.heldMs))]),
  );
});
