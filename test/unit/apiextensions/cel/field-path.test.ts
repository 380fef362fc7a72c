import { expect } from 'chai';
import { resolveFieldPath } from '../../../../lib/apiextensions/cel/index.js';
import type { JSONSchemaProps } from '../../../../lib/apiextensions/types.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    'a.c': { type: 'number' },
    foo: { type: 'object', properties: { 'b.c': { type: 'object', properties: { 'c\x07': { type: 'number' } } } } },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    list: { type: 'array', items: { type: 'object', properties: { a: { type: 'number' } } } },
    x: { type: 'integer' },
  },
};

const cases: Array<{ path: string; want: string } | { path: string; error: string }> = [
  { path: '.x', want: 'x' },
  { path: ".foo['b.c']['c\\a']", want: 'foo.b.c.c\x07' },
  { path: "['a.c']", want: 'a.c' },
  { path: '.labels.app', want: 'labels[app]' },
  { path: ".labels['app.kubernetes']", want: 'labels[app.kubernetes]' },
  { path: '.list', want: 'list' },
  { path: '.a.c', error: 'does not refer to a valid field' },
  { path: '.list[0]', error: 'expected single quoted string but got 0' },
  { path: '   ', error: 'expected [ or . but got:    ' },
  { path: '.', error: 'unexpected end of JSON path' },
  { path: '..', error: 'does not refer to a valid field' },
  { path: '.x.y', error: 'does not refer to a valid field' },
  { path: ".foo['b.c'", error: 'unexpected end of JSON path' },
  { path: ".foo['b.c'}", error: 'expected ] but got }' },
  { path: ".foo['b\\q']", error: 'invalid string literal: invalid escape char \\q' },
];

describe('apiextensions/cel resolveFieldPath', () => {
  for (const c of cases) {
    it(JSON.stringify(c.path), () => {
      if ('want' in c) expect(resolveFieldPath(c.path, schema).path).to.equal(c.want);
      else expect(() => resolveFieldPath(c.path, schema)).to.throw(c.error);
    });
  }
});
