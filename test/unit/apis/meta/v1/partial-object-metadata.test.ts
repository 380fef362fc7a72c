/**
 * The metadata-only kinds of the meta group in protobuf (issue #9): wire bytes spelled by hand
 * from upstream's meta/v1 and meta/v1beta1 `generated.proto`, decoded back field by field, and
 * the group/version/kind resolution (both spellings of the meta group, v1 and v1beta1; no Table).
 */
import { expect } from 'chai';
import { partialObjectMetadata, partialObjectMetadataList } from '../../../../../lib/apimachinery/meta-only.js';
import { decodeProtobuf, decodeWatchEvent, encodeProtobuf, encodeWatchEvent } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import {
  META_VERSIONS,
  metaProtobufKind,
  partialObjectMetadataListSchema,
  partialObjectMetadataListV1beta1Schema,
  partialObjectMetadataSchema,
} from '../../../../../lib/apis/meta/v1/partial-object-metadata.js';
import { META_GROUP, upstreamAlias } from '../../../../../lib/apis/vendor.js';
import { bytes, entry, lfield, vfield } from '../../../apimachinery/serializers/protobuf/wire.js';

const ALIAS = upstreamAlias(META_GROUP)!;
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const CREATED = 1714557600; // 2024-05-01T10:00:00Z

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1', resourceVersion: '7', creationTimestamp: '2024-05-01T10:00:00Z', labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

/** Upstream's ObjectMeta bytes of `pod.metadata`. */
const podObjectMeta = bytes(
  lfield(1, 'web'), // name = 1
  lfield(3, 'ns'), // namespace = 3
  lfield(5, 'u1'), // uid = 5
  lfield(6, '7'), // resourceVersion = 6
  lfield(8, vfield(1, CREATED), vfield(2, 0)), // creationTimestamp = 8
  entry(11, 'app', 'web'), // labels = 11
);

/** ListMeta { resourceVersion = 2; continue = 3; remainingItemCount = 4 }. */
const listMetaBytes = bytes(lfield(2, '40'), lfield(3, 'tok'), vfield(4, 2));
const list = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '40', continue: 'tok', remainingItemCount: 2 }, items: [pod, pod] };

/** magic + Unknown{typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}. */
function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return bytes(MAGIC, lfield(1, lfield(1, apiVersion), lfield(2, kind)), lfield(2, raw), lfield(3), lfield(4));
}

function encodeAs(obj: { apiVersion: string; kind: string }): Buffer {
  const pk = metaProtobufKind(obj.apiVersion, obj.kind);
  expect(pk, `${obj.apiVersion} ${obj.kind}`).to.not.equal(undefined);
  return encodeProtobuf(obj as unknown as Record<string, unknown>, pk!);
}

const resolve = (apiVersion: string, kind: string) => metaProtobufKind(apiVersion, kind)?.schema;

describe('apis/meta/v1 PartialObjectMetadata and PartialObjectMetadataList in protobuf (issue #9)', () => {
  describe('metaProtobufKind', () => {
    it('resolves both kinds in v1 and v1beta1 of the meta group, in either spelling', () => {
      expect(META_VERSIONS).to.deep.equal(['v1', 'v1beta1']);
      for (const group of [META_GROUP, ALIAS]) {
        expect(metaProtobufKind(`${group}/v1`, 'PartialObjectMetadata')).to.deep.equal({ apiVersion: `${group}/v1`, kind: 'PartialObjectMetadata', schema: partialObjectMetadataSchema });
        expect(metaProtobufKind(`${group}/v1beta1`, 'PartialObjectMetadata')?.schema).to.equal(partialObjectMetadataSchema);
        expect(metaProtobufKind(`${group}/v1`, 'PartialObjectMetadataList')?.schema).to.equal(partialObjectMetadataListSchema);
        expect(metaProtobufKind(`${group}/v1beta1`, 'PartialObjectMetadataList')?.schema).to.equal(partialObjectMetadataListV1beta1Schema);
      }
    });
    it('knows no Table (upstream answers it in JSON and YAML only), no other version or group', () => {
      expect(metaProtobufKind(`${ALIAS}/v1`, 'Table')).to.equal(undefined);
      expect(metaProtobufKind(`${ALIAS}/v2`, 'PartialObjectMetadata')).to.equal(undefined);
      expect(metaProtobufKind('v1', 'PartialObjectMetadata')).to.equal(undefined);
      expect(metaProtobufKind('apps/v1', 'PartialObjectMetadata')).to.equal(undefined);
      expect(metaProtobufKind(`${META_GROUP}/v1`, 'Pod')).to.equal(undefined);
    });
  });

  describe('wire bytes', () => {
    it('PartialObjectMetadata: the envelope names the group/version asked; metadata = 1', () => {
      const pom = partialObjectMetadata(pod, `${ALIAS}/v1`);
      expect(encodeAs(pom).equals(envelope(`${ALIAS}/v1`, 'PartialObjectMetadata', lfield(1, podObjectMeta)))).to.equal(true);
    });

    it('v1 PartialObjectMetadataList: metadata = 1, then items = 2', () => {
      const poml = partialObjectMetadataList(list, undefined, `${META_GROUP}/v1`);
      const raw = bytes(lfield(1, listMetaBytes), lfield(2, lfield(1, podObjectMeta)), lfield(2, lfield(1, podObjectMeta)));
      expect(encodeAs(poml).equals(envelope(`${META_GROUP}/v1`, 'PartialObjectMetadataList', raw))).to.equal(true);
    });

    it('v1beta1 PartialObjectMetadataList: items = 1, then metadata = 2', () => {
      const poml = partialObjectMetadataList(list, undefined, `${ALIAS}/v1beta1`);
      const raw = bytes(lfield(1, lfield(1, podObjectMeta)), lfield(1, lfield(1, podObjectMeta)), lfield(2, listMetaBytes));
      expect(encodeAs(poml).equals(envelope(`${ALIAS}/v1beta1`, 'PartialObjectMetadataList', raw))).to.equal(true);
    });

    it('an empty list (items null) writes only its (empty) list metadata', () => {
      const poml = partialObjectMetadataList({ metadata: {}, items: [] }, undefined, `${ALIAS}/v1`);
      expect(encodeAs(poml).equals(envelope(`${ALIAS}/v1`, 'PartialObjectMetadataList', lfield(1)))).to.equal(true);
    });
  });

  describe('decoding back', () => {
    for (const version of META_VERSIONS) {
      it(`PartialObjectMetadataList ${version}: type meta, list metadata and every item's metadata`, () => {
        const poml = partialObjectMetadataList(list, undefined, `${ALIAS}/${version}`);
        const decoded = decodeProtobuf(encodeAs(poml), resolve);
        expect(decoded.apiVersion).to.equal(`${ALIAS}/${version}`);
        expect(decoded.kind).to.equal('PartialObjectMetadataList');
        expect(decoded.object.metadata).to.deep.equal({ resourceVersion: '40', continue: 'tok', remainingItemCount: 2 });
        const items = decoded.object.items as { metadata: unknown }[];
        expect(items).to.have.length(2);
        for (const item of items) expect(item.metadata).to.deep.equal(pod.metadata);
      });
    }

    it('PartialObjectMetadata: the whole metadata, nothing of the object', () => {
      const decoded = decodeProtobuf(encodeAs(partialObjectMetadata(pod, `${META_GROUP}/v1beta1`)), resolve);
      expect(decoded.object).to.deep.equal({ apiVersion: `${META_GROUP}/v1beta1`, kind: 'PartialObjectMetadata', metadata: pod.metadata });
    });

    it('a watch frame carrying a PartialObjectMetadata', () => {
      const pom = partialObjectMetadata(pod, `${ALIAS}/v1`);
      const frame = encodeWatchEvent('MODIFIED', pom, metaProtobufKind(pom.apiVersion, pom.kind)!);
      const ev = decodeWatchEvent(frame.subarray(4), resolve);
      expect(ev).to.deep.include({ type: 'MODIFIED', apiVersion: `${ALIAS}/v1`, kind: 'PartialObjectMetadata' });
      expect(ev.object.metadata).to.deep.equal(pod.metadata);
    });
  });
});
