/**
 * Protobuf watch frames: uint32 big-endian length, then a WatchEvent{type = 1, object = 2
 * RawExtension{raw = 1}} written without magic or envelope, whose raw holds the enveloped
 * object (magic + Unknown), as upstream's watch handler writes them.
 */
import { expect } from 'chai';
import { newGone } from '../../../../../lib/apimachinery/errors.js';
import {
  decodeWatchEvent,
  encodeProtobuf,
  encodeWatchEvent,
  encodeWatchFrame,
  PROTOBUF_MAGIC,
  ProtobufError,
  STATUS_KIND,
  WatchFrameReader,
  type WatchEventType,
} from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { pod } from '../../../../../lib/apis/core/v1/pod.js';
import { fixture } from '../../../apis/kind-pipeline.js';
import { resolveKind } from './kinds.js';
import { bytes, lfield } from './wire.js';

const POD = { apiVersion: 'v1', kind: 'Pod', schema: pod.schema };
const podObject = fixture('pod');
const bookmark = { apiVersion: 'v1', kind: 'Pod', metadata: { resourceVersion: '12', creationTimestamp: null }, spec: { containers: null }, status: {} };
const gone = newGone('too old resource version: 1 (5)').status as unknown as Record<string, unknown>;

const events: [WatchEventType, Record<string, unknown>, typeof POD][] = [
  ['ADDED', podObject, POD],
  ['MODIFIED', { ...podObject, metadata: { ...(podObject.metadata as object), resourceVersion: '43' } }, POD],
  ['DELETED', podObject, POD],
  ['BOOKMARK', bookmark, POD],
  ['ERROR', gone, STATUS_KIND],
];

function stream(): Buffer {
  return Buffer.concat(events.map(([type, obj, kind]) => encodeWatchEvent(type, obj, kind)));
}

/** Reads a whole stream cut into chunks of `size` bytes; returns the decoded events. */
function readAll(data: Buffer, size: number) {
  const reader = new WatchFrameReader();
  const out = [];
  for (let i = 0; i < data.length; i += size) for (const frame of reader.push(data.subarray(i, i + size))) out.push(decodeWatchEvent(frame, resolveKind));
  reader.end();
  return out;
}

describe('protobuf watch frames', () => {
  it('frame = big-endian length ‖ WatchEvent{type = 1, object = 2 {raw = 1: the enveloped object}}', () => {
    const envelope = encodeProtobuf(bookmark, POD);
    const event = bytes(lfield(1, 'BOOKMARK'), lfield(2, lfield(1, envelope)));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(event.length);
    expect(encodeWatchEvent('BOOKMARK', bookmark, POD).toString('hex')).to.equal(bytes(length, event).toString('hex'));
  });

  it('only the inner object carries the magic; the event itself has none', () => {
    const frame = encodeWatchFrame('ADDED', encodeProtobuf(podObject, POD));
    expect(frame.subarray(4, 8).equals(PROTOBUF_MAGIC)).to.equal(false);
    expect(frame.indexOf(PROTOBUF_MAGIC)).to.be.greaterThan(4);
  });

  it('every event type round trips, Status errors included', () => {
    const decoded = readAll(stream(), stream().length);
    expect(decoded.map((e) => e.type)).to.deep.equal(events.map(([t]) => t));
    expect(decoded.map((e) => e.object)).to.deep.equal(events.map(([, o]) => o));
    expect(decoded.map((e) => `${e.apiVersion} ${e.kind}`)).to.deep.equal(['v1 Pod', 'v1 Pod', 'v1 Pod', 'v1 Pod', 'v1 Status']);
  });

  it('reads the same events whatever the chunking', () => {
    const data = stream();
    const whole = readAll(data, data.length);
    for (const size of [1, 2, 3, 4, 5, 7, 64, 1000, 4096]) expect(readAll(data, size), `chunks of ${size}`).to.deep.equal(whole);
  });

  it('reads frames split at every byte boundary', () => {
    const data = Buffer.concat([encodeWatchEvent('BOOKMARK', bookmark, POD), encodeWatchEvent('ERROR', gone, STATUS_KIND)]);
    for (let cut = 0; cut <= data.length; cut++) {
      const reader = new WatchFrameReader();
      const frames = [...reader.push(data.subarray(0, cut)), ...reader.push(data.subarray(cut))];
      reader.end();
      expect(frames.map((f) => decodeWatchEvent(f, resolveKind).type), `cut at ${cut}`).to.deep.equal(['BOOKMARK', 'ERROR']);
    }
  });

  it('a stream ending inside a frame is a BadFrame error', () => {
    const reader = new WatchFrameReader();
    const frame = encodeWatchEvent('BOOKMARK', bookmark, POD);
    expect(reader.push(frame.subarray(0, frame.length - 1))).to.deep.equal([]);
    expect(() => reader.end())
      .to.throw(ProtobufError, `watch stream ended inside a frame (${frame.length - 1} bytes left over)`)
      .with.property('code', 'BadFrame');
  });

  it('a frame longer than the limit is a BadFrame error', () => {
    const reader = new WatchFrameReader(10);
    expect(() => reader.push(encodeWatchEvent('BOOKMARK', bookmark, POD))).to.throw(ProtobufError, /exceeds the limit of 10 bytes/);
  });

  it('a frame body that is not a WatchEvent, or has no object, is Malformed', () => {
    expect(() => decodeWatchEvent(Buffer.from([0x0a, 0x09]), resolveKind)).to.throw(ProtobufError, /^malformed protobuf watch event: /);
    expect(() => decodeWatchEvent(lfield(1, 'ADDED'), resolveKind)).to.throw(ProtobufError, 'malformed protobuf watch event: no object');
  });

  it('an inner object without the magic is rejected like any body', () => {
    const frame = bytes(lfield(1, 'ADDED'), lfield(2, lfield(1, '{"kind":"Pod"}')));
    expect(() => decodeWatchEvent(frame, resolveKind)).to.throw(ProtobufError, /expected prefix \[107 56 115 0\]/);
  });
});
