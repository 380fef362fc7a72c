/**
 * The protobuf handler helpers for the meta kinds and the `--upstream-aliases` gate of the
 * upstream protobuf media type name (issue #9): which spellings a server speaks, request bodies
 * (415 for a spelling it does not), response documents and watch frames of PartialObjectMetadata.
 */
import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { partialObjectMetadata, partialObjectMetadataList } from '../../../../lib/apimachinery/meta-only.js';
import { decodeProtobuf, decodeWatchEvent, encodeProtobuf } from '../../../../lib/apimachinery/serializers/protobuf/index.js';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { metaProtobufKind } from '../../../../lib/apis/meta/v1/partial-object-metadata.js';
import { META_GROUP, PROTOBUF_MEDIA_TYPE, UPSTREAM_PROTOBUF_MEDIA_TYPE, upstreamAlias } from '../../../../lib/apis/vendor.js';
import { decodeObjectBody } from '../../../../lib/endpoints/handlers/body.js';
import { encodeProtobufBody, isProtobuf, protobufKindOf, protobufMediaTypes, protobufWatchFrame } from '../../../../lib/endpoints/handlers/protobuf.js';

const ALIAS = upstreamAlias(META_GROUP)!;
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ns', resourceVersion: '3', creationTimestamp: '2024-05-01T10:00:00Z' }, data: { a: '1' } };
const cmList = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9' }, items: [cm] };
const resolve = (apiVersion: string, kind: string) =>
  metaProtobufKind(apiVersion, kind)?.schema ?? (apiVersion === 'v1' && kind === 'ConfigMap' ? configMap.schema : undefined);

function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('no StatusError thrown');
}

describe('endpoints/handlers/protobuf: meta kinds and the upstream media type gate (issue #9)', () => {
  describe('protobufMediaTypes', () => {
    it('with the aliases: both spellings; without: only ours', () => {
      expect(protobufMediaTypes(true)).to.deep.equal([PROTOBUF_MEDIA_TYPE, UPSTREAM_PROTOBUF_MEDIA_TYPE]);
      expect(protobufMediaTypes(false)).to.deep.equal([PROTOBUF_MEDIA_TYPE]);
      expect(protobufMediaTypes(true), 'built once').to.equal(protobufMediaTypes(true));
    });
    it('isProtobuf still recognizes a negotiated spelling of either name', () => {
      expect(isProtobuf(UPSTREAM_PROTOBUF_MEDIA_TYPE)).to.equal(true);
      expect(isProtobuf('application/json')).to.equal(false);
    });
  });

  describe('decodeObjectBody', () => {
    const body = encodeProtobuf({ metadata: { name: 'x', creationTimestamp: null } }, { apiVersion: 'v1', kind: 'ConfigMap', schema: configMap.schema });
    const decode = (b: Buffer) => decodeProtobuf(b, resolve).object;
    it('takes the upstream name when the server speaks it', () => {
      const obj = decodeObjectBody(UPSTREAM_PROTOBUF_MEDIA_TYPE, body, undefined, { mediaTypes: protobufMediaTypes(true), decode });
      expect(obj.metadata).to.deep.include({ name: 'x' });
    });
    it('refuses it with 415, listing what is accepted, when the server does not', () => {
      const err = statusOf(() => decodeObjectBody(UPSTREAM_PROTOBUF_MEDIA_TYPE, body, undefined, { mediaTypes: protobufMediaTypes(false), decode }));
      expect(err.status).to.include({
        code: 415,
        reason: 'UnsupportedMediaType',
        message: `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PROTOBUF_MEDIA_TYPE}`,
      });
      expect(decodeObjectBody(PROTOBUF_MEDIA_TYPE, body, undefined, { mediaTypes: protobufMediaTypes(false), decode }).metadata).to.deep.include({ name: 'x' });
    });
  });

  describe('response documents', () => {
    it('PartialObjectMetadata and its list resolve to the meta kinds, in the group/version they carry', () => {
      const pom = partialObjectMetadata(cm, `${ALIAS}/v1beta1`) as unknown as Record<string, unknown>;
      expect(protobufKindOf(configMap, pom)).to.deep.equal(metaProtobufKind(`${ALIAS}/v1beta1`, 'PartialObjectMetadata'));
      const poml = partialObjectMetadataList(cmList, undefined, `${META_GROUP}/v1`) as unknown as Record<string, unknown>;
      const decoded = decodeProtobuf(encodeProtobufBody(configMap, poml), resolve);
      expect(decoded).to.include({ apiVersion: `${META_GROUP}/v1`, kind: 'PartialObjectMetadataList' });
      expect(decoded.object.metadata).to.deep.equal({ resourceVersion: '9' });
      expect((decoded.object.items as { metadata: unknown }[]).map((i) => i.metadata)).to.deep.equal([cm.metadata]);
    });
    it('a Table has no protobuf form (upstream answers it in JSON and YAML only)', () => {
      const table = tableFor(configMap, cm, { apiVersion: `${ALIAS}/v1` }) as unknown as Record<string, unknown>;
      expect(protobufKindOf(configMap, table)).to.equal(undefined);
      expect(() => encodeProtobufBody(configMap, table)).to.throw(/no protobuf form/);
    });
  });

  describe('protobufWatchFrame', () => {
    it('frames a PartialObjectMetadata as that kind and an object as the resource kind', () => {
      const pom = partialObjectMetadata(cm, `${ALIAS}/v1`) as unknown as Record<string, unknown>;
      const meta = decodeWatchEvent(protobufWatchFrame(configMap, 'ADDED', pom).subarray(4), resolve);
      expect(meta).to.deep.include({ type: 'ADDED', apiVersion: `${ALIAS}/v1`, kind: 'PartialObjectMetadata' });
      expect(meta.object.metadata).to.deep.equal(cm.metadata);
      expect(meta.object).to.not.have.property('data');
      const plain = decodeWatchEvent(protobufWatchFrame(configMap, 'ADDED', cm).subarray(4), resolve);
      expect(plain).to.include({ apiVersion: 'v1', kind: 'ConfigMap' });
      expect(plain.object.data).to.deep.equal({ a: '1' });
    });
  });
});
