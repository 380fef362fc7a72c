import { expect } from 'chai';
import { pruneUnknownFields } from '../../../../lib/apiextensions/values/prune.js';
import { EXT, type JSONSchemaProps } from '../../../../lib/apiextensions/types.js';
import { specSchema } from './spec-schema.js';

const schema = specSchema({
  name: { type: 'string' },
  list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
  map: { type: 'object', additionalProperties: { type: 'object', properties: { a: { type: 'string' } } } },
  free: { type: 'object', [EXT.preserveUnknownFields]: true, properties: { known: { type: 'object', properties: { x: { type: 'string' } } } } },
  template: {
    type: 'object',
    [EXT.embeddedResource]: true,
    properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
  },
  plain: { type: 'object', properties: { v: { type: 'string' } } },
});

interface Case {
  name: string;
  obj: Record<string, unknown>;
  isResourceRoot?: boolean;
  want: Record<string, unknown>;
  paths: string[];
}

const cases: Case[] = [
  {
    name: 'drops unknown fields at every depth, paths sorted',
    obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'a' }, spec: { name: 'x', zz: 1, bad: true, list: [{ a: 'x' }, { a: 'y', b: 2 }] }, extra: 1 },
    want: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'a' }, spec: { name: 'x', list: [{ a: 'x' }, { a: 'y' }] } },
    paths: ['extra', 'spec.bad', 'spec.list[1].b', 'spec.zz'],
  },
  {
    name: 'prunes inside additionalProperties values with dotted map keys',
    obj: { spec: { map: { k1: { a: 'x', b: 'y' } } } },
    want: { spec: { map: { k1: { a: 'x' } } } },
    paths: ['spec.map.k1.b'],
  },
  {
    name: 'preserve-unknown-fields keeps unknown fields but prunes inside known properties',
    obj: { spec: { free: { anything: { deep: 1 }, known: { x: 'a', y: 'b' } } } },
    want: { spec: { free: { anything: { deep: 1 }, known: { x: 'a' } } } },
    paths: ['spec.free.known.y'],
  },
  {
    name: 'embedded resources keep apiVersion, kind and metadata; unknown metadata fields are reported after pruned paths',
    obj: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1 }, spec: { x: 'a', y: 'b' }, other: 1 } } },
    want: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a' } } } },
    paths: ['spec.template.other', 'spec.template.spec.y', 'spec.template.metadata.bogus'],
  },
  {
    name: 'apiVersion/kind/metadata below a non-embedded object are unknown fields',
    obj: { spec: { plain: { v: 'a', kind: 'X', metadata: {} } } },
    want: { spec: { plain: { v: 'a' } } },
    paths: ['spec.plain.kind', 'spec.plain.metadata'],
  },
  {
    name: 'root metadata: unknown ObjectMeta fields (also in ownerReferences) are dropped and reported last',
    obj: { metadata: { name: 'a', foo: 1, ownerReferences: [{ name: 'o', kind: 'K', apiVersion: 'v1', uid: 'u', bar: 2 }] }, spec: { q: 1 } },
    want: { metadata: { name: 'a', ownerReferences: [{ name: 'o', kind: 'K', apiVersion: 'v1', uid: 'u' }] }, spec: {} },
    paths: ['spec.q', 'metadata.foo', 'metadata.ownerReferences[0].bar'],
  },
  {
    name: 'not a resource root: apiVersion, kind and metadata at the top are pruned silently',
    obj: { apiVersion: 'v1', kind: 'K', metadata: { x: 1 }, spec: {} },
    isResourceRoot: false,
    want: { spec: {} },
    paths: [],
  },
];

describe('apiextensions/values: pruneUnknownFields', () => {
  for (const c of cases) {
    it(c.name, () => {
      const paths = pruneUnknownFields(c.obj, schema, { isResourceRoot: c.isResourceRoot ?? true });
      expect(c.obj).to.deep.equal(c.want);
      expect(paths).to.deep.equal(c.paths);
    });
  }

  it('an array without items schema loses every object field inside', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { l: { type: 'array' } } };
    const obj = { l: [{ a: 1 }, 'x'] };
    expect(pruneUnknownFields(obj, s, { isResourceRoot: false })).to.deep.equal(['l[0].a']);
    expect(obj).to.deep.equal({ l: [{}, 'x'] });
  });
});
