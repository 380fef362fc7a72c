import { expect } from 'chai';
import { FieldPath, fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { validateSchemaDefaults } from '../../../../lib/apiextensions/values/default-checks.js';
import { EXT, type JSONSchemaProps } from '../../../../lib/apiextensions/types.js';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const root = (spec: JSONSchemaProps, extra: Record<string, JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec, ...extra },
});

interface Case {
  name: string;
  schema: JSONSchemaProps;
  want: string[];
}

const cases: Case[] = [
  {
    name: 'valid defaults pass',
    schema: root({ type: 'object', properties: { a: { type: 'integer', default: 1 }, b: { type: 'object', default: { x: 'y' }, properties: { x: { type: 'string' } } } } }),
    want: [],
  },
  {
    name: 'a default of the wrong type is reported under .default; the empty value path leaves a double space',
    schema: root({ type: 'object', properties: { a: { type: 'integer', default: 'one' } } }),
    want: [`${P}.properties[spec].properties[a].default: Invalid value: "string":  in body must be of type integer: "string"`],
  },
  {
    name: 'a default with unknown fields must not have them',
    schema: root({ type: 'object', properties: { b: { type: 'object', default: { x: 'y', z: 1 }, properties: { x: { type: 'string' } } } } }),
    want: [`${P}.properties[spec].properties[b].default: Invalid value: map[string]interface {}{"x":"y", "z":1}: must not have unknown fields`],
  },
  {
    name: 'nested value errors of an object default carry the inner path',
    schema: root({ type: 'object', properties: { b: { type: 'object', default: { x: 'toolong' }, properties: { x: { type: 'string', maxLength: 2 } } } } }),
    want: [`${P}.properties[spec].properties[b].default.x: Too long: may not be longer than 2`],
  },
  {
    name: 'defaults inside items and additionalProperties',
    schema: root({
      type: 'object',
      properties: {
        l: { type: 'array', items: { type: 'string', enum: ['a'], default: 'b' } },
        m: { type: 'object', additionalProperties: { type: 'integer', minimum: 1, default: 0 } },
      },
    }),
    want: [
      `${P}.properties[spec].properties[l].items.default: Unsupported value: "b": supported values: "a"`,
      `${P}.properties[spec].properties[m].additionalProperties.default: Invalid value: 0:  in body should be greater than or equal to 1`,
    ],
  },
  {
    name: 'metadata.name default must result in valid metadata',
    schema: root({ type: 'object' }, { metadata: { type: 'object', properties: { name: { type: 'string', default: 'a/b' } } } }),
    want: [`${P}.properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`],
  },
  {
    name: 'metadata.name default of the wrong type cannot be decoded',
    schema: root({ type: 'object' }, { metadata: { type: 'object', properties: { name: { type: 'string', default: 5 } } } }),
    want: [
      `${P}.properties[metadata].properties[name].default: Invalid value: 5: must result in valid metadata: metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
    ],
  },
  {
    name: 'a valid metadata.generateName default passes',
    schema: root({ type: 'object' }, { metadata: { type: 'object', properties: { generateName: { type: 'string', default: 'gen-' } } } }),
    want: [],
  },
  {
    name: 'an embedded resource default must carry apiVersion and kind',
    schema: root({
      type: 'object',
      properties: {
        tpl: { type: 'object', [EXT.embeddedResource]: true, [EXT.preserveUnknownFields]: true, default: { metadata: { name: 'x' } } },
      },
    }),
    want: [`${P}.properties[spec].properties[tpl].default.apiVersion: Required value`, `${P}.properties[spec].properties[tpl].default.kind: Required value`],
  },
  {
    name: 'a kind default inside a nested embedded resource is checked in a surrounding object',
    schema: root({
      type: 'object',
      properties: {
        tpl: {
          type: 'object',
          [EXT.embeddedResource]: true,
          properties: { kind: { type: 'string', default: 'Bad_Kind' }, apiVersion: { type: 'string' } },
        },
      },
    }),
    want: [
      `${P}.properties[spec].properties[tpl].properties[kind].default: Invalid value: "Bad_Kind": must result in valid metadata: kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
];

describe('apiextensions/values: validateSchemaDefaults', () => {
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateSchemaDefaults(c.schema, FieldPath.of('spec', 'versions').index(0).child('schema', 'openAPIV3Schema'), { isResourceRoot: true });
      expect(errs.map(fieldErrorString)).to.deep.equal(c.want);
    });
  }
});
