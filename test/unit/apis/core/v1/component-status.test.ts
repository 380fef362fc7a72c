import { expect } from 'chai';
import { structFields } from '../../../../../lib/apimachinery/schema/types.js';
import { componentStatus } from '../../../../../lib/apis/core/v1/component-status.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, unsetFields } from '../../kind-pipeline.js';

describe('core/v1 ComponentStatus: definition (issue #12)', () => {
  it('declares the upstream discovery facts: cluster-scoped, short name cs, no category, deprecated since 1.19', () => {
    expect(componentStatus).to.include({
      group: '',
      version: 'v1',
      kind: 'ComponentStatus',
      resource: 'componentstatuses',
      singular: 'componentstatus',
      namespaced: false,
      statusSubresource: false,
      deprecatedSince: '1.19',
      listKind: 'ComponentStatusList',
    });
    expect(componentStatus.shortNames).to.deep.equal(['cs']);
    expect(componentStatus.categories).to.deep.equal([]);
    expect(componentStatus.fieldSelectors).to.deep.equal({});
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure (a cluster-scoped kind has no namespace)', () => {
    const complete = (): Obj => ({ apiVersion: 'v1', ...fixture('component-status') });
    expect(decodeAndDefault(componentStatus, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(componentStatus.schema, complete(), ['metadata.namespace'])).to.deep.equal([]);
  });

  it('has no defaults: a condition stays as written', () => {
    const cs: Obj = { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True' }] };
    decodeAndDefault(componentStatus, cs);
    expect(cs.conditions).to.deep.equal([{ type: 'Healthy', status: 'True' }]);
  });

  it('merges conditions by type, as upstream marks the list (map keyed by type)', () => {
    const conditions = structFields(componentStatus.schema).conditions!.schema;
    expect(conditions).to.deep.include({ type: 'list', listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' });
  });
});
