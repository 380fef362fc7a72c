import { expect } from 'chai';
import { newGone } from '../../../../lib/apimachinery/errors.js';
import { partialObjectMetadata } from '../../../../lib/apimachinery/meta-only.js';
import { cachedJSONBody, carryJSONBody, memoizedJSONBody } from '../../../../lib/apimachinery/serializers/json-cache.js';
import { decodeWatchEvent, WatchFrameReader } from '../../../../lib/apimachinery/serializers/protobuf/index.js';
import { tableWatchTransformer } from '../../../../lib/apimachinery/table/builder.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../../../lib/apis/vendor.js';
import { FRAME_RETENTION_MS, sweepWatchFrames, watchFrameEncoder } from '../../../../lib/endpoints/handlers/watch-encoder.js';
import type { StoredObject, WatchEvent } from '../../../../lib/storage/interface.js';
import { bookmarkEvent } from '../../../../lib/storage/watch-objects.js';
import { resolveKind } from '../../apimachinery/serializers/protobuf/kinds.js';

const cm = (rv: string): StoredObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'a', name: 'x', resourceVersion: rv }, data: { k: 'v' } });
const json = (frame: Buffer) => JSON.parse(frame.toString()) as { type: string; object: Obj };
const protobufEvent = (frame: Buffer) => {
  const [body] = new WatchFrameReader().push(frame);
  return decodeWatchEvent(body!, resolveKind);
};

describe('endpoints/handlers/watch-encoder: one encoding per event, shared by every watcher (issue #17 item 3)', () => {
  it("JSON: copies the object's memoized JSON body into the line instead of serializing the object again (issue #24)", () => {
    const obj = cm('11');
    // A body that differs from the serialization only in spacing shows which one the line carries.
    const spaced = Buffer.from(`${JSON.stringify(obj, null, 1)}\n`);
    const prev = cm('10');
    cachedJSONBody(prev);
    carryJSONBody(prev, obj, () => spaced);
    expect(memoizedJSONBody(obj)).to.equal(spaced);
    const frame = watchFrameEncoder({ protobuf: false, kind: configMap })({ type: 'MODIFIED', object: obj });
    expect(frame.toString()).to.equal(`{"type":"MODIFIED","object":${JSON.stringify(obj, null, 1)}}\n`);
    expect(json(frame)).to.deep.equal({ type: 'MODIFIED', object: obj });
    const plain = cm('12');
    expect(watchFrameEncoder({ protobuf: false, kind: configMap })({ type: 'ADDED', object: plain }).toString()).to.equal(`{"type":"ADDED","object":${JSON.stringify(plain)}}\n`);
  });

  for (const protobuf of [false, true]) {
    const name = protobuf ? 'protobuf' : 'JSON';
    const decode = (frame: Buffer) => {
      if (!protobuf) return json(frame);
      const e = protobufEvent(frame);
      return { type: e.type, object: e.object as Obj };
    };

    it(`${name}: a frame is shared for FRAME_RETENTION_MS after it is made, for every encoding, then made again if asked for`, () => {
      const plain = watchFrameEncoder({ protobuf, kind: configMap });
      const meta = watchFrameEncoder({ protobuf, kind: configMap, transform: { as: 'metadata', apiVersion: 'meta.k8s.io/v1', fn: (o) => partialObjectMetadata(o, 'meta.k8s.io/v1') } });
      const obj = cm('8');
      const madeAt = performance.now();
      const frame = plain({ type: 'MODIFIED', object: obj });
      const metaFrame = meta({ type: 'MODIFIED', object: obj });
      sweepWatchFrames(madeAt + FRAME_RETENTION_MS - 100);
      expect(plain({ type: 'MODIFIED', object: obj }), 'within its retention').to.equal(frame);
      expect(meta({ type: 'MODIFIED', object: obj })).to.equal(metaFrame);
      sweepWatchFrames(performance.now() + FRAME_RETENTION_MS);
      const again = plain({ type: 'MODIFIED', object: obj });
      expect(again).to.not.equal(frame);
      expect(again.equals(frame)).to.equal(true);
      expect(meta({ type: 'MODIFIED', object: obj })).to.not.equal(metaFrame);
      expect(plain({ type: 'MODIFIED', object: obj }), 'the new frame is shared again').to.equal(again);
    });

    it(`${name}: two watchers of the same encoding get the same bytes for one event, and they decode to it`, () => {
      const a = watchFrameEncoder({ protobuf, kind: configMap });
      const b = watchFrameEncoder({ protobuf, kind: configMap });
      const ev: WatchEvent = { type: 'MODIFIED', object: cm('5') };
      const frame = a(ev);
      expect(b({ type: 'MODIFIED', object: ev.object })).to.equal(frame);
      expect(decode(frame)).to.deep.include({ type: 'MODIFIED' });
      expect(decode(frame).object).to.deep.include({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } });
      expect(a({ type: 'DELETED', object: ev.object }), 'another event type: another frame').to.not.equal(frame);
      expect(decode(a({ type: 'DELETED', object: ev.object })).type).to.equal('DELETED');
    });

    it(`${name}: a BOOKMARK carries the watch-list end annotation only when it ends the initial events`, () => {
      const enc = watchFrameEncoder({ protobuf, kind: configMap });
      const plain = decode(enc(bookmarkEvent(7)));
      const end = decode(enc(bookmarkEvent(7, true)));
      expect(plain.type).to.equal('BOOKMARK');
      expect(plain.object).to.deep.include({ apiVersion: 'v1', kind: 'ConfigMap' });
      expect((plain.object.metadata as Obj).resourceVersion).to.equal('7');
      expect((plain.object.metadata as Obj).annotations ?? {}).to.not.have.property(INITIAL_EVENTS_END_ANNOTATION);
      expect((end.object.metadata as Obj).resourceVersion).to.equal('7');
      expect((end.object.metadata as Obj).annotations).to.deep.equal({ [INITIAL_EVENTS_END_ANNOTATION]: 'true' });
    });

    it(`${name}: the BOOKMARKs of one revision sent to many watchers are encoded once`, () => {
      for (const end of [false, true]) {
        const frame = watchFrameEncoder({ protobuf, kind: configMap })(bookmarkEvent(8, end));
        expect(watchFrameEncoder({ protobuf, kind: configMap })(bookmarkEvent(8, end))).to.equal(frame);
        expect(watchFrameEncoder({ protobuf, kind: configMap })(bookmarkEvent(9, end))).to.not.equal(frame);
      }
    });
  }

  it('JSON and protobuf frames of one event are kept apart', () => {
    const ev: WatchEvent = { type: 'ADDED', object: cm('6') };
    const j = watchFrameEncoder({ protobuf: false, kind: configMap })(ev);
    const p = watchFrameEncoder({ protobuf: true, kind: configMap })(ev);
    expect(json(j).type).to.equal('ADDED');
    expect(protobufEvent(p).type).to.equal('ADDED');
  });

  it('adds apiVersion and kind to an object without them, and leaves a Status of an ERROR as it is', () => {
    const enc = watchFrameEncoder({ protobuf: false, kind: configMap });
    const bare = json(enc({ type: 'ADDED', object: { metadata: { name: 'y' } } }));
    expect(Object.keys(bare.object).slice(0, 2)).to.deep.equal(['kind', 'apiVersion']);
    expect(bare.object).to.deep.include({ kind: 'ConfigMap', apiVersion: 'v1' });
    const status = newGone('too old resource version: 1 (5)').status as unknown as StoredObject;
    expect(json(enc({ type: 'ERROR', object: status })).object).to.deep.equal(JSON.parse(JSON.stringify(status)));
  });

  it('metadata-only frames are shared and hold a PartialObjectMetadata; not the plain frame', () => {
    const apiVersion = partialObjectMetadata({}).apiVersion;
    const meta = () => watchFrameEncoder({ protobuf: false, kind: configMap, transform: { as: 'metadata', apiVersion, fn: (o) => partialObjectMetadata(o, apiVersion) as unknown as Obj } });
    const ev: WatchEvent = { type: 'MODIFIED', object: cm('9') };
    const frame = meta()(ev);
    expect(meta()(ev)).to.equal(frame);
    expect(watchFrameEncoder({ protobuf: false, kind: configMap })(ev)).to.not.equal(frame);
    expect(json(frame).object).to.deep.equal({ kind: 'PartialObjectMetadata', apiVersion, metadata: cm('9').metadata });
  });

  it('Table frames are built per watcher (each watcher’s first row has the column headers)', () => {
    const table = () => {
      const fn = tableWatchTransformer(configMap) as (o: Obj) => Obj;
      return watchFrameEncoder({ protobuf: false, kind: configMap, transform: { as: 'table', apiVersion: 'meta/v1', fn } });
    };
    const ev: WatchEvent = { type: 'ADDED', object: cm('10') };
    const a = table();
    const first = json(a(ev)).object;
    const again = json(a(ev)).object;
    const other = json(table()(ev)).object;
    expect(first.columnDefinitions).to.be.an('array').with.length.greaterThan(0);
    expect(again.columnDefinitions ?? []).to.have.length(0);
    expect(other.columnDefinitions).to.deep.equal(first.columnDefinitions);
  });

  it('encodes the served spelling of an object once, whatever the number of watchers', () => {
    let conversions = 0;
    const memo = new WeakMap<object, Obj>();
    const served = (o: Obj): Obj => {
      let s = memo.get(o);
      if (!s) {
        conversions++;
        memo.set(o, (s = { ...o, data: { k: 'served' } }));
      }
      return s;
    };
    const ev: WatchEvent = { type: 'MODIFIED', object: cm('11') };
    const frames = Array.from({ length: 5 }, () => watchFrameEncoder({ protobuf: false, kind: configMap, served })(ev));
    expect(new Set(frames).size).to.equal(1);
    expect(conversions).to.equal(1);
    expect(json(frames[0]!).object.data).to.deep.equal({ k: 'served' });
  });
});
