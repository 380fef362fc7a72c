/**
 * Wire bytes computed by hand from the upstream proto definitions (core/v1 ConfigMap, meta/v1
 * ObjectMeta, Time, MicroTime, Duration, Status; runtime Unknown, TypeMeta, RawExtension;
 * resource Quantity; intstr IntOrString) against what the serializer writes.
 */
import { expect } from 'chai';
import { newNotFound } from '../../../../../lib/apimachinery/errors.js';
import { field, int32, int64, listOf, mapOf, string, struct } from '../../../../../lib/apimachinery/schema/builder.js';
import * as b from '../../../../../lib/apimachinery/schema/builder.js';
import { decodeMessage, decodeProtobuf, encodeMessage, encodeProtobuf, STATUS_KIND } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { configMap } from '../../../../../lib/apis/core/v1/config-map.js';
import { pod } from '../../../../../lib/apis/core/v1/pod.js';
import { resolveKind } from './kinds.js';
import { bytes, entry, lfield, vfield } from './wire.js';

const CREATED = 1714557600; // 2024-05-01T10:00:00Z

/**
 * A ConfigMap in which every field upstream always writes (the non-pointer ObjectMeta strings,
 * generation, creationTimestamp) is set, so upstream's encoding is exactly determined.
 */
const configMapObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cm',
    generateName: 'c-',
    namespace: 'ns',
    selfLink: '/s',
    uid: 'u1',
    resourceVersion: '7',
    generation: 2,
    creationTimestamp: '2024-05-01T10:00:00Z',
    labels: { b: '2', a: '1' },
  },
  data: { y: 'Y', x: 'X' },
  binaryData: { bin: 'AAE=' },
  immutable: true,
};

/** Upstream's bytes of configMapObject: fields in number order, map entries by sorted key. */
const upstreamConfigMap = bytes(
  lfield(1, // ConfigMap.metadata = 1 (ObjectMeta)
    lfield(1, 'cm'), // name = 1
    lfield(2, 'c-'), // generateName = 2
    lfield(3, 'ns'), // namespace = 3
    lfield(4, '/s'), // selfLink = 4
    lfield(5, 'u1'), // uid = 5
    lfield(6, '7'), // resourceVersion = 6
    vfield(7, 2), // generation = 7 (int64)
    lfield(8, vfield(1, CREATED), vfield(2, 0)), // creationTimestamp = 8 (Time: seconds = 1, nanos = 2)
    entry(11, 'a', '1'), // labels = 11 (map<string, string>)
    entry(11, 'b', '2'),
  ),
  entry(2, 'x', 'X'), // data = 2 (map<string, string>)
  entry(2, 'y', 'Y'),
  entry(3, 'bin', Buffer.from([0, 1])), // binaryData = 3 (map<string, bytes>)
  vfield(4, true), // immutable = 4
);

/** Upstream's envelope of it: magic + Unknown{typeMeta{apiVersion = 1, kind = 2} = 1, raw = 2, contentEncoding = 3, contentType = 4}. */
const upstreamEnvelope = bytes(
  Buffer.from([0x6b, 0x38, 0x73, 0x00]),
  lfield(1, lfield(1, 'v1'), lfield(2, 'ConfigMap')),
  lfield(2, upstreamConfigMap),
  lfield(3), // contentEncoding and contentType: written empty, as upstream's NestedMarshalTo does
  lfield(4),
);

const CONFIG_MAP_KIND = { apiVersion: 'v1', kind: 'ConfigMap', schema: configMap.schema };

describe('protobuf wire bytes (hand-computed from the upstream definitions)', () => {
  it('a ConfigMap message is byte for byte upstream’s', () => {
    expect(Buffer.from(encodeMessage(configMap.schema, configMapObject)).toString('hex')).to.equal(upstreamConfigMap.toString('hex'));
  });

  it('the envelope is byte for byte upstream’s', () => {
    expect(encodeProtobuf(configMapObject, CONFIG_MAP_KIND).toString('hex')).to.equal(upstreamEnvelope.toString('hex'));
  });

  it('decodes upstream’s ConfigMap envelope to the JSON object', () => {
    const decoded = decodeProtobuf(upstreamEnvelope, resolveKind);
    expect(decoded).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', object: configMapObject });
  });

  it('a Status: metadata = 1, status = 2, message = 3, reason = 4, details = 5 {name = 1, kind = 3, causes = 4}, code = 6', () => {
    const status = newNotFound({ group: '', resource: 'configmaps' }, 'x').status;
    const withCause = { ...status, details: { ...status.details, causes: [{ reason: 'FieldValueInvalid', message: 'm', field: 'f' }] } };
    const expected = bytes(
      lfield(1),
      lfield(2, 'Failure'),
      lfield(3, 'configmaps "x" not found'),
      lfield(4, 'NotFound'),
      lfield(5, lfield(1, 'x'), lfield(3, 'configmaps'), lfield(4, lfield(1, 'FieldValueInvalid'), lfield(2, 'm'), lfield(3, 'f'))),
      vfield(6, 404),
    );
    expect(Buffer.from(encodeMessage(STATUS_KIND.schema, withCause)).toString('hex')).to.equal(expected.toString('hex'));
    expect(decodeProtobuf(encodeProtobuf(withCause, STATUS_KIND), () => undefined).object).to.deep.equal(withCause);
  });

  describe('Go-inline (embedded) structs are nested messages', () => {
    const podObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      spec: {
        volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }],
        containers: [{ name: 'c', livenessProbe: { httpGet: { path: '/h', port: 'http' }, periodSeconds: 5 } }],
      },
    };
    const expected = lfield(2, // Pod.spec = 2
      lfield(1, // PodSpec.volumes = 1
        lfield(1, 'v'), // Volume.name = 1
        lfield(2, // Volume.volumeSource = 2 (inline VolumeSource)
          lfield(19, // VolumeSource.configMap = 19
            lfield(1, lfield(1, 'cm')), // ConfigMapVolumeSource.localObjectReference = 1 (inline) {name = 1}
            vfield(3, 420), // defaultMode = 3
          ),
        ),
      ),
      lfield(2, // PodSpec.containers = 2
        lfield(1, 'c'), // Container.name = 1
        lfield(10, // Container.livenessProbe = 10
          lfield(1, // Probe.handler = 1 (inline ProbeHandler)
            lfield(2, lfield(1, '/h'), lfield(2, vfield(1, 1), vfield(2, 0), lfield(3, 'http'))), // httpGet = 2 {path = 1, port = 2}
          ),
          vfield(4, 5), // Probe.periodSeconds = 4
        ),
      ),
    );

    it('writes the inline fields inside their embedded message', () => {
      expect(Buffer.from(encodeMessage(pod.schema, podObject)).toString('hex')).to.equal(expected.toString('hex'));
    });

    it('reads them back flat, as JSON has them (plus the always-written metadata, Pod.status and Container.resources)', () => {
      const { volumes, containers } = podObject.spec;
      expect(decodeMessage(pod.schema, expected)).to.deep.equal({
        metadata: { creationTimestamp: null },
        spec: { volumes, containers: [{ ...containers[0], resources: {} }] },
        status: {},
      });
    });
  });

  describe('scalar kinds', () => {
    const scalars = struct('test.Scalars', {
      micro: field(1, b.microTime),
      duration: field(2, b.duration),
      quantity: field(3, b.quantity),
      port: field(4, b.intOrString),
      portName: field(5, b.intOrString),
      raw: field(6, b.raw),
      big: field(7, int64),
      negative: field(8, int32),
      payload: field(9, b.bytes),
      ratio: field(10, b.float64),
      limits: field(11, mapOf(b.quantity)),
      names: field(12, listOf(string)),
    });
    const value = {
      micro: '2024-05-01T10:00:00.123456Z',
      duration: '1h30m0s',
      quantity: '500m',
      port: 8080,
      portName: 'http',
      raw: { a: [1, 'x'] },
      big: 2 ** 53,
      negative: -1,
      payload: 'aGk=',
      ratio: 0.5,
      limits: { memory: '1Gi', cpu: '2' },
      names: ['a', ''],
    };
    const expected = bytes(
      lfield(1, vfield(1, CREATED), vfield(2, 123456000)), // MicroTime: seconds = 1, nanos = 2
      lfield(2, vfield(1, 5400e9)), // Duration: duration = 1 (nanoseconds)
      lfield(3, lfield(1, '500m')), // Quantity: string = 1
      lfield(4, vfield(1, 0), vfield(2, 8080), lfield(3)), // IntOrString: type = 1 (0 int), intVal = 2, strVal = 3
      lfield(5, vfield(1, 1), vfield(2, 0), lfield(3, 'http')), // type 1: string
      lfield(6, lfield(1, '{"a":[1,"x"]}')), // RawExtension: raw = 1, the JSON text
      vfield(7, 2 ** 53),
      Buffer.from([0x40, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), // int32 -1: ten-byte varint
      lfield(9, 'hi'),
      Buffer.from([0x51, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f]), // double 0.5, fixed64 little-endian
      entry(11, 'cpu', lfield(1, '2')), // map<string, Quantity>, keys sorted
      entry(11, 'memory', lfield(1, '1Gi')),
      lfield(12, 'a'), // repeated string, one field per element
      lfield(12),
    );

    it('writes each scalar kind as its upstream message', () => {
      expect(Buffer.from(encodeMessage(scalars, value)).toString('hex')).to.equal(expected.toString('hex'));
    });

    it('reads them back to the same JSON values', () => {
      expect(decodeMessage(scalars, expected)).to.deep.equal(value);
    });
  });
});
