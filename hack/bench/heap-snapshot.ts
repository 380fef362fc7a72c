/**
 * How long `/debug/pprof/heap` stops the server (issue #16 item 7): V8 takes a heap snapshot
 * synchronously, so every other request waits. Against the real command after start-up (and
 * after 2,000 ConfigMaps are written, so the watch cache holds something), a prober sends
 * `/livez` every 5 ms while the snapshot is requested; the table shows the prober's latency
 * before and during the snapshot (the worst one ≈ the time the loop was blocked), the time to the
 * snapshot's first byte and the whole download. Run: `npx tsx hack/bench/heap-snapshot.ts`.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { useEtcd } from '../../test/framework/etcd.js';
import { startServerProcess } from '../../test/framework/server-process.js';
import { printTable } from './stats.js';

const OBJECTS = 2000;
const ROUNDS = 3;

async function main(): Promise<void> {
  const { endpoint } = await useEtcd();
  const server = await startServerProcess([`--etcd-servers=${endpoint}`, `--etcd-prefix=/${randomUUID()}`]);
  const rows: (string | number)[][] = [];
  try {
    const admin = server.admin;
    await admin.post('/api/v1/namespaces', { metadata: { name: 'bench-heap' } });
    for (let i = 0; i < OBJECTS; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => admin.post('/api/v1/namespaces/bench-heap/configmaps', { metadata: { name: `cm-${i + j}` }, data: { v: 'x'.repeat(512) } })));
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const baseline: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await admin.get('/livez');
        baseline.push(performance.now() - t);
      }
      let probing = true;
      const during: number[] = [];
      const prober = (async () => {
        while (probing) {
          const t = performance.now();
          await admin.get('/livez');
          during.push(performance.now() - t);
          await sleep(5);
        }
      })();
      await sleep(20);
      const start = performance.now();
      const res = await admin.rawStream('/debug/pprof/heap');
      let firstByte = 0;
      let bytes = 0;
      for await (const chunk of res.body) {
        if (firstByte === 0) firstByte = performance.now() - start;
        bytes += (chunk as Buffer).length;
      }
      const total = performance.now() - start;
      probing = false;
      await prober;
      rows.push([
        `round ${round}`,
        Math.max(...baseline),
        Math.max(...during),
        firstByte,
        total,
        bytes / (1 << 20),
      ]);
    }
  } finally {
    await server.stop();
  }
  printTable(['heap snapshot', 'livez max before (ms)', 'livez max during (ms)', 'first byte (ms)', 'download (ms)', 'size (MiB)'], rows);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
