import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { validateCustomResourceValue } from '../../../../lib/apiextensions/values/validate.js';
import { EXT, type JSONSchemaProps } from '../../../../lib/apiextensions/types.js';

const specSchema = (properties: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties, ...extra } },
});

interface Case {
  name: string;
  schema: JSONSchemaProps;
  spec: unknown;
  want: string[];
}

const cases: Case[] = [
  {
    name: 'wrong type',
    schema: specSchema({ replicas: { type: 'integer' } }),
    spec: { replicas: 'three' },
    want: ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
  },
  {
    name: 'float where an integer is required',
    schema: specSchema({ replicas: { type: 'integer' } }),
    spec: { replicas: 1.5 },
    want: ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'],
  },
  {
    name: 'integer accepted where a number is required',
    schema: specSchema({ ratio: { type: 'number', minimum: 0 } }),
    spec: { ratio: 2 },
    want: [],
  },
  {
    name: 'null of a non-nullable field',
    schema: specSchema({ s: { type: 'string' } }),
    spec: { s: null },
    want: ['spec.s: Invalid value: "null": spec.s in body must be of type string: "null"'],
  },
  {
    name: 'null of a nullable field',
    schema: specSchema({ s: { type: 'string', nullable: true } }),
    spec: { s: null },
    want: [],
  },
  {
    name: 'int-or-string accepts both, rejects others',
    schema: specSchema({ a: { [EXT.intOrString]: true }, b: { [EXT.intOrString]: true }, c: { [EXT.intOrString]: true } }),
    spec: { a: 1, b: '50%', c: true },
    want: ['spec.c: Invalid value: "boolean": spec.c in body must be of type integer,string: "boolean"'],
  },
  {
    name: 'enum',
    schema: specSchema({ mode: { type: 'string', enum: ['a', 'b'] }, n: { type: 'integer', enum: [1, 2] } }),
    spec: { mode: 'x', n: 3 },
    want: ['spec.mode: Unsupported value: "x": supported values: "a", "b"', 'spec.n: Unsupported value: 3: supported values: "1", "2"'],
  },
  {
    name: 'maxLength (rune count), minLength, pattern',
    schema: specSchema({ a: { type: 'string', maxLength: 5 }, b: { type: 'string', minLength: 3 }, c: { type: 'string', pattern: '^[a-z]+$' }, d: { type: 'string', maxLength: 2 } }),
    spec: { a: 'abcdefg', b: 'ab', c: 'AB', d: 'éé' },
    want: [
      'spec.a: Too long: may not be longer than 5',
      'spec.b: Invalid value: "ab": spec.b in body should be at least 3 chars long',
      'spec.c: Invalid value: "AB": spec.c in body should match \'^[a-z]+$\'',
    ],
  },
  {
    name: 'minimum, maximum, exclusive bounds and multipleOf',
    schema: specSchema({
      a: { type: 'integer', minimum: 1 },
      b: { type: 'integer', maximum: 10, exclusiveMaximum: true },
      c: { type: 'number', maximum: 1.5 },
      d: { type: 'integer', multipleOf: 3 },
      e: { type: 'integer', minimum: 5, exclusiveMinimum: true },
    }),
    spec: { a: 0, b: 10, c: 2.5, d: 7, e: 5 },
    want: [
      'spec.a: Invalid value: 0: spec.a in body should be greater than or equal to 1',
      'spec.b: Invalid value: 10: spec.b in body should be less than 10',
      'spec.c: Invalid value: 2.5: spec.c in body should be less than or equal to 1.5',
      'spec.d: Invalid value: 7: spec.d in body should be a multiple of 3',
      'spec.e: Invalid value: 5: spec.e in body should be greater than 5',
    ],
  },
  {
    name: 'minItems and maxItems',
    schema: specSchema({ a: { type: 'array', items: { type: 'string' }, maxItems: 3 }, b: { type: 'array', items: { type: 'string' }, minItems: 2 } }),
    spec: { a: ['1', '2', '3', '4'], b: ['1'] },
    want: ['spec.a: Too many: 4: must have at most 3 items', 'spec.b: Invalid value: 1: spec.b in body should have at least 2 items'],
  },
  {
    name: 'minProperties and maxProperties',
    schema: specSchema({ a: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 }, b: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 2 } }),
    spec: { a: { x: '1', y: '2' }, b: { x: '1' } },
    want: ['spec.a: Too many: 2: must have at most 1 items', 'spec.b: Invalid value: 1: spec.b in body should have at least 2 properties'],
  },
  {
    name: 'required, nested in list items, paths with indices',
    schema: specSchema({ list: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } } }, { required: ['list', 'other'] }),
    spec: { list: [{ name: 'a' }, { port: 'x' }] },
    want: ['spec.list[1].port: Invalid value: "string": spec.list[1].port in body must be of type integer: "string"', 'spec.list[1].name: Required value', 'spec.other: Required value'],
  },
  {
    name: 'required at the root',
    schema: { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } },
    spec: undefined,
    want: ['spec: Required value'],
  },
  {
    name: 'additionalProperties values are reported with dotted keys',
    schema: specSchema({ m: { type: 'object', additionalProperties: { type: 'integer' } } }),
    spec: { m: { good: 1, bad: 'x' } },
    want: ['spec.m.bad: Invalid value: "string": spec.m.bad in body must be of type integer: "string"'],
  },
  {
    name: 'formats: uuid, date-time, ipv4, unsupported formats ignored',
    schema: specSchema({
      u: { type: 'string', format: 'uuid' },
      t: { type: 'string', format: 'date-time' },
      ip: { type: 'string', format: 'ipv4' },
      odd: { type: 'string', format: 'not-a-format' },
      okT: { type: 'string', format: 'date-time' },
    }),
    spec: { u: 'nope', t: '2024-13-01T00:00:00Z', ip: '1.2.3', odd: 'anything', okT: '2024-01-02T03:04:05Z' },
    want: [
      'spec.u: Invalid value: "nope": spec.u in body must be of type uuid: "nope"',
      'spec.t: Invalid value: "2024-13-01T00:00:00Z": spec.t in body must be of type date-time: "2024-13-01T00:00:00Z"',
      'spec.ip: Invalid value: "1.2.3": spec.ip in body must be of type ipv4: "1.2.3"',
    ],
  },
  {
    name: 'integer format int32 with a float value reports the format',
    schema: specSchema({ n: { type: 'integer', format: 'int32' } }),
    spec: { n: 1.5 },
    want: ['spec.n: Invalid value: "float64": spec.n in body must be of type int32: "float64"'],
  },
  {
    name: 'anyOf with no match: composite message then the best failure',
    schema: specSchema({ d: { type: 'string', anyOf: [{ maxLength: 5 }, { pattern: '^x' }] } }),
    spec: { d: 'foobarbaz' },
    want: ['Invalid value: "": "spec.d" must validate at least one schema (anyOf)', 'spec.d: Too long: may not be longer than 5'],
  },
  {
    name: 'oneOf with two matches, allOf and not',
    schema: specSchema({
      o: { type: 'integer', oneOf: [{ minimum: 1 }, { maximum: 10 }] },
      a: { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 10 }] },
      n: { type: 'integer', not: { minimum: 1 } },
    }),
    spec: { o: 5, a: 20, n: 2 },
    want: [
      'Invalid value: "": "spec.o" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      'spec.a: Invalid value: 20: spec.a in body should be less than or equal to 10',
      'Invalid value: "": "spec.a" must validate all the schemas (allOf)',
      'Invalid value: "": "spec.n" must not validate the schema (not)',
    ],
  },
  {
    name: 'embedded resource: apiVersion and kind required, metadata validated as ObjectMeta',
    schema: specSchema({ tpl: { type: 'object', [EXT.embeddedResource]: true, [EXT.preserveUnknownFields]: true } }),
    spec: { tpl: { metadata: { name: 'a/b', labels: { 'bad key!': 'v' } } } },
    want: [
      'spec.tpl.apiVersion: Required value',
      'spec.tpl.kind: Required value',
      "spec.tpl.metadata.name: Invalid value: \"a/b\": may not contain '/'",
      "spec.tpl.metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  },
  {
    name: 'nested embedded resource inside a list: kind and apiVersion checks',
    schema: specSchema({
      items: { type: 'array', items: { type: 'object', [EXT.embeddedResource]: true, [EXT.preserveUnknownFields]: true } },
    }),
    spec: { items: [{ apiVersion: 'a/b/c', kind: 'Bad_Kind' }, { apiVersion: 'v1', kind: 'Good' }] },
    want: [
      'spec.items[0].apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.items[0].kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: 'list-type set and map duplicates',
    schema: specSchema({
      tags: { type: 'array', items: { type: 'string' }, [EXT.listType]: 'set' },
      ports: {
        type: 'array',
        [EXT.listType]: 'map',
        [EXT.listMapKeys]: ['port'],
        items: { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } } },
      },
      pairs: {
        type: 'array',
        [EXT.listType]: 'map',
        [EXT.listMapKeys]: ['a', 'b'],
        items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
      },
    }),
    spec: { tags: ['x', 'y', 'x', 'x'], ports: [{ port: 80 }, { port: 80, name: 'h' }], pairs: [{ a: '1', b: '2' }, { a: '1', b: '2' }] },
    want: [
      'spec.tags[2]: Duplicate value: "x"',
      'spec.ports[1]: Duplicate value: map[string]interface {}{"port":80}',
      'spec.pairs[1]: Duplicate value: map[string]interface {}{"a":"1", "b":"2"}',
    ],
  },
  {
    name: 'property names of Object.prototype are not mistaken for present fields',
    schema: specSchema({ constructor: { type: 'string' }, toString: { type: 'string' } }, { required: ['constructor'] }),
    spec: { toString: 5 },
    want: ['spec.toString: Invalid value: "integer": spec.toString in body must be of type string: "integer"', 'spec.constructor: Required value'],
  },
  {
    name: 'embedded resources nested in embedded resources, under a map',
    schema: specSchema({
      byName: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          [EXT.embeddedResource]: true,
          properties: { spec: { type: 'object', properties: { inner: { type: 'object', [EXT.embeddedResource]: true, [EXT.preserveUnknownFields]: true } } } },
        },
      },
    }),
    spec: { byName: { one: { apiVersion: 'v1', kind: 'Outer', spec: { inner: { apiVersion: 'v1', metadata: { namespace: 'Bad' } } } } } },
    want: [
      'spec.byName[one].spec.inner.kind: Required value',
      "spec.byName[one].spec.inner.metadata.namespace: Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: 'preserve-unknown-fields without type: unknown content is not validated',
    schema: specSchema({ free: { [EXT.preserveUnknownFields]: true } }),
    spec: { free: { anything: [1, 'a', null] } },
    want: [],
  },
];

describe('apiextensions/values: validateCustomResourceValue', () => {
  for (const c of cases) {
    it(c.name, () => {
      const obj: Record<string, unknown> = { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' } };
      if (c.spec !== undefined) obj.spec = c.spec;
      expect(validateCustomResourceValue(obj, c.schema).map(fieldErrorString)).to.deep.equal(c.want);
    });
  }

  it('returns the same errors on a second run (compiled schema cached)', () => {
    const schema = specSchema({ replicas: { type: 'integer', maximum: 3 } });
    const obj = { spec: { replicas: 4 } };
    const first = validateCustomResourceValue(obj, schema).map(fieldErrorString);
    expect(validateCustomResourceValue(obj, schema).map(fieldErrorString)).to.deep.equal(first);
    expect(first).to.deep.equal(['spec.replicas: Invalid value: 4: spec.replicas in body should be less than or equal to 3']);
  });
});
