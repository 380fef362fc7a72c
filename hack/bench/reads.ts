/**
 * Reads-at-scale benchmark (issue #4 item 8): list of 10,000 Pods (~2 KiB each) from the watch
 * cache and from etcd — time and server RSS; 1,000 concurrent watchers on one resource with
 * 100 writes/s — event delivery latency p50/p99 and server CPU; chunked listing of the 10,000
 * Pods with limit 500. Run: `npx tsx hack/bench/reads.ts` (part of `make bench`).
 */
import { Agent, request } from 'node:https';
import { runBench } from './bench-client.js';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds, rssMiB } from './proc.js';
import { measure, printTable } from './stats.js';

const PODS = Number(process.env.BENCH_PODS ?? 10_000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1_000);
const WRITES_PER_SECOND = 100;
const WRITE_SECONDS = 10;

function pod(name: string): Record<string, unknown> {
  return {
    metadata: { name, labels: { app: 'bench', tier: 'backend', release: 'stable' }, annotations: { note: 'x'.repeat(600) } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/team/app:1.2.3',
          args: ['--port=8080', '--verbose'],
          ports: [{ name: 'http', containerPort: 8080 }],
          env: [
            { name: 'MODE', value: 'production' },
            { name: 'REGION', value: 'eu-west-1' },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
        },
      ],
      nodeName: 'node-1',
    },
  };
}

runBench('reads', 64, async ({ server, client }) => {
  const url = new URL(server.url);
  const { cert, key } = server.admin.creds;
  const call = (method: string, p: string, body?: unknown) => client.call(method, p, { body, keepText: method === 'GET' && p.includes('limit=') });
  const rows: (string | number)[][] = [];
  await call('POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
  const pods = '/api/v1/namespaces/bench/pods';
  const fill = await measure('create pods', PODS, 32, (i) => call('POST', pods, pod(`pod-${i}`)).then(() => undefined));
  const size = (await call('GET', `${pods}/pod-0`)).bytes;
  rows.push([`create ${PODS} pods (32 clients)`, `${fill.rate.toFixed(0)} req/s`, `p99 ${fill.p99.toFixed(1)} ms`, `${rssMiB(server.pid).toFixed(0)} MiB`]);
  let bytes = 0;
  const listed = (await call('GET', `${pods}?limit=1`)).text;
  const rv = JSON.parse(listed).metadata.resourceVersion as string;
  for (const [name, q] of [
    ['list from cache (resourceVersion=0)', '?resourceVersion=0'],
    ['list, consistent (unset; cache once caught up)', ''],
    ['list at an exact revision (Exact; the cache snapshot of it)', `?resourceVersion=${rv}&resourceVersionMatch=Exact`],
  ] as const) {
    const r = await measure(name, 10, 1, async () => {
      bytes = (await call('GET', `${pods}${q}`)).bytes;
    });
    rows.push([name, `${r.p50.toFixed(0)} ms p50`, `${r.p99.toFixed(0)} ms max`, `${rssMiB(server.pid).toFixed(0)} MiB`]);
  }
  const chunked = await measure('chunked', 3, 1, async () => {
    let cont = '';
    let pages = 0;
    do {
      const page = JSON.parse((await call('GET', `${pods}?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`)).text);
      cont = page.metadata.continue ?? '';
      pages++;
    } while (cont);
    if (pages !== Math.ceil(PODS / 500)) throw new Error(`expected ${Math.ceil(PODS / 500)} pages, got ${pages}`);
  });
  rows.push([`chunked list, limit 500 (${Math.ceil(PODS / 500)} pages)`, `${chunked.p50.toFixed(0)} ms p50`, `${chunked.p99.toFixed(0)} ms max`, `${rssMiB(server.pid).toFixed(0)} MiB`]);

  const watchAgent = new Agent({ keepAlive: true, maxSockets: Infinity, ca: server.admin.ca, cert, key });
  const latencies: number[] = [];
  const streams: { destroy(): void }[] = [];
  let connected = 0;
  const target = '/api/v1/namespaces/bench/configmaps';
  await Promise.all(
    Array.from({ length: WATCHERS }, () =>
      new Promise<void>((resolve, reject) => {
        const req = request({ hostname: url.hostname, port: url.port, path: `${target}?watch=1&resourceVersion=0`, agent: watchAgent }, (res) => {
          connected++;
          let buf = '';
          res.on('data', (c: Buffer) => {
            const now = Date.now();
            buf += c.toString();
            let i: number;
            while ((i = buf.indexOf('\n')) >= 0) {
              const m = /"sent":"(\d+)"/.exec(buf.slice(0, i));
              buf = buf.slice(i + 1);
              if (m) latencies.push(now - Number(m[1]));
            }
          });
          resolve();
        });
        req.on('error', reject);
        req.end();
        streams.push(req);
      }),
    ),
  );
  await sleep(1000);
  const cpuBefore = cpuSeconds(server.pid);
  const t0 = Date.now();
  const writes = WRITES_PER_SECOND * WRITE_SECONDS;
  for (let i = 0; i < writes; i++) {
    const due = t0 + (i * 1000) / WRITES_PER_SECOND;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    void call('POST', target, { metadata: { name: `w-${i}`, annotations: { sent: String(Date.now()) } }, data: { v: 'x'.repeat(512) } });
  }
  const expected = writes * WATCHERS;
  const deadline = Date.now() + 60_000;
  while (latencies.length < expected && Date.now() < deadline) await sleep(100);
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const wall = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  rows.push([
    `${connected} watchers × ${WRITES_PER_SECOND} writes/s for ${WRITE_SECONDS}s (${latencies.length}/${expected} events)`,
    `p50 ${pct(50)} ms`,
    `p99 ${pct(99)} ms`,
    `${rssMiB(server.pid).toFixed(0)} MiB, CPU ${((100 * cpu) / wall).toFixed(0)}% of a core`,
  ]);
  for (const s of streams) s.destroy();
  watchAgent.destroy();
  console.log(`\nReads at scale: ${PODS} Pods of ${size} bytes (${os.cpus().length} cores, node ${process.version}); last list ${(bytes / 1024 / 1024).toFixed(1)} MiB\n`);
  printTable(['measurement', 'time / latency', '', 'server RSS / CPU'], rows);
});
