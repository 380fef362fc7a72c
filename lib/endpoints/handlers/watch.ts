/**
 * Watch: a chunked stream of `{type, object}` JSON documents, one per line, or of length-prefixed
 * protobuf WatchEvent frames (spec 000 § Watch event document, § Watch parameters, § Protobuf
 * envelope; spec 001 § Events). Ends on `timeoutSeconds` (default 30–60 min,
 * randomized as upstream), on client disconnect, or when the storage watch ends.
 */
import { JSON_MEDIA_TYPE } from '../../apimachinery/serializers/json.js';
import type { Obj } from '../../apis/define.js';
import { newSelectionPredicate } from '../../registry/generic/predicate.js';
import { isProtobuf } from './protobuf.js';
import { chooseRepresentation, watchTransform } from './representation.js';
import { parseListParams } from './list-options.js';
import { type Scope, toServed, writeWarnings } from './scope.js';
import { watchFrameEncoder } from './watch-encoder.js';
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
  writeWarnings(s.koa, s.req);
  s.koa.status = 200;
  const protobuf = isProtobuf(r.mediaType);
  s.koa.set('Content-Type', protobuf ? `${r.mediaType};stream=watch` : JSON_MEDIA_TYPE);
  const encode = watchFrameEncoder({
    protobuf,
    kind,
    ...(aliased && { served: (obj: Obj) => toServed(s, obj) }),
    ...(transform && { transform: { as: r.transform === 'table' ? 'table' : 'metadata', apiVersion: r.apiVersion ?? '', fn: transform } }),
  });
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
  // Written in the shared scheduler's turns, several events per write when they queue up; a
  // client that does not read fills its watcher's bounded buffer instead (watch-writer.ts).
  const writer = new WatchStreamWriter(res, watcher, encode, { ...(record && { record }), onEnd: () => s.koa.req.off('close', close) });
  writer.start();
}

