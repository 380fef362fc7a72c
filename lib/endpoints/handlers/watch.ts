/**
 * Watch: a chunked stream of `{type, object}` JSON documents, one per line, or of length-prefixed
 * protobuf WatchEvent frames (spec 000 § Watch event document, § Watch parameters, § Protobuf
 * envelope; spec 001 § Events). Ends on `timeoutSeconds` (default 30–60 min,
 * randomized as upstream), on client disconnect, or when the storage watch ends.
 */
import { JSON_MEDIA_TYPE } from '../../apimachinery/serializers/json.js';
import type { KindDefinition } from '../../apis/define.js';
import { newSelectionPredicate } from '../../registry/generic/predicate.js';
import type { WatchEvent } from '../../storage/interface.js';
import type { WatchEventType } from '../../apimachinery/serializers/protobuf/index.js';
import { isProtobuf, protobufWatchFrame } from './protobuf.js';
import { chooseRepresentation, watchTransform } from './representation.js';
import { parseListParams } from './list-options.js';
import { type Scope, toServed, writeWarnings } from './scope.js';
import { WatchStreamWriter } from './watch-writer.js';

/** Longest timer Node can arm (2^31 - 1 ms); longer watch timeouts are cut to it. */
const MAX_TIMER_SECONDS = Math.floor(2_147_483_647 / 1000);

/** Minimum request timeout of watches without timeoutSeconds (upstream --min-request-timeout). */
export const MIN_REQUEST_TIMEOUT_SECONDS = 1800;

/**
 * A watch's lifetime in seconds, as upstream's watch handler picks it: the client's
 * `timeoutSeconds` when positive; else a random whole number of seconds in
 * [minRequestTimeout, 2 × minRequestTimeout) (`--min-request-timeout`), which spreads reconnects;
 * 0 (no end) when both are 0.
 */
export function watchTimeoutSeconds(requested: number, minRequestTimeoutSeconds: number): number {
  if (requested > 0) return requested;
  return minRequestTimeoutSeconds > 0 ? Math.floor(minRequestTimeoutSeconds * (1 + Math.random())) : 0;
}

/** Serves `watch` on a collection or, with a name, on one object. */
export async function handleWatch(s: Scope): Promise<void> {
  const r = chooseRepresentation(s, 'watch');
  const transform = watchTransform(s, r);
  const p = parseListParams(s.query, true, s.entry.selectableFields, s.watchList, s.entry.version?.fieldLabel, s.entry.kind.custom !== undefined);
  const timeoutSeconds = Math.min(watchTimeoutSeconds(p.timeoutSeconds, s.minRequestTimeoutSeconds ?? MIN_REQUEST_TIMEOUT_SECONDS), MAX_TIMER_SECONDS);
  const watcher = await s.store.watch(s.req, s.namespace, s.name, {
    predicate: newSelectionPredicate(p.label, p.field, s.store.strategy),
    resourceVersion: p.resourceVersion,
    resourceVersionMatch: p.resourceVersionMatch,
    allowWatchBookmarks: p.allowWatchBookmarks,
    sendInitialEvents: p.sendInitialEvents === true,
    timeoutMs: timeoutSeconds * 1000,
  });
  if (s.req.signal.aborted) {
    // The client left while the watch was being set up (e.g. waiting for a future resourceVersion).
    watcher.stop(true);
    s.koa.respond = false;
    return;
  }
  const kind = s.entry.kind;
  // Only an alias or another version spells events differently from storage; the stored kind passes them as they are.
  const aliased = s.entry.conversion !== undefined && s.entry.conversion.servedKind !== s.entry.conversion.storageKind;
  const served = (ev: WatchEvent): WatchEvent => (ev.type === 'ERROR' || !aliased ? ev : { type: ev.type, object: toServed(s, ev.object) });
  writeWarnings(s.koa, s.req);
  s.koa.status = 200;
  const protobuf = isProtobuf(r.mediaType);
  s.koa.set('Content-Type', protobuf ? `${r.mediaType};stream=watch` : JSON_MEDIA_TYPE);
  s.koa.set('Cache-Control', 'no-cache, private');
  const represented = (ev: WatchEvent): WatchEvent => (transform ? { type: ev.type, object: transform(ev.object) } : ev);
  const encode = protobuf ? (ev: WatchEvent) => protobufFrame(kind, represented(ev)) : (ev: WatchEvent) => jsonLine(represented(ev));
  // The stream is written straight to the socket's response (no intermediate stream per watcher):
  // fan-out to many watchers is dominated by per-write cost.
  s.koa.respond = false;
  const res = s.koa.res;
  res.writeHead(200, s.koa.response.headers as Record<string, string | string[]>);
  res.flushHeaders();
  const close = () => watcher.stop();
  s.koa.req.on('close', close);
  s.req.signal.addEventListener('abort', () => watcher.stop(true));
  const record = s.metrics?.watchEvents(kind.group, kind.version, kind.kind);
  // Backpressure: a frame waits for the socket to drain; a client that does not read fills its watcher's bounded buffer instead.
  const writer = new WatchStreamWriter(res, watcher.done);
  void (async () => {
    try {
      for await (const ev of watcher) {
        if (res.destroyed) break;
        const frame = encode(withTypeMeta(served(ev), kind.apiVersion, kind.kind));
        const more = await writer.write(frame);
        record?.(typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length);
        if (!more) break;
      }
    } finally {
      watcher.stop();
      s.koa.req.off('close', close);
      res.end();
    }
  })();
}

/**
 * Encoded frames by event object, then event type. Objects handed out by storage are never
 * mutated, so an event fanned out to many watchers is encoded once and the same frame is written
 * to every socket (WeakMap: collected with the object). JSON lines are kept as strings: a cached
 * small Buffer would pin a whole slab of Node's buffer pool.
 */
type FrameCache<T> = WeakMap<object, Partial<Record<string, T>>>;
const jsonLines: FrameCache<string> = new WeakMap();
const protobufFrames: FrameCache<Buffer> = new WeakMap();

function frameOnce<T>(cache: FrameCache<T>, ev: WatchEvent, encode: () => T): T {
  let byType = cache.get(ev.object);
  if (!byType) cache.set(ev.object, (byType = {}));
  return (byType[ev.type] ??= encode());
}

/** One protobuf frame of an event (its object enveloped: the kind, a PartialObjectMetadata or a Status). */
function protobufFrame(kind: KindDefinition, ev: WatchEvent): Buffer {
  return frameOnce(protobufFrames, ev, () => protobufWatchFrame(kind, ev.type as WatchEventType, ev.object));
}

/** One JSON line `{"type":…,"object":…}`. */
function jsonLine(ev: WatchEvent): string {
  return frameOnce(jsonLines, ev, () => `{"type":"${ev.type}","object":${JSON.stringify(ev.object)}}\n`);
}

function withTypeMeta(ev: WatchEvent, apiVersion: string, kind: string): WatchEvent {
  if (ev.type === 'ERROR') return ev;
  const obj = ev.object;
  if (obj.kind === kind && obj.apiVersion === apiVersion) return ev;
  return { type: ev.type, object: { kind, apiVersion, ...obj } };
}
