/**
 * The frames of a watch response (spec 000 § Watch event document, § Protobuf envelope; spec 001
 * § Events): one JSON line `{"type":…,"object":…}\n` or one length-prefixed protobuf WatchEvent
 * per event, its object in the served spelling with `apiVersion` and `kind`, metadata-only or a
 * Table row when the request asked for one.
 *
 * An event fanned out to many watchers is encoded once per (object, encoding, event type) and
 * the same bytes are written to every socket, as upstream caches an event's serialization per
 * encoder (cachingObject). The key is the served object: storage never mutates the objects it
 * hands out, and the conversion to the served version is memoized per object (KindConversion.
 * toServed), so every watcher of one event sees the same object. The cache is a WeakMap (a frame
 * is collected with its object), and a frame is dropped from it {@link FRAME_RETENTION_MS} after
 * it was made. Table frames are never shared: a watcher's first row carries the column headers
 * and ages are read from the clock at each event.
 */
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { WatchEventType } from '../../apimachinery/serializers/protobuf/index.js';
import { memoizedJSONBody } from '../../apimachinery/serializers/json-cache.js';
import type { WatchEvent } from '../../storage/interface.js';
import { chunkedFrame } from './http-chunk.js';
import { protobufWatchFrame } from './protobuf.js';

/** How one watch response spells its events. */
export interface WatchEncoding {
  /** Protobuf frames (else JSON lines). */
  protobuf: boolean;
  /** The kind as served (its `apiVersion` and `kind` go on every object; its schema for protobuf). */
  kind: KindDefinition;
  /** The stored object in the served spelling, memoized per object (absent when storage holds the served spelling). */
  served?: (obj: Obj) => Obj;
  /**
   * The representation asked for: metadata-only (a PartialObjectMetadata of `apiVersion`) or a
   * Table (never shared between watchers), with the function that builds it from the object.
   */
  transform?: { as: 'metadata' | 'table'; apiVersion: string; fn: (obj: Obj) => Obj };
}

/** Turns one event into the bytes written to the client. */
export type WatchFrameEncoder = (ev: WatchEvent) => Buffer;

/** Frames by served object, then event type. */
type FrameCache = WeakMap<object, Partial<Record<string, Buffer>>>;

/** One frame cache per encoding (bounded by the kinds and representations served). */
const caches = new Map<string, FrameCache>();

/**
 * How long a shared frame is kept after it is made (ms). The watchers of an event write it within
 * a few turns of the event loop, and a watcher that lags longer (or replays the window) makes it
 * again. Kept for as long as its object, a frame doubled the memory of every current object
 * a watch had sent, a Pod's JSON once more (issue #24 item 2).
 */
export const FRAME_RETENTION_MS = 10_000;
/** How often the frames past their retention are dropped (ms). */
const SWEEP_INTERVAL_MS = 1000;

/** The objects frames were made for, oldest first: the cache that keeps them and when (performance.now() ms). */
let made: { cache: FrameCache; obj: object; at: number }[] = [];
let madeHead = 0;
let sweeper: NodeJS.Timeout | undefined;

/**
 * Drops the frames made before `now` − {@link FRAME_RETENTION_MS} (`now`: performance.now() ms);
 * a timer calls it every second while frames are kept.
 */
export function sweepWatchFrames(now = performance.now()): void {
  const cutoff = now - FRAME_RETENTION_MS;
  while (madeHead < made.length && made[madeHead]!.at <= cutoff) {
    const m = made[madeHead++]!;
    m.cache.delete(m.obj);
  }
  if (madeHead === made.length) {
    made = [];
    madeHead = 0;
    clearInterval(sweeper);
    sweeper = undefined;
  } else if (madeHead > 4096 && madeHead * 2 > made.length) {
    made = made.slice(madeHead);
    madeHead = 0;
  }
}

/** Records that `cache` keeps frames of `obj` from now on, for the sweep. */
function remember(cache: FrameCache, obj: object): void {
  made.push({ cache, obj, at: performance.now() });
  sweeper ??= setInterval(sweepWatchFrames, SWEEP_INTERVAL_MS).unref();
}

/**
 * The frame encoder of one watch response. Frames of JSON and metadata-only encodings are shared
 * with every other response of the same encoding; Table frames are built for this response only.
 */
export function watchFrameEncoder(e: WatchEncoding): WatchFrameEncoder {
  const { kind, served, transform } = e;
  const encodeObject = e.protobuf
    ? (type: string, obj: Obj) => protobufWatchFrame(kind, type as WatchEventType, obj)
    : (type: string, obj: Obj) => jsonLine(type, obj);
  const build = (type: string, obj: Obj): Buffer => {
    const typed = type === 'ERROR' ? obj : withTypeMeta(obj, kind.apiVersion, kind.kind);
    return encodeObject(type, transform ? transform.fn(typed) : typed);
  };
  const servedObject = (ev: WatchEvent): Obj => (served && ev.type !== 'ERROR' ? served(ev.object) : ev.object);
  if (transform?.as === 'table') return (ev) => build(ev.type, servedObject(ev));
  const shared = e.protobuf ? (type: string, obj: Obj) => inChunk(build(type, obj)) : build;
  const cache = cacheOf(`${kind.apiVersion} ${kind.kind}`, `${e.protobuf ? 'protobuf' : 'json'} ${transform ? `${transform.as} ${transform.apiVersion}` : ''}`);
  return (ev) => {
    const obj = servedObject(ev);
    let byType = cache.get(obj);
    if (!byType) {
      cache.set(obj, (byType = {}));
      remember(cache, obj);
    }
    return (byType[ev.type] ??= shared(ev.type, obj));
  };
}

function cacheOf(servedKind: string, encoding: string): FrameCache {
  const key = `${encoding} ${servedKind}`;
  let c = caches.get(key);
  if (!c) caches.set(key, (c = new WeakMap()));
  return c;
}

/**
 * One JSON line, UTF-8, made inside its own HTTP/1.1 chunk (http-chunk.ts): written as is to every
 * socket (no UTF-8 encoding or copy per write), and not carved from Node's shared pool, where a
 * kept small frame would pin a whole slab. The object's memoized JSON body (json-cache.ts), when
 * it has one, is copied in instead of serializing the object again.
 */
function jsonLine(type: string, obj: Obj): Buffer {
  const head = `{"type":"${type}","object":`;
  const body = memoizedJSONBody(obj);
  if (body !== undefined) {
    const json = body.length - 1;
    return chunkedFrame(head.length + json + 2, (buf, at) => {
      at += buf.write(head, at, 'latin1');
      at += body.copy(buf, at, 0, json);
      buf.write('}\n', at, 'latin1');
    });
  }
  const line = `${head}${JSON.stringify(obj)}}\n`;
  return chunkedFrame(Buffer.byteLength(line), (buf, at) => buf.write(line, at));
}

/** A frame copied into a chunk of its own (a protobuf frame shared by many watchers). */
function inChunk(frame: Buffer): Buffer {
  return chunkedFrame(frame.length, (buf, at) => frame.copy(buf, at));
}

/** The object with the served `apiVersion` and `kind` first (unchanged when it has them). */
function withTypeMeta(obj: Obj, apiVersion: string, kind: string): Obj {
  if (obj.kind === kind && obj.apiVersion === apiVersion) return obj;
  return { kind, apiVersion, ...obj };
}
