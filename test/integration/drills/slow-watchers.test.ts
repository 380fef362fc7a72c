/**
 * The slow-watcher drill (issue #19 items 1 and 5): against a real server process, 200 watchers
 * that never read their stream (raw TLS sockets, paused after sending the request) and a few fast
 * watchers that read everything, while one writer updates 16 KiB ConfigMaps at ~20/s for 25 s
 * (the stuck watchers start with the initial state of 200 more such ConfigMaps).
 * The server's RSS (from /proc/<pid>/status) must stay within a stated bound, every stuck
 * watcher's stream must be closed by the server (counted in `apiserver_terminated_watchers_total`),
 * and every fast watcher must receive every update, in order, with no gap. Prints the RSS figures.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { connect, type TLSSocket } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { WatchStream } from '../../framework/client.js';
import { useEtcd } from '../../framework/etcd.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';

const STUCK_WATCHERS = 200;
const FAST_WATCHERS = 3;
const CONFIGMAPS = 4;
/**
 * ConfigMaps of 16 KiB that exist before the watchers start: the stuck watchers list them first
 * (their initial ADDED events, ~3 MiB each), which fills the kernel's socket buffers (several MiB
 * per connection on loopback) early, so the drill reaches the server's own buffering within its
 * time. The fast watchers start after them.
 */
const FILLER = 200;
/** Mean interval between two updates (ms): ~20/s. */
const WRITE_INTERVAL_MS = 50;
const WRITE_SECONDS = 25;
const PAYLOAD_BYTES = 16 * 1024;
/** The stated bound: server RSS growth from the moment all watchers are connected to the end of the writes. */
const RSS_GROWTH_BOUND_MB = 150;

/** Resident set size of `pid` in MiB. */
async function rssMB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** A watcher that sends its request and then never reads (its socket is paused). */
interface StuckWatcher {
  socket: TLSSocket;
  /** Set once the stream ended: the terminating chunk was read or the socket closed. */
  ended: boolean;
  bytes: number;
}

function openStuckWatcher(server: ServerProcess, path: string): Promise<StuckWatcher> {
  const url = new URL(server.url);
  const admin = server.admin;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: admin.ca, cert: admin.creds.cert, key: admin.creds.key, servername: 'localhost' });
    const w: StuckWatcher = { socket, ended: false, bytes: 0 };
    let tail = '';
    socket.once('secureConnect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      socket.pause();
      resolve(w);
    });
    socket.on('data', (c: Buffer) => {
      w.bytes += c.length;
      tail = (tail + c.toString('latin1')).slice(-16);
      if (tail.endsWith('\r\n0\r\n\r\n')) w.ended = true;
    });
    socket.on('close', () => (w.ended = true));
    socket.on('error', (err) => (w.bytes === 0 && !w.ended ? reject(err) : undefined));
  });
}

/** The server's V8 heap in use and its external memory (MiB), from its runtime metrics. */
async function heapMB(server: ServerProcess): Promise<{ heap: number; external: number }> {
  const text = (await server.admin.get('/metrics')).text;
  const sample = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return { heap: sample('nodejs_heap_size_used_bytes'), external: sample('nodejs_external_memory_bytes') };
}

/** The `apiserver_terminated_watchers_total` sample for configmaps (0 when absent). */
async function terminatedWatchers(server: ServerProcess): Promise<number> {
  const res = await server.admin.get('/metrics');
  const line = res.text.split('\n').find((l) => l.startsWith('apiserver_terminated_watchers_total{resource="configmaps"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('slow-watcher drill (issue #19)', function () {
  this.timeout(120_000);
  let server: ServerProcess | undefined;
  const stuck: StuckWatcher[] = [];
  const fast: WatchStream[] = [];

  before(async () => {
    const { endpoint } = await useEtcd();
    server = await startServerProcess([`--etcd-servers=${endpoint}`, `--etcd-prefix=/${randomUUID()}`]);
  });
  after(async () => {
    for (const w of stuck) w.socket.destroy();
    for (const f of fast) f.close();
    await server?.stop();
  });

  it('closes every stuck watcher, keeps RSS bounded, and fast watchers see every update in order', async () => {
    const admin = server!.admin;
    const ns = `drill-${randomUUID().slice(0, 8)}`;
    expect((await admin.post('/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    const collection = `/api/v1/namespaces/${ns}/configmaps`;
    const filler = randomBytes(PAYLOAD_BYTES / 2).toString('hex');
    for (let i = 0; i < FILLER; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const res = await admin.post(collection, { metadata: { name: `filler-${i + j}` }, data: { payload: filler } });
          expect(res.status).to.equal(201);
        }),
      );
    }
    let rv = '';
    for (let i = 0; i < CONFIGMAPS; i++) {
      const res = await admin.post(collection, { metadata: { name: `cm-${i}` }, data: { payload: '' } });
      expect(res.status).to.equal(201);
      rv = res.body.metadata.resourceVersion;
    }
    const watchPath = `${collection}?watch=1&resourceVersion=${rv}`;
    await sleep(1_000);
    const baseline = await rssMB(server!.pid);
    const heapBefore = await heapMB(server!);
    const samples: number[] = [];
    const timeline: string[] = [];
    const started = Date.now();
    const sample = async () => {
      const mb = await rssMB(server!.pid);
      samples.push(mb);
      timeline.push(`${((Date.now() - started) / 1000).toFixed(0)}s ${mb.toFixed(0)} MB/${await terminatedWatchers(server!)} closed`);
    };
    const sampler = setInterval(() => void sample().catch(() => undefined), 2000);
    sampler.unref();
    for (let i = 0; i < STUCK_WATCHERS; i++) stuck.push(await openStuckWatcher(server!, `${collection}?watch=1`));
    for (let i = 0; i < FAST_WATCHERS; i++) {
      const f = await admin.watch(watchPath);
      expect(f.status).to.equal(200);
      fast.push(f);
    }
    await sleep(2_000);
    const connected = await rssMB(server!.pid);
    const written: string[] = [];
    const deadline = Date.now() + WRITE_SECONDS * 1000;
    // One writer, one lane per ConfigMap (each lane updates its object every CONFIGMAPS × WRITE_INTERVAL_MS): ~20 updates/s in all.
    const lane = async (name: string) => {
      while (Date.now() < deadline) {
        const started = Date.now();
        const payload = randomBytes(PAYLOAD_BYTES / 2).toString('hex');
        const res = await admin.put(`${collection}/${name}`, { metadata: { name, namespace: ns }, data: { payload } });
        expect(res.status, res.text).to.equal(200);
        written.push(res.body.metadata.resourceVersion);
        await sleep(Math.max(0, CONFIGMAPS * WRITE_INTERVAL_MS - (Date.now() - started)));
      }
    };
    try {
      await Promise.all(Array.from({ length: CONFIGMAPS }, (_, i) => lane(`cm-${i}`)));
    } finally {
      clearInterval(sampler);
    }
    written.sort((a, b) => Number(a) - Number(b));
    const end = await rssMB(server!.pid);
    const heapAfter = await heapMB(server!);
    const peak = Math.max(end, connected, ...samples);

    // Fast watchers: every update, in order, no gap.
    for (const f of fast) {
      const seen: string[] = [];
      while (seen.length < written.length) {
        const ev = await f.next(15_000);
        expect(ev, 'fast watch ended early').to.not.equal(null);
        if (ev.type === 'BOOKMARK') continue;
        expect(ev.type).to.equal('MODIFIED');
        seen.push(ev.object.metadata.resourceVersion);
      }
      expect(seen).to.deep.equal(written);
    }

    // Stuck watchers: once they read, each finds its stream ended by the server.
    for (const w of stuck) w.socket.resume();
    const closeDeadline = Date.now() + 20_000;
    while (stuck.some((w) => !w.ended) && Date.now() < closeDeadline) await sleep(100);
    const closed = stuck.filter((w) => w.ended).length;
    const terminated = await terminatedWatchers(server!);
    const perWatcherKB = stuck.reduce((a, w) => a + w.bytes, 0) / stuck.length / 1024;

    console.log(
      [
        `      slow-watcher drill: ${STUCK_WATCHERS} stuck watchers (initial state: ${FILLER} ConfigMaps) + ${FAST_WATCHERS} fast watchers, ${written.length} updates of ${PAYLOAD_BYTES / 1024} KiB in ${WRITE_SECONDS} s`,
        `      | server RSS before the watchers | all connected (+2 s) | end of writes | peak | peak growth |`,
        `      | ${baseline.toFixed(1)} MB | ${connected.toFixed(1)} MB | ${end.toFixed(1)} MB | ${peak.toFixed(1)} MB | ${(peak - baseline).toFixed(1)} MB |`,
        `      RSS / watchers closed over time: ${timeline.join(', ')}`,
        `      V8 heap used ${heapBefore.heap.toFixed(1)} → ${heapAfter.heap.toFixed(1)} MB, external ${heapBefore.external.toFixed(1)} → ${heapAfter.external.toFixed(1)} MB`,
        `      stuck watchers closed: ${closed}/${STUCK_WATCHERS}; apiserver_terminated_watchers_total: ${terminated}; mean bytes a stuck watcher got: ${perWatcherKB.toFixed(0)} KiB`,
      ].join('\n'),
    );
    expect(closed, 'stuck watchers whose stream the server closed').to.equal(STUCK_WATCHERS);
    expect(terminated).to.be.at.least(STUCK_WATCHERS);
    expect(peak - baseline, `RSS growth (MB) above the bound ${RSS_GROWTH_BOUND_MB}`).to.be.below(RSS_GROWTH_BOUND_MB);
  });
});
