/**
 * The envelope's failure modes (spec 000 § Protobuf envelope: a body without the magic is
 * rejected) and kind resolution: each error is a ProtobufError with a code callers map to 400.
 */
import { expect } from 'chai';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC, ProtobufError, type ProtobufErrorCode } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { PROTOBUF_MEDIA_TYPE } from '../../../../../lib/apis/vendor.js';
import { configMap } from '../../../../../lib/apis/core/v1/config-map.js';
import { resolveKind } from './kinds.js';
import { bytes, lfield, vfield } from './wire.js';
import { covers } from '../../../../conformance/covers.js';

const CM = { apiVersion: 'v1', kind: 'ConfigMap', schema: configMap.schema };
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', creationTimestamp: null }, data: { k: 'v' } };

/** An envelope spelled by hand: magic + Unknown{typeMeta = 1, raw = 2, contentEncoding = 3, contentType = 4}. */
function envelope(apiVersion: string, kind: string, raw: Buffer, contentEncoding = '', contentType = ''): Buffer {
  return bytes(PROTOBUF_MAGIC, lfield(1, lfield(1, apiVersion), lfield(2, kind)), lfield(2, raw), lfield(3, contentEncoding), lfield(4, contentType));
}

function decodeError(data: Uint8Array): ProtobufError {
  try {
    decodeProtobuf(data, resolveKind);
  } catch (err) {
    expect(err).to.be.instanceOf(ProtobufError);
    return err as ProtobufError;
  }
  throw new Error('decoding succeeded');
}

describe('protobuf envelope', () => {
  it(`round trips an object, naming its kind in typeMeta${covers('000 § Protobuf envelope › Unknown / typeMeta', '000 § Protobuf envelope › Unknown / raw')}`, () => {
    const encoded = encodeProtobuf(cm, CM);
    expect([...encoded.subarray(0, 4)]).to.deep.equal([0x6b, 0x38, 0x73, 0x00]);
    expect(decodeProtobuf(encoded, resolveKind)).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', object: cm });
  });

  it('takes apiVersion and kind from the envelope facts, not from the object', () => {
    const decoded = decodeProtobuf(encodeProtobuf({ ...cm, kind: 'Other', apiVersion: 'x/v9' }, CM), resolveKind);
    expect(decoded.object).to.include({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it(`asks the resolver for the envelope’s apiVersion and kind${covers('000 § Protobuf envelope › TypeMeta / apiVersion', '000 § Protobuf envelope › TypeMeta / kind')}`, () => {
    const asked: string[] = [];
    decodeProtobuf(encodeProtobuf(cm, CM), (apiVersion, kind) => {
      asked.push(`${apiVersion} ${kind}`);
      return configMap.schema;
    });
    expect(asked).to.deep.equal(['v1 ConfigMap']);
  });

  it(`reads a v1 Status without a resolver${covers('000 § Protobuf envelope › Unknown / raw', '000 § Protobuf envelope › Unknown / contentEncoding', '000 § Protobuf envelope › Unknown / contentType')}`, () => {
    const status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 500 };
    const raw = bytes(lfield(1), lfield(2, 'Failure'), Buffer.from([0x30, 0xf4, 0x03]));
    expect(decodeProtobuf(envelope('v1', 'Status', raw), () => undefined).object).to.deep.equal(status);
  });

  it(`accepts an explicit contentType of ${PROTOBUF_MEDIA_TYPE}${covers('000 § Protobuf envelope › Unknown / contentType')}`, () => {
    const data = envelope('v1', 'ConfigMap', lfield(1, lfield(1, 'a')), '', PROTOBUF_MEDIA_TYPE);
    expect(decodeProtobuf(data, resolveKind).object).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', creationTimestamp: null } });
  });

  const failures: [string, Uint8Array, ProtobufErrorCode, string | RegExp][] = [
    ['no data', new Uint8Array(0), 'NotProtobuf', 'empty data'],
    ['JSON instead of protobuf', Buffer.from(JSON.stringify(cm)), 'NotProtobuf', 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]'],
    ['a message without the magic', encodeProtobuf(cm, CM).subarray(4), 'NotProtobuf', /expected prefix \[107 56 115 0\]/],
    ['a truncated magic', PROTOBUF_MAGIC.subarray(0, 3), 'NotProtobuf', /expected prefix/],
    ['the magic alone', PROTOBUF_MAGIC, 'NotProtobuf', 'empty body'],
    ['an envelope that is not a message', bytes(PROTOBUF_MAGIC, Buffer.from([0x0a, 0x20, 0x01])), 'Malformed', /^malformed protobuf envelope: /],
    ['an object that is not a message of its kind', envelope('v1', 'ConfigMap', Buffer.from([0x0a, 0x05, 0x0a])), 'Malformed', /^malformed protobuf message api_core_v1_ConfigMap: /],
    ['an object with a wrong wire type', envelope('v1', 'ConfigMap', Buffer.from([0x0f])), 'Malformed', /malformed protobuf message/],
    ['an unknown kind', envelope('v1', 'Gadget', Buffer.alloc(0)), 'UnknownKind', 'no kind "Gadget" is registered for version "v1"'],
    ['a kind of another version', envelope('v2', 'ConfigMap', Buffer.alloc(0)), 'UnknownKind', 'no kind "ConfigMap" is registered for version "v2"'],
    ['no kind', envelope('v1', '', Buffer.alloc(0)), 'MissingKind', /Object 'Kind' is missing/],
    ['no apiVersion', envelope('', 'ConfigMap', Buffer.alloc(0)), 'MissingKind', /Object 'apiVersion' is missing/],
    ['a content encoding', envelope('v1', 'ConfigMap', Buffer.alloc(0), 'gzip'), 'UnsupportedEncoding', 'unsupported content encoding "gzip" in the protobuf envelope'],
    ['a JSON content type', envelope('v1', 'ConfigMap', Buffer.alloc(0), '', 'application/json'), 'UnsupportedEncoding', /unsupported content type "application\/json"/],
    ['a time beyond the year 9999', envelope('v1', 'ConfigMap', lfield(1, lfield(8, vfield(1, 2 ** 40)))), 'Malformed', 'time of 1099511627776 seconds is outside the years 0000–9999'],
    ['a raw extension that is not JSON', envelope('v1', 'ConfigMap', lfield(1, lfield(17, lfield(7, lfield(1, '{'))))), 'Malformed', /raw extension does not hold JSON/],
  ];
  const P = '000 § Protobuf envelope › ';
  const rowsOf: Record<string, string> = {
    'no kind': covers(`${P}TypeMeta / kind`),
    'no apiVersion': covers(`${P}TypeMeta / apiVersion`),
    'a content encoding': covers(`${P}Unknown / contentEncoding`),
    'a JSON content type': covers(`${P}Unknown / contentType`),
  };
  for (const [name, data, code, message] of failures) {
    it(`rejects ${name}: ${code}${rowsOf[name] ?? ''}`, () => {
      const err = decodeError(data);
      expect(err.code).to.equal(code);
      if (typeof message === 'string') expect(err.message).to.equal(message);
      else expect(err.message).to.match(message);
    });
  }
});
