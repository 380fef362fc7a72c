/**
 * Table and metadata-only answers in the meta group/version the client asked for (issue #9):
 * the document, every item of a PartialObjectMetadataList and every row's PartialObjectMetadata
 * carry it, in gets, lists and watch events; the default stays `<meta group>/v1`.
 */
import { expect } from 'chai';
import { META_V1_API_VERSION, partialObjectMetadata, partialObjectMetadataList } from '../../../../lib/apimachinery/meta-only.js';
import { tableFor, tableWatchTransformer } from '../../../../lib/apimachinery/table/builder.js';
import { META_GROUP, upstreamAlias } from '../../../../lib/apis/vendor.js';

const V1BETA1 = `${upstreamAlias(META_GROUP)!}/v1beta1`;
const thing = (name: string) => ({ apiVersion: 'v1', kind: 'Thing', metadata: { name, resourceVersion: '5', creationTimestamp: '2024-05-01T10:00:00Z' } });
const kind = {};

describe('apimachinery meta-only and table: the apiVersion asked for (issue #9)', () => {
  it('partialObjectMetadata takes the apiVersion, default <meta group>/v1', () => {
    expect(partialObjectMetadata(thing('a'), V1BETA1).apiVersion).to.equal(V1BETA1);
    expect(partialObjectMetadata(thing('a')).apiVersion).to.equal(META_V1_API_VERSION);
  });

  it('partialObjectMetadataList gives the list and each item the apiVersion', () => {
    const out = partialObjectMetadataList({ metadata: {}, items: [thing('a'), thing('b')] }, undefined, V1BETA1);
    expect(out.apiVersion).to.equal(V1BETA1);
    expect(out.items!.map((i) => i.apiVersion)).to.deep.equal([V1BETA1, V1BETA1]);
    expect(partialObjectMetadataList([thing('a')], { resourceVersion: '1' }).items![0]!.apiVersion).to.equal(META_V1_API_VERSION);
  });

  it('tableFor: the Table and its rows\' PartialObjectMetadata are in the apiVersion', () => {
    const table = tableFor(kind, [thing('a'), thing('b')], { apiVersion: V1BETA1 });
    expect(table.apiVersion).to.equal(V1BETA1);
    expect(table.rows!.map((r) => (r.object as { apiVersion: string }).apiVersion)).to.deep.equal([V1BETA1, V1BETA1]);
    expect(tableFor(kind, thing('a')).apiVersion).to.equal(META_V1_API_VERSION);
  });

  it('tableWatchTransformer: every event\'s Table is in the apiVersion', () => {
    const transform = tableWatchTransformer(kind, { apiVersion: V1BETA1 });
    for (const name of ['a', 'b']) {
      const t = transform(thing(name)) as { apiVersion: string; rows: { object: { apiVersion: string } }[] };
      expect(t.apiVersion).to.equal(V1BETA1);
      expect(t.rows[0]!.object.apiVersion).to.equal(V1BETA1);
    }
  });
});
