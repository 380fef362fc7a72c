/** newRehomer (issue #15 item 1): structs of one version copied under another version's ids. */
import { expect } from 'chai';
import { field, listOf, mapOf, string, struct } from '../../../lib/apimachinery/schema/builder.js';
import { structFields, type StructSchema } from '../../../lib/apimachinery/schema/types.js';
import { newRehomer } from '../../../lib/apis/rehome.js';

const shared = struct('apimachinery.pkg.apis.meta.v1.Thing', { a: field(1, string) });
const leaf = struct('api.g.v1.Leaf', { s: field(1, string), shared: field(2, shared) });
const replaced = struct('api.g.v1.Replaced', { r: field(1, string) });
const root = struct('api.g.v1.Root', {
  one: field(1, leaf),
  many: field(2, listOf(leaf)),
  byKey: field(3, mapOf(leaf)),
  other: field(4, replaced),
});
const override = struct('api.g.v1beta1.Replaced', { r: field(1, string, { default: 'x' }) });

describe('newRehomer (issue #15 item 1)', () => {
  const rehome = newRehomer({ from: 'api.g.v1.', to: 'api.g.v1beta1.', overrides: new Map([[replaced.id, override]]) });
  const out = rehome(root);
  const f = structFields(out);

  it('copies the structs of the source version under the target ids, through lists and maps, one copy per struct', () => {
    expect(out.id).to.equal('api.g.v1beta1.Root');
    const one = f.one!.schema as StructSchema;
    expect(one.id).to.equal('api.g.v1beta1.Leaf');
    expect((f.many!.schema as { items: StructSchema }).items).to.equal(one);
    expect((f.byKey!.schema as { values: StructSchema }).values).to.equal(one);
    expect(rehome(leaf)).to.equal(one);
  });

  it('keeps structs of other packages and substitutes the overrides; the source is untouched', () => {
    expect(structFields(f.one!.schema as StructSchema).shared!.schema).to.equal(shared);
    expect(f.other!.schema).to.equal(override);
    expect(root.id).to.equal('api.g.v1.Root');
    expect(structFields(root).one!.schema).to.equal(leaf);
  });
});
