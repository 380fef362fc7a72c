/**
 * Go zero-value semantics of the JSON ↔ protobuf conversion: what Go writers put on the wire
 * (every non-pointer field, empty or not) decodes to the JSON upstream's encoder writes; absent
 * always-written fields come back with Go's zero values; plus recursion, nested collections,
 * int64 range and encoding errors.
 */
import { expect } from 'chai';
import { boolean, field, int64, listOf, mapOf, string, struct } from '../../../../../lib/apimachinery/schema/builder.js';
import type { Field, StructSchema } from '../../../../../lib/apimachinery/schema/types.js';
import { decodeMessage, encodeMessage, ProtobufError } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { deployment } from '../../../../../lib/apis/apps/v1/index.js';
import { configMap } from '../../../../../lib/apis/core/v1/config-map.js';
import { persistentVolumeClaim } from '../../../../../lib/apis/core/v1/persistent-volume-claim.js';
import { serviceAccount } from '../../../../../lib/apis/core/v1/cluster-kinds.js';
import { pod } from '../../../../../lib/apis/core/v1/pod.js';
import { bytes, lfield, vfield } from './wire.js';

const roundTrip = (schema: StructSchema, obj: Record<string, unknown>) => decodeMessage(schema, encodeMessage(schema, obj));

describe('protobuf and Go zero values', () => {
  it('a message as a Go writer sends it (every non-pointer field, empty) decodes to upstream’s JSON', () => {
    const goBytes = bytes(
      lfield(1, // ConfigMap.metadata: ObjectMeta with its non-pointer fields written empty
        lfield(1, 'cm'),
        lfield(2),
        lfield(3),
        lfield(4),
        lfield(5),
        lfield(6),
        vfield(7, 0),
        lfield(8), // creationTimestamp: Go's zero Time marshals to an empty message
      ),
    );
    expect(decodeMessage(configMap.schema, goBytes)).to.deep.equal({ metadata: { name: 'cm', generation: 0, creationTimestamp: null } });
  });

  it('absent always-written fields come back with their zero values, recursively', () => {
    expect(decodeMessage(pod.schema, new Uint8Array(0))).to.deep.equal({ metadata: { creationTimestamp: null }, spec: { containers: null }, status: {} });
    expect(decodeMessage(deployment.schema, new Uint8Array(0))).to.deep.equal({
      metadata: { creationTimestamp: null },
      spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} },
      status: {},
    });
  });

  it('omitempty fields holding "" (string or bytes) are dropped; numbers and booleans are kept even when zero', () => {
    expect(roundTrip(serviceAccount.schema, { metadata: { name: '', namespace: 'ns' }, automountServiceAccountToken: false })).to.deep.equal({
      metadata: { namespace: 'ns', creationTimestamp: null },
      automountServiceAccountToken: false,
    });
    expect(roundTrip(deployment.schema, { spec: { replicas: 0, paused: false, minReadySeconds: 0 } }).spec).to.include({ replicas: 0, paused: false, minReadySeconds: 0 });
  });

  it('a pointer string (*string) set to "" is written and decodes back as ""; unset, it stays absent (proto2 presence)', () => {
    const spec = { volumeName: '', storageClassName: '', resources: {} };
    const wire = encodeMessage(persistentVolumeClaim.schema, { spec });
    expect(decodeMessage(persistentVolumeClaim.schema, wire).spec).to.deep.equal({ storageClassName: '', resources: {} });
    // What a Go writer sends for a claim with a nil class: the non-pointer volumeName, empty; no storageClassName.
    const goBytes = bytes(lfield(2, lfield(2), lfield(3)));
    expect(decodeMessage(persistentVolumeClaim.schema, goBytes).spec).to.deep.equal({ resources: {} });
    const withEmptyClass = bytes(lfield(2, lfield(2), lfield(3), lfield(5)));
    expect(decodeMessage(persistentVolumeClaim.schema, withEmptyClass).spec).to.deep.equal({ resources: {}, storageClassName: '' });
  });

  it('empty strings and bytes inside maps and lists are kept', () => {
    const obj = { metadata: { labels: { a: '' }, finalizers: [''] }, data: { k: '' }, binaryData: { b: '' } };
    expect(roundTrip(configMap.schema, obj)).to.deep.equal({ ...obj, metadata: { ...obj.metadata, creationTimestamp: null } });
  });

  it('inline fields always written come back even when their embedded message is absent', () => {
    const spec = { containers: [{ name: 'c' }], ephemeralContainers: [{ targetContainerName: 'c' }] };
    const back = roundTrip(pod.schema, { spec }).spec as { ephemeralContainers: unknown[] };
    expect(back.ephemeralContainers).to.deep.equal([{ name: '', resources: {}, targetContainerName: 'c' }]);
  });

  it('a null element of a list or value of a map is written as its zero', () => {
    const obj = { metadata: { finalizers: ['a', null], labels: { k: null } }, spec: { containers: [null] } };
    expect(roundTrip(pod.schema, obj)).to.deep.equal({
      metadata: { finalizers: ['a', ''], labels: { k: '' }, creationTimestamp: null },
      spec: { containers: [{ name: '', resources: {} }] },
      status: {},
    });
  });

  it('JSON properties the schema does not know, and nulls, are not written', () => {
    expect(encodeMessage(configMap.schema, { extra: 1, data: null, metadata: { bogus: 'x' } })).to.deep.equal(lfield(1));
  });

  it('int64 values are exact JSON numbers up to 2^53, negative ones included', () => {
    for (const generation of [2 ** 53, -(2 ** 53), -1, 2 ** 32 + 1]) {
      expect(roundTrip(configMap.schema, { metadata: { generation } })).to.deep.equal({ metadata: { generation, creationTimestamp: null } });
    }
  });

  it('times: offsets become UTC; Time keeps seconds (upstream drops nanoseconds), MicroTime six digits', () => {
    const times = struct('test.Times', {
      t: field(1, { type: 'time', precision: 'seconds' }),
      m: field(2, { type: 'time', precision: 'micros' }),
      old: field(3, { type: 'time', precision: 'seconds' }),
    });
    expect(roundTrip(times, { t: '2024-05-01T12:00:00.9+02:00', m: '2024-05-01T10:00:00.1234567Z', old: '1969-12-31T23:59:59Z' })).to.deep.equal({
      t: '2024-05-01T10:00:00Z',
      m: '2024-05-01T10:00:00.123456Z',
      old: '1969-12-31T23:59:59Z',
    });
  });

  it('recursive structs (a thunk) encode and decode at any depth; an always-written self reference stops', () => {
    const tree: StructSchema = struct('test.Tree', (): Record<string, Field> => ({
      name: field(1, string),
      children: field(2, listOf(tree)),
      next: field(3, tree, { omitEmpty: false }),
    }));
    const value = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] };
    const back = roundTrip(tree, value) as { children: { children: unknown[] }[] };
    expect(back.children[0]!.children[0]).to.deep.equal({ name: 'c', next: { next: {} } });
  });

  it('lists and maps nested in lists and maps travel in {items = 1} wrapper messages', () => {
    const nested = struct('test.Nested', {
      grid: field(1, listOf(listOf(string))),
      groups: field(2, mapOf(listOf(int64))),
      flags: field(3, listOf(mapOf(boolean))),
    });
    const value = { grid: [['a', 'b'], []], groups: { x: [1, 2] }, flags: [{ on: true }] };
    const expected = bytes(
      lfield(1, lfield(1, 'a'), lfield(1, 'b')),
      lfield(1),
      lfield(2, lfield(1, 'x'), lfield(2, vfield(1, 1), vfield(1, 2))),
      lfield(3, lfield(1, lfield(1, 'on'), vfield(2, true))),
    );
    expect(Buffer.from(encodeMessage(nested, value)).toString('hex')).to.equal(expected.toString('hex'));
    expect(decodeMessage(nested, expected)).to.deep.equal(value);
  });

  describe('encoding errors', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['a time that is not RFC 3339', { metadata: { creationTimestamp: 'yesterday' } }, /cannot encode time "yesterday" as protobuf: not an RFC 3339 date-time/],
      ['a struct that is not an object', { metadata: 'x' }, /not an object/],
    ];
    for (const [name, obj, message] of cases) {
      it(`${name} is Unencodable`, () => {
        expect(() => encodeMessage(configMap.schema, obj))
          .to.throw(ProtobufError, message)
          .with.property('code', 'Unencodable');
      });
    }

    it('a duration Go cannot parse is Unencodable', () => {
      const d = struct('test.D', { d: field(1, { type: 'duration' }) });
      expect(() => encodeMessage(d, { d: '1d' })).to.throw(ProtobufError, /time: unknown unit "d" in duration "1d"/);
      expect(roundTrip(d, { d: '90m' })).to.deep.equal({ d: '1h30m0s' });
    });
  });
});
