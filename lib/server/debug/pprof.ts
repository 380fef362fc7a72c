/**
 * `/debug/pprof/` equivalents Node offers (issue #16 item 7; upstream serves Go's net/http/pprof
 * there when `--profiling` is on, the default):
 *
 * - `/debug/pprof/heap`: a V8 heap snapshot (`.heapsnapshot` JSON, for Chrome DevTools' Memory tab),
 *   streamed. Taking it stops the event loop while V8 walks the heap (inherent to V8: every
 *   request waits; hack/bench/heap-snapshot.ts measures it: about 2 minutes at 30,000 Pods), so
 *   it is for debugging only.
 * - `/debug/pprof/heap?seconds=N`: what was allocated during N seconds (Go's delta heap profile),
 *   from V8's sampling heap profiler (`.heapprofile` JSON, for the Memory tab's allocation
 *   sampling): one sample per 32 KiB allocated on average, objects already collected included,
 *   so it shows the transient allocations too. The loop keeps running, so it is safe on a
 *   loaded server. One at a time (V8 samples one session per process). Go's parameter rules:
 *   a value that is not a positive integer is its 400 `invalid value for "seconds" - must be a
 *   positive integer`, one not below the request deadline its 400 about the WriteTimeout, and
 *   a non-zero `debug` with it its 400 `seconds and debug params are incompatible`.
 * - `/debug/pprof/profile?seconds=N`: a CPU profile of N seconds (default 30, Go's rule: a missing,
 *   bad or non-positive value is 30) from the inspector's sampling profiler (`.cpuprofile` JSON).
 *   One at a time, as Go's. The loop keeps running while it samples.
 * - `/debug/pprof/`: the index; another name under it is Go's 404 `Unknown profile`.
 *
 * Errors are Go's plain-text pprof errors (`X-Go-Pprof: 1`), not Status objects, as upstream.
 */
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapSnapshot } from 'node:v8';
import type { Context } from 'koa';
import { parseInt64 } from '../../apimachinery/labels/requirement.js';

type Inspector = typeof import('node:inspector/promises');

/**
 * Node's inspector, loaded at the first profile rather than at every start (~3 ms of it; issue #22
 * § Ready in under a second). By `require`, not `import()`: the bundle runs through a V8 code
 * cache (lib/cmd/code-cache.ts), and Node 20 loses a dynamic import's callback in functions
 * compiled from that cache, so an `import()` there fails once the cache is used.
 */
const loadInspector = (): Inspector => createRequire(import.meta.url)('node:inspector/promises') as Inspector;

/** The profiles served, with the index's descriptions. */
export const PROFILES: ReadonlyArray<{ name: string; href: string; description: string }> = [
  {
    name: 'heap',
    href: 'heap',
    description:
      'A V8 heap snapshot of the live objects (.heapsnapshot JSON, for Chrome DevTools). Taking it pauses the server. With the seconds GET parameter, the allocations sampled over that many seconds instead (.heapprofile JSON), without a pause.',
  },
  { name: 'profile', href: 'profile', description: 'CPU profile (.cpuprofile JSON). You can specify the duration in the seconds GET parameter (default 30). After you get the profile file, open it in Chrome DevTools or speedscope.' },
];

/** Go's pprof error: plain text, `X-Go-Pprof: 1`, no caching. */
function serveError(koa: Context, status: number, text: string): void {
  koa.status = status;
  koa.set('X-Go-Pprof', '1');
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.remove('Content-Disposition');
  koa.type = 'text/plain; charset=utf-8';
  koa.body = `${text}\n`;
}

/** The headers of a profile download. */
function attachment(koa: Context, filename: string): void {
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.type = 'application/octet-stream';
  koa.set('Content-Disposition', `attachment; filename="${filename}"`);
}

/** Serves the index page (Go's layout, our profiles). */
export function serveIndex(koa: Context): void {
  const rows = PROFILES.map((p) => `<tr><td><a href='${p.href}'>${p.name}</a></td></tr>\n`).join('');
  const descriptions = PROFILES.map((p) => `<li><div class=profile-name>${p.name}: </div> ${p.description}</li>\n`).join('');
  koa.type = 'text/html; charset=utf-8';
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.body =
    '<html>\n<head>\n<title>/debug/pprof/</title>\n<style>\n.profile-name{\n\tdisplay:inline-block;\n\twidth:6rem;\n}\n</style>\n</head>\n<body>\n' +
    '/debug/pprof/\n<br>\n<br>\nTypes of profiles available:\n<table>\n<thead><td>Profile</td></thead>\n' +
    rows +
    '</table>\n<br>\n<p>\nProfile Descriptions:\n<ul>\n' +
    descriptions +
    '</ul>\n</p>\n</body>\n</html>\n';
}

/** Serves `/debug/pprof/<name>` for a name without its own handler: Go's 404. */
export function serveUnknownProfile(koa: Context): void {
  serveError(koa, 404, 'Unknown profile');
}

/** The first value of query parameter `name` ('' when absent). */
function queryValue(koa: Context, name: string): string {
  const raw = koa.query[name] as string | string[] | undefined;
  return (Array.isArray(raw) ? raw[0] : raw) ?? '';
}

/** `text` as Go's strconv.ParseInt(text, 10, 64) reads it; undefined where Go returns an error. */
function int64(text: string): number | undefined {
  const n = parseInt64(text);
  return n === undefined ? undefined : Number(n);
}

type Session = InstanceType<Inspector['Session']>;

/** One of the inspector's samplers: used by one request at a time (as Go's CPU profiler; V8 also keeps one heap sampling session per process). */
interface Sampler {
  busy: boolean;
  /** The 500's text for a second request while one samples (Go's for the CPU profiler; Go allows concurrent heap deltas, V8 does not). */
  busyMessage: string;
  /** The attachment's file name. */
  file: string;
  start(session: Session): Promise<unknown>;
  /** Stops sampling and returns the profile. */
  stop(session: Session): Promise<unknown>;
}

const cpuSampler: Sampler = {
  busy: false,
  busyMessage: 'Could not enable CPU profiling: cpu profiling already in use',
  file: 'profile.cpuprofile',
  start: async (session) => {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  },
  stop: async (session) => (await session.post('Profiler.stop')).profile,
};

const heapSampler: Sampler = {
  busy: false,
  busyMessage: 'Could not enable heap profiling: heap profiling already in use',
  file: 'heap.heapprofile',
  start: (session) => session.post('HeapProfiler.startSampling', { samplingInterval: 32 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }),
  stop: async (session) => (await session.post('HeapProfiler.stopSampling')).profile,
};

/**
 * Samples with `sampler` for `seconds` and answers the profile as JSON; a 500 with the sampler's
 * text while another request samples with it. Stops early (and answers nothing) when the request is aborted.
 */
async function serveSampled(koa: Context, signal: AbortSignal, seconds: number, sampler: Sampler): Promise<void> {
  if (sampler.busy) return serveError(koa, 500, sampler.busyMessage);
  const session = new (loadInspector().Session)();
  sampler.busy = true;
  try {
    session.connect();
    await sampler.start(session);
    await sleep(seconds * 1000, undefined, { signal }).catch(() => undefined);
    const profile = await sampler.stop(session);
    if (signal.aborted) return;
    attachment(koa, sampler.file);
    koa.body = JSON.stringify(profile);
  } finally {
    session.disconnect();
    sampler.busy = false;
  }
}

/**
 * `/debug/pprof/heap`: without `seconds`, streams a V8 heap snapshot (blocks the event loop while
 * V8 takes it); with it, the allocations sampled over that many seconds (see the module
 * description). Stops early (and answers nothing) when the request is aborted.
 * @param maxSeconds the request deadline: a duration not below it is Go's 400.
 */
export async function serveHeap(koa: Context, signal: AbortSignal, maxSeconds: number): Promise<void> {
  const text = queryValue(koa, 'seconds');
  if (text === '') {
    attachment(koa, 'heap.heapsnapshot');
    koa.body = getHeapSnapshot();
    return;
  }
  const seconds = int64(text);
  if (seconds === undefined || seconds <= 0) return serveError(koa, 400, 'invalid value for "seconds" - must be a positive integer');
  if (seconds >= maxSeconds) return serveError(koa, 400, "profile duration exceeds server's WriteTimeout");
  if ((int64(queryValue(koa, 'debug')) ?? 0) !== 0) return serveError(koa, 400, 'seconds and debug params are incompatible');
  return serveSampled(koa, signal, seconds, heapSampler);
}

/**
 * Samples the CPU for `seconds` and answers the `.cpuprofile` JSON. Stops early (and answers
 * nothing) when the request is aborted.
 * @param maxSeconds the request deadline: a duration not below it is Go's 400
 *   `profile duration exceeds server's WriteTimeout`.
 */
export async function serveCPUProfile(koa: Context, signal: AbortSignal, maxSeconds: number): Promise<void> {
  let seconds = int64(queryValue(koa, 'seconds')) ?? 0;
  if (!(seconds > 0)) seconds = 30;
  if (seconds >= maxSeconds) return serveError(koa, 400, "profile duration exceeds server's WriteTimeout");
  return serveSampled(koa, signal, seconds, cpuSampler);
}
