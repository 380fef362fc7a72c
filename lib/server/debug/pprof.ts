/**
 * `/debug/pprof/` equivalents Node offers (issue #16 item 7; upstream serves Go's net/http/pprof
 * there when `--profiling` is on, the default):
 *
 * - `/debug/pprof/heap`: a V8 heap snapshot (`.heapsnapshot` JSON, for Chrome DevTools' Memory tab),
 *   streamed. Taking it stops the event loop while V8 walks the heap (inherent to V8: every
 *   request waits; hack/bench/heap-snapshot.ts measures it), so it is for debugging only.
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
  { name: 'heap', href: 'heap', description: 'A V8 heap snapshot of the live objects (.heapsnapshot JSON, for Chrome DevTools). Taking it pauses the server.' },
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

/** Streams a V8 heap snapshot (blocks the event loop while V8 takes it). */
export function serveHeap(koa: Context): void {
  attachment(koa, 'heap.heapsnapshot');
  koa.body = getHeapSnapshot();
}

/** The CPU profiler is single-use at a time, as Go's. */
let profiling = false;

/**
 * Samples the CPU for `seconds` and answers the `.cpuprofile` JSON. Stops early (and answers
 * nothing) when the request is aborted.
 * @param maxSeconds the request deadline: a duration not below it is Go's 400
 *   `profile duration exceeds server's WriteTimeout`.
 */
export async function serveCPUProfile(koa: Context, signal: AbortSignal, maxSeconds: number): Promise<void> {
  const raw = (koa.query.seconds as string | string[] | undefined) ?? '';
  const text = Array.isArray(raw) ? (raw[0] ?? '') : raw;
  let seconds = /^[+-]?\d+$/.test(text) ? Number(text) : 0;
  if (!(seconds > 0)) seconds = 30;
  if (seconds >= maxSeconds) return serveError(koa, 400, "profile duration exceeds server's WriteTimeout");
  if (profiling) return serveError(koa, 500, 'Could not enable CPU profiling: cpu profiling already in use');
  const session = new (loadInspector().Session)();
  profiling = true;
  try {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await sleep(seconds * 1000, undefined, { signal }).catch(() => undefined);
    const { profile } = await session.post('Profiler.stop');
    if (signal.aborted) return;
    attachment(koa, 'profile.cpuprofile');
    koa.body = JSON.stringify(profile);
  } finally {
    session.disconnect();
    profiling = false;
  }
}
