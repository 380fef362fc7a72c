import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { validateCustomResourceValue } from '../../../../lib/apiextensions/values/validate.js';
import { EXT } from '../../../../lib/apiextensions/types.js';
import { specSchema } from './spec-schema.js';

const schema = specSchema({
  a: { type: 'string', maxLength: 3 },
  b: { type: 'string', maxLength: 3 },
  byIndex: { type: 'array', items: { type: 'string', maxLength: 1 } },
  atomic: { type: 'array', [EXT.listType]: 'atomic', items: { type: 'string', maxLength: 1 } },
  set: { type: 'array', [EXT.listType]: 'set', items: { type: 'string', maxLength: 1 } },
  map: {
    type: 'array',
    [EXT.listType]: 'map',
    [EXT.listMapKeys]: ['k'],
    items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'string', maxLength: 1 } } },
  },
  obj: { type: 'object', additionalProperties: { type: 'string', maxLength: 1 } },
  nested: { type: 'object', required: ['x'], properties: { x: { type: 'string' }, y: { type: 'string' } } },
  tags: { type: 'array', [EXT.listType]: 'set', items: { type: 'string' } },
  tpl: {
    type: 'object',
    [EXT.embeddedResource]: true,
    properties: { spec: { type: 'object', properties: { n: { type: 'integer', maximum: 1 } } } },
  },
});

interface Case {
  name: string;
  old: Record<string, unknown>;
  spec: Record<string, unknown>;
  ratcheting?: boolean;
  want: string[];
}

const cases: Case[] = [
  {
    name: 'an unchanged invalid field is ratcheted, a changed one is not',
    old: { a: 'toolong', b: 'ok' },
    spec: { a: 'toolong', b: 'toolong' },
    want: ['spec.b: Too long: may not be longer than 3'],
  },
  {
    name: 'a changed invalid value is reported',
    old: { a: 'toolong' },
    spec: { a: 'toolong2' },
    want: ['spec.a: Too long: may not be longer than 3'],
  },
  {
    name: 'items of lists without list-type do not correlate',
    old: { byIndex: ['xx', 'y'] },
    spec: { byIndex: ['xx', 'zz'] },
    want: ['spec.byIndex[0]: Too long: may not be longer than 1', 'spec.byIndex[1]: Too long: may not be longer than 1'],
  },
  {
    name: 'an unchanged list without list-type is ratcheted as a whole',
    old: { byIndex: ['xx', 'y'] },
    spec: { byIndex: ['xx', 'y'], a: 'new' },
    want: [],
  },
  {
    name: 'atomic lists are not correlated item by item',
    old: { atomic: ['xx'] },
    spec: { atomic: ['xx', 'y'] },
    want: ['spec.atomic[0]: Too long: may not be longer than 1'],
  },
  {
    name: 'an unchanged set is ratcheted as a whole',
    old: { set: ['xx'] },
    spec: { set: ['xx'] },
    want: [],
  },
  {
    name: 'set items are not correlated: a changed set reports every invalid item',
    old: { set: ['xx'] },
    spec: { set: ['xx', 'yy'] },
    want: ['spec.set[0]: Too long: may not be longer than 1', 'spec.set[1]: Too long: may not be longer than 1'],
  },
  {
    name: 'fields without a schema make an object unequal (no ratcheting of its own errors)',
    old: { nested: { y: 'a', extra: 1 } },
    spec: { nested: { y: 'a', extra: 1 } },
    want: ['spec.nested.x: Required value'],
  },
  {
    name: 'map lists correlate by key, regardless of position',
    old: { map: [{ k: 'a', v: 'long' }, { k: 'b', v: 'x' }] },
    spec: { map: [{ k: 'b', v: 'long' }, { k: 'a', v: 'long' }] },
    want: ['spec.map[0].v: Too long: may not be longer than 1'],
  },
  {
    name: 'additionalProperties correlate by key',
    old: { obj: { p: 'long' } },
    spec: { obj: { p: 'long', q: 'long' } },
    want: ['spec.obj.q: Too long: may not be longer than 1'],
  },
  {
    name: 'required of a changed object is reported; of an unchanged object it is ratcheted',
    old: { nested: { y: 'a' }, a: 'toolong' },
    spec: { nested: { y: 'b' }, a: 'toolong' },
    want: ['spec.nested.x: Required value'],
  },
  {
    name: 'required of an unchanged object is ratcheted',
    old: { nested: { y: 'a' } },
    spec: { nested: { y: 'a' }, b: 'ok' },
    want: [],
  },
  {
    name: 'ratcheting off reports everything',
    old: { a: 'toolong' },
    spec: { a: 'toolong' },
    ratcheting: false,
    want: ['spec.a: Too long: may not be longer than 3'],
  },
  {
    name: 'list-type duplicates are reported only when the old object had none',
    old: { tags: ['x', 'x'] },
    spec: { tags: ['x', 'x', 'y'] },
    want: [],
  },
  {
    name: 'list-type duplicates new on update are reported',
    old: { tags: ['x'] },
    spec: { tags: ['x', 'x'] },
    want: ['spec.tags[1]: Duplicate value: "x"'],
  },
  {
    name: 'inside an embedded resource, unchanged values are ratcheted but the embedded checks are not',
    old: { tpl: { kind: 'K', spec: { n: 5 } } },
    spec: { tpl: { kind: 'K', spec: { n: 5 } } },
    want: ['spec.tpl.apiVersion: Required value'],
  },
  {
    name: 'a changed value inside an embedded resource is reported',
    old: { tpl: { apiVersion: 'v1', kind: 'K', spec: { n: 5 } } },
    spec: { tpl: { apiVersion: 'v1', kind: 'K', spec: { n: 6 } } },
    want: ['spec.tpl.spec.n: Invalid value: 6: spec.tpl.spec.n in body should be less than or equal to 1'],
  },
];

describe('apiextensions/values: validation ratcheting', () => {
  for (const c of cases) {
    it(c.name, () => {
      const old = { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, spec: c.old };
      const obj = { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, spec: c.spec };
      const opts = c.ratcheting === undefined ? { old } : { old, ratcheting: c.ratcheting };
      expect(validateCustomResourceValue(obj, schema, opts).map(fieldErrorString)).to.deep.equal(c.want);
    });
  }
});
