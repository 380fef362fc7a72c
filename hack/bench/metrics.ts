/**
 * Metrics rendering benchmark (issue #16 item 3): the time to render `/metrics` and the longest
 * stall of the event loop while rendering, for about 1,000 and 10,000 sample lines of the
 * server's own metrics (request counters and latency histograms over many resources, as a busy
 * server accumulates them), with prom-client's one-turn `Registry.metrics()` and with the sliced
 * renderer `/metrics` uses (lib/metrics/exposition.ts). Runs in process, no server needed.
 * Run: `npx tsx hack/bench/metrics.ts`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Context } from 'koa';
import type { Counter, Histogram } from 'prom-client';
import { renderExposition } from '../../lib/metrics/exposition.js';
import { parseRequestInfo } from '../../lib/request/request-info.js';
import { ServerMetrics } from '../../lib/server/metrics.js';

const VERBS = ['GET', 'LIST', 'WATCH', 'POST', 'PUT', 'PATCH', 'DELETE', 'APPLY'];
const RENDERS = 20;

/** Sample lines (not comments) of an exposition. */
function sampleLines(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) if (line !== '' && !line.startsWith('#')) n++;
  return n;
}

/** Adds request series for `resources` resources until the exposition has about `target` sample lines. */
async function populate(m: ServerMetrics, target: number): Promise<number> {
  const requests = m.registry.getSingleMetric('apiserver_request_total') as Counter<string>;
  const latency = m.registry.getSingleMetric('apiserver_request_duration_seconds') as Histogram<string>;
  let lines = sampleLines(await m.registry.metrics());
  for (let r = 0; lines < target; r++) {
    for (const verb of VERBS) {
      const labels = { verb, dry_run: '', group: 'bench.example.com', version: 'v1', resource: `things${r}`, subresource: '', scope: 'namespace', component: 'apiserver' };
      requests.inc({ ...labels, code: '200' });
      if (r % 4 === 0) latency.observe(labels, 0.01);
    }
    if (r % 10 === 0) lines = sampleLines(await m.registry.metrics());
  }
  return sampleLines(await m.registry.metrics());
}

interface Row {
  renderer: string;
  series: number;
  bytes: number;
  renderMs: number;
  maxStallMs: number;
  loopP99Ms: number;
}

/** Renders `RENDERS` times; reports the median render time and the longest event loop stall seen. */
async function measure(series: number, renderer: string, render: () => Promise<string>): Promise<Row> {
  const times: number[] = [];
  let maxStall = 0;
  let bytes = 0;
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  for (let i = 0; i < RENDERS; i++) {
    let last = performance.now();
    let ticking = true;
    const tick = () => {
      const now = performance.now();
      maxStall = Math.max(maxStall, now - last);
      last = now;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const start = performance.now();
    const text = await render();
    times.push(performance.now() - start);
    ticking = false;
    bytes = Buffer.byteLength(text);
    await yieldToLoop();
  }
  h.disable();
  times.sort((a, b) => a - b);
  return { renderer, series, bytes, renderMs: times[Math.floor(times.length / 2)]!, maxStallMs: maxStall, loopP99Ms: h.percentile(99) / 1e6 };
}

/**
 * The request-path cost of recording (microseconds per request): the request middleware around
 * a no-op handler (labels, counter, three histograms), one etcd request record, and the admission
 * step and controller records of a create through ten plugins.
 */
async function requestPathCost(): Promise<Array<[string, number]>> {
  const m = new ServerMetrics();
  const requestContext = { requestInfo: parseRequestInfo('POST', '/api/v1/namespaces/default/configmaps', new URLSearchParams()) };
  const koa = {
    method: 'POST',
    querystring: '',
    status: 201,
    respond: true,
    state: { requestContext },
    response: { length: 300 },
    res: {},
    get: () => 'application/json',
  } as unknown as Context;
  const middleware = m.middleware({ lookup: () => ({ subresources: new Map() }) as never });
  const next = () => Promise.resolve();
  const etcd = m.storage.forResource('configmaps');
  const N = 200_000;
  const time = async (run: () => unknown): Promise<number> => {
    for (let i = 0; i < N / 10; i++) await run();
    const start = process.hrtime.bigint();
    for (let i = 0; i < N; i++) await run();
    return Number(process.hrtime.bigint() - start) / 1e3 / N;
  };
  return [
    ['request middleware (create)', await time(() => middleware(koa, next))],
    ['etcd request record', await time(() => etcd.request('create', process.hrtime.bigint(), false))],
    [
      'admission records (2 steps + 10 plugins)',
      await time(() => {
        m.admission.observeStep('admit', 'CREATE', false, 0.001);
        m.admission.observeStep('validate', 'CREATE', false, 0.001);
        for (let p = 0; p < 10; p++) m.admission.observeController(`Plugin${p}`, p % 2 ? 'admit' : 'validate', 'CREATE', false, 0.0001);
      }),
    ],
  ];
}

async function main(): Promise<void> {
  const cost = await requestPathCost();
  console.log('| request-path recording | µs per request |');
  console.log('|---|---:|');
  for (const [what, us] of cost) console.log(`| ${what} | ${us.toFixed(2)} |`);
  console.log();
  const rows: Row[] = [];
  for (const target of [1_000, 10_000]) {
    const m = new ServerMetrics();
    const series = await populate(m, target);
    const renderers: Array<[string, () => Promise<string>]> = [
      ['prom-client metrics()', () => m.registry.metrics()],
      ['sliced (served)', () => renderExposition(m.registry)],
      // The loop's own jitter on this machine (other processes, GC): 20 ms with nothing rendered.
      ['idle baseline', () => new Promise<string>((resolve) => setTimeout(() => resolve(''), 20))],
    ];
    for (const [name, render] of renderers) {
      await measure(series, name, render);
      rows.push(await measure(series, name, render));
    }
  }
  console.log('| renderer | sample lines | bytes | render (median ms) | longest loop stall (ms) | loop delay p99 (ms) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.renderer} | ${r.series} | ${r.bytes} | ${r.renderMs.toFixed(2)} | ${r.maxStallMs.toFixed(2)} | ${r.loopP99Ms.toFixed(2)} |`);
}

await main();
