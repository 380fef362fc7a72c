import { expect } from 'chai';
import {
  asPartialObjectMetadata,
  asPartialObjectMetadataList,
  listMetaOf,
  META_V1_API_VERSION,
  MetaTransformError,
  partialObjectMetadata,
  partialObjectMetadataList,
} from '../../../../lib/apimachinery/meta-only.js';
import { META_GROUP } from '../../../../lib/apis/vendor.js';

const metadata = {
  name: 'web',
  namespace: 'default',
  uid: 'u1',
  resourceVersion: '12',
  generation: 2,
  creationTimestamp: '2024-05-01T10:00:00Z',
  labels: { app: 'web' },
  annotations: { note: 'x' },
  ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u0', controller: true }],
  finalizers: ['f'],
  managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2024-05-01T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: {} }],
};
const pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'i' }] }, status: { phase: 'Running' } };
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } };

describe('apimachinery/meta-only', () => {
  it('the apiVersion is v1 of the meta group', () => expect(META_V1_API_VERSION).to.equal(`${META_GROUP}/v1`));

  describe('partialObjectMetadata', () => {
    it('is {kind, apiVersion, metadata} with every metadata field, in that order', () => {
      const partial = partialObjectMetadata(pod);
      expect(partial).to.deep.equal({ kind: 'PartialObjectMetadata', apiVersion: META_V1_API_VERSION, metadata });
      expect(Object.keys(partial)).to.deep.equal(['kind', 'apiVersion', 'metadata']);
    });
    it('copies the metadata (the object is not shared at top level)', () => {
      const partial = partialObjectMetadata(pod);
      expect(partial.metadata).to.not.equal(pod.metadata);
    });
    it('gives empty metadata for an object without it', () => {
      expect(partialObjectMetadata({ kind: 'Pod' }).metadata).to.deep.equal({});
    });
  });

  describe('partialObjectMetadataList', () => {
    it('of a list object: list metadata (resourceVersion, continue, remainingItemCount) and one item per object', () => {
      const list = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '40', continue: 'c1', remainingItemCount: 3 }, items: [pod, pod] };
      const out = partialObjectMetadataList(list);
      expect(Object.keys(out)).to.deep.equal(['kind', 'apiVersion', 'metadata', 'items']);
      expect(out.kind).to.equal('PartialObjectMetadataList');
      expect(out.apiVersion).to.equal(META_V1_API_VERSION);
      expect(out.metadata).to.deep.equal({ resourceVersion: '40', continue: 'c1', remainingItemCount: 3 });
      expect(out.items).to.deep.equal([partialObjectMetadata(pod), partialObjectMetadata(pod)]);
    });
    it('of items with separate list metadata', () => {
      expect(partialObjectMetadataList([pod], { resourceVersion: '41' }).metadata).to.deep.equal({ resourceVersion: '41' });
    });
    it('an empty list has items: null (upstream encodes the nil slice)', () => {
      expect(partialObjectMetadataList({ metadata: { resourceVersion: '5' }, items: [] })).to.deep.equal({
        kind: 'PartialObjectMetadataList',
        apiVersion: META_V1_API_VERSION,
        metadata: { resourceVersion: '5' },
        items: null,
      });
    });
  });

  describe('listMetaOf', () => {
    const cases: Array<[unknown, object]> = [
      [undefined, {}],
      [{ resourceVersion: '', continue: '' }, {}],
      [{ resourceVersion: '1', remainingItemCount: 0 }, { resourceVersion: '1', remainingItemCount: 0 }],
      [{ selfLink: '/x', resourceVersion: '2' }, { resourceVersion: '2' }],
    ];
    for (const [meta, expected] of cases) {
      it(`${JSON.stringify(meta)} → ${JSON.stringify(expected)}`, () => expect(listMetaOf(meta)).to.deep.equal(expected));
    }
  });

  describe('as=PartialObjectMetadata / as=PartialObjectMetadataList of a result', () => {
    it('converts a single object and refuses a list (406 message as upstream)', () => {
      expect(asPartialObjectMetadata(pod)).to.deep.equal(partialObjectMetadata(pod));
      expect(() => asPartialObjectMetadata({ apiVersion: 'v1', kind: 'PodList', items: [] }))
        .to.throw(MetaTransformError)
        .with.property('message', 'you requested PartialObjectMetadata, but the requested object is a list (*core.PodList)');
    });
    it('converts a list and refuses a single object (406 message as upstream)', () => {
      expect(asPartialObjectMetadataList({ apiVersion: 'apps/v1', kind: 'DeploymentList', metadata: {}, items: [deployment] }).items).to.have.length(1);
      expect(() => asPartialObjectMetadataList(deployment))
        .to.throw(MetaTransformError)
        .with.property('message', 'you requested PartialObjectMetadataList, but the requested object is not a list (*apps.Deployment)');
    });
  });
});
