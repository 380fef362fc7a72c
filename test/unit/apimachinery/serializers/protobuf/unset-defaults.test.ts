/**
 * A decoded protobuf request body's `""` in a defaulted non-pointer string means unset, as Go's
 * defaulters read it (unset-defaults.ts); the real case: a ClusterRoleBinding's roleRef.apiGroup.
 */
import { expect } from 'chai';
import { field, listOf, string, struct } from '../../../../../lib/apimachinery/schema/builder.js';
import { decodeProtobuf, encodeProtobuf, unsetDefaultedEmptyStrings } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { applyDefaults } from '../../../../../lib/apimachinery/schema/defaults.js';
import { rbacV1Kinds } from '../../../../../lib/apis/rbac/v1/index.js';

describe('unsetDefaultedEmptyStrings (protobuf request bodies)', () => {
  const item = struct('x.v1.Item', { mode: field(1, string, { default: 'auto', omitEmpty: false }), name: field(2, string, { omitEmpty: false }) });
  const s = struct('x.v1.S', {
    items: field(1, listOf(item)),
    ref: field(2, string, { default: 'd', omitEmpty: false }),
    pointer: field(3, string, { default: 'p', pointer: true }),
  });

  it('removes "" of defaulted non-pointer strings, in nested lists too, and nothing else', () => {
    const obj = { items: [{ mode: '', name: '' }, { mode: 'manual', name: 'n' }], ref: '', pointer: '' };
    unsetDefaultedEmptyStrings(s, obj);
    expect(obj).to.deep.equal({ items: [{ name: '' }, { mode: 'manual', name: 'n' }], pointer: '' });
  });

  it('a ClusterRoleBinding sent in protobuf without roleRef.apiGroup gets the default group', () => {
    const crb = rbacV1Kinds.find((k) => k.kind === 'ClusterRoleBinding')!;
    const bytes = encodeProtobuf({ metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'view' } }, { apiVersion: crb.apiVersion, kind: crb.kind, schema: crb.schema });
    const { object } = decodeProtobuf(bytes, () => crb.schema);
    expect((object.roleRef as { apiGroup: string }).apiGroup, 'the decoder gives the Go zero').to.equal('');
    unsetDefaultedEmptyStrings(crb.schema, object);
    applyDefaults(crb.schema, object);
    expect(object.roleRef).to.deep.equal({ apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' });
  });
});
