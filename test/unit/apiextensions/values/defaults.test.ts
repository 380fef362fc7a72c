import { expect } from 'chai';
import { applyDefaults } from '../../../../lib/apiextensions/values/defaults.js';
import { EXT } from '../../../../lib/apiextensions/types.js';
import { specSchema } from './spec-schema.js';

const schema = specSchema({
  replicas: { type: 'integer', default: 1 },
  obj: { type: 'object', default: { a: 'x' }, properties: { a: { type: 'string' }, b: { type: 'string', default: 'b' } } },
  nullableWithDefault: { type: 'string', nullable: true, default: 'd' },
  noDefault: { type: 'string' },
  nullable: { type: 'string', nullable: true },
  list: { type: 'array', items: { type: 'object', properties: { p: { type: 'integer', default: 80 } } } },
  strs: { type: 'array', items: { type: 'string', default: 'z' } },
  map: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string', default: 'v' } } } },
  mapWithDefault: { type: 'object', additionalProperties: { type: 'string', default: 'm' } },
  embedded: {
    type: 'object',
    [EXT.embeddedResource]: true,
    properties: { spec: { type: 'object', properties: { x: { type: 'string', default: 'ex' } } } },
  },
});

interface Case {
  name: string;
  spec: Record<string, unknown>;
  want: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'absent properties get their defaults, defaults are defaulted deeper',
    spec: {},
    want: { replicas: 1, obj: { a: 'x', b: 'b' }, nullableWithDefault: 'd' },
  },
  {
    name: 'present values are kept',
    spec: { replicas: 3, obj: { a: 'y' }, nullableWithDefault: 'q' },
    want: { replicas: 3, obj: { a: 'y', b: 'b' }, nullableWithDefault: 'q' },
  },
  {
    name: 'null of a non-nullable field with a default becomes the default; nullable null stays',
    spec: { replicas: null, nullableWithDefault: null, nullable: null },
    want: { replicas: 1, obj: { a: 'x', b: 'b' }, nullableWithDefault: null, nullable: null },
  },
  {
    name: 'null of a non-nullable field without a default is removed',
    spec: { noDefault: null },
    want: { replicas: 1, obj: { a: 'x', b: 'b' }, nullableWithDefault: 'd' },
  },
  {
    name: 'defaults inside list items; null items with an items default become it',
    spec: { list: [{}, { p: 1 }], strs: ['a', null] },
    want: { replicas: 1, obj: { a: 'x', b: 'b' }, nullableWithDefault: 'd', list: [{ p: 80 }, { p: 1 }], strs: ['a', 'z'] },
  },
  {
    name: 'defaults inside additionalProperties values; null values with a default become it',
    spec: { map: { k: {} }, mapWithDefault: { a: null, b: 'x' } },
    want: { replicas: 1, obj: { a: 'x', b: 'b' }, nullableWithDefault: 'd', map: { k: { v: 'v' } }, mapWithDefault: { a: 'm', b: 'x' } },
  },
  {
    name: 'defaults inside embedded resources',
    spec: { embedded: { apiVersion: 'v1', kind: 'K', spec: {} } },
    want: { replicas: 1, obj: { a: 'x', b: 'b' }, nullableWithDefault: 'd', embedded: { apiVersion: 'v1', kind: 'K', spec: { x: 'ex' } } },
  },
];

describe('apiextensions/values: applyDefaults', () => {
  for (const c of cases) {
    it(c.name, () => {
      const obj = { spec: c.spec };
      applyDefaults(obj, schema);
      expect(obj.spec).to.deep.equal(c.want);
    });
  }

  it('deep-copies defaults: objects defaulted twice do not share the default value', () => {
    const a: Record<string, unknown> = { spec: {} };
    const b: Record<string, unknown> = { spec: {} };
    applyDefaults(a, schema);
    applyDefaults(b, schema);
    ((a.spec as Record<string, unknown>).obj as Record<string, unknown>).a = 'changed';
    expect(((b.spec as Record<string, unknown>).obj as Record<string, unknown>).a).to.equal('x');
    expect(schema.properties!.spec!.properties!.obj!.default).to.deep.equal({ a: 'x' });
  });
});
