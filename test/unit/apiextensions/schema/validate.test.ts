import { expect } from 'chai';
import { FieldPath, fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { isStructuralSchema, validateCustomResourceSchema } from '../../../../lib/apiextensions/schema/index.js';
import { EXT, type JSONSchemaProps } from '../../../../lib/apiextensions/types.js';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const ROOT = FieldPath.of('spec').child('versions').index(0).child('schema', 'openAPIV3Schema');
const LT = EXT.listType;
const LMK = EXT.listMapKeys;
const MT = EXT.mapType;
const PUF = EXT.preserveUnknownFields;
const ER = EXT.embeddedResource;
const IOS = EXT.intOrString;

const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });
const root = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => obj(properties, extra);
const mapList = (items: JSONSchemaProps, keys: string[] = ['name']): JSONSchemaProps => ({ type: 'array', [LT]: 'map', [LMK]: keys, items });

interface Case {
  name: string;
  schema: JSONSchemaProps;
  status?: boolean;
  want: string[];
}

const valid: Case[] = [
  { name: 'a bare object root', schema: { type: 'object' }, want: [] },
  {
    name: 'deep nesting of objects, arrays and maps',
    schema: root({
      spec: obj({
        template: obj({
          spec: obj({
            containers: {
              type: 'array',
              items: obj({ name: { type: 'string' }, ports: { type: 'array', items: obj({ port: { type: 'integer', format: 'int32', minimum: 1 } }) } }),
            },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
          }),
        }),
      }),
    }),
    want: [],
  },
  { name: 'int-or-string with the anyOf pattern', schema: root({ port: { [IOS]: true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }), want: [] },
  {
    name: 'int-or-string with the allOf pattern',
    schema: root({ port: { [IOS]: true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+%?$' }] } }),
    want: [],
  },
  { name: 'int-or-string alone', schema: root({ port: { [IOS]: true } }), want: [] },
  { name: 'an embedded resource preserving unknown fields', schema: root({ obj: { type: 'object', [ER]: true, [PUF]: true } }), want: [] },
  {
    name: 'an embedded resource with metadata restricted beyond name',
    schema: root({ obj: { type: 'object', [ER]: true, properties: { metadata: obj({ labels: { type: 'object', additionalProperties: { type: 'string' } } }), spec: { type: 'object', [PUF]: true } } } }),
    want: [],
  },
  {
    name: 'a map-keyed list with required and defaulted keys',
    schema: root({ ports: mapList(obj({ name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } }, { required: ['name'] }), ['name', 'protocol']) }),
    want: [],
  },
  { name: 'a set of strings', schema: root({ tags: { type: 'array', [LT]: 'set', items: { type: 'string' } } }), want: [] },
  { name: 'a set of atomic objects', schema: root({ refs: { type: 'array', [LT]: 'set', items: obj({ a: { type: 'string' } }, { [MT]: 'atomic' }) } }), want: [] },
  { name: 'root metadata restricting name and generateName', schema: root({ metadata: obj({ name: { type: 'string', maxLength: 20 }, generateName: { type: 'string' } }) }), want: [] },
  {
    name: 'the status subresource with description, required and rules at the root',
    schema: root({ spec: { type: 'object' }, status: { type: 'object' } }, { description: 'd', required: ['spec'], [EXT.validations]: [{ rule: 'true' }] }),
    status: true,
    want: [],
  },
  { name: 'value validation in junctors', schema: root({ s: { type: 'string', anyOf: [{ maxLength: 3 }, { pattern: '^a' }], not: { enum: ['x'] } } }), want: [] },
  {
    name: 'junctor properties below the root missing from the structure (upstream checks completeness at the root only)',
    schema: root({ a: obj({ y: { type: 'string' } }, { anyOf: [{ properties: { x: { maxLength: 1 } } }] }) }),
    want: [],
  },
  { name: 'root metadata with members upstream drops (unknown keys, an empty enum)', schema: root({ metadata: { type: 'object', 'x-unknown': 1, enum: [], example: {} } }), want: [] },
  { name: 'a preserve-unknown-fields node without a type', schema: root({ any: { [PUF]: true } }), want: [] },
  { name: 'defaults below the root', schema: root({ spec: obj({ replicas: { type: 'integer', default: 1 } }, { default: {} }) }), want: [] },
];

const invalid: Case[] = [
  {
    name: 'uniqueItems',
    schema: root({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
    want: [`${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`],
  },
  {
    name: 'properties with additionalProperties',
    schema: root({ a: obj({ x: { type: 'string' } }, { additionalProperties: { type: 'string' } }) }),
    want: [`${P}.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`],
  },
  {
    name: 'properties with additionalProperties: false',
    schema: root({ a: obj({ x: { type: 'string' } }, { additionalProperties: false }) }),
    want: [`${P}.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`],
  },
  {
    name: 'items given as an array',
    schema: root({ a: { type: 'array', items: [{ type: 'string' }] } }),
    want: [`${P}.properties[a].items: Forbidden: items must be a schema object and not an array`],
  },
  { name: '$ref', schema: root({ a: { $ref: '#/definitions/x' } }), want: [`${P}.properties[a].$ref: Forbidden: $ref is not supported`] },
  { name: 'id', schema: root({ a: { type: 'string', id: 'x' } }), want: [`${P}.properties[a].id: Forbidden: id is not supported`] },
  {
    name: 'patternProperties, definitions, dependencies, additionalItems',
    schema: root({ a: { type: 'object', patternProperties: { '^x': { type: 'string' } }, definitions: { d: { type: 'string' } }, dependencies: { x: ['y'] }, additionalItems: false } }),
    want: [
      `${P}.properties[a].additionalItems: Forbidden: additionalItems is not supported`,
      `${P}.properties[a].patternProperties: Forbidden: patternProperties is not supported`,
      `${P}.properties[a].definitions: Forbidden: definitions is not supported`,
      `${P}.properties[a].dependencies: Forbidden: dependencies is not supported`,
    ],
  },
  {
    name: 'an unknown type and type null',
    schema: root({ a: { type: 'int' }, b: { type: 'null' } }),
    want: [
      `${P}.properties[a].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${P}.properties[b].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${P}.properties[b].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ],
  },
  { name: 'preserve-unknown-fields false', schema: root({}, { [PUF]: false }), want: [`${P}.${PUF}: Invalid value: false: must be true or undefined`] },
  {
    name: 'an embedded resource without a type',
    schema: root({ a: { [ER]: true, [PUF]: true } }),
    want: [`${P}.properties[a].type: Required value: must be object if ${ER} is true`],
  },
  {
    name: 'an embedded resource of type string',
    schema: root({ a: { type: 'string', [ER]: true, [PUF]: true } }),
    want: [`${P}.properties[a].type: Invalid value: "string": must be object if ${ER} is true`],
  },
  {
    name: 'an embedded resource without properties or preserve-unknown-fields',
    schema: root({ a: { type: 'object', [ER]: true } }),
    want: [`${P}.properties[a].properties: Required value: must not be empty if ${ER} is true without ${PUF}`],
  },
  {
    name: 'an embedded resource with additionalProperties',
    schema: root({ a: { type: 'object', [ER]: true, [PUF]: true, additionalProperties: { type: 'string' } } }),
    want: [`${P}.properties[a].additionalProperties: Forbidden: must not be used if ${ER} is set`],
  },
  {
    name: 'int-or-string with preserve-unknown-fields and embedded-resource',
    schema: root({ a: { [IOS]: true, [PUF]: true, [ER]: true, type: 'object' } }),
    want: [
      `${P}.properties[a].${ER}: Invalid value: true: must be false if ${IOS} is true`,
      `${P}.properties[a].${PUF}: Invalid value: true: must be false if ${IOS} is true`,
    ],
  },
  {
    name: 'typed anyOf that is not the int-or-string pattern',
    schema: root({ a: { [IOS]: true, anyOf: [{ type: 'integer' }, { type: 'boolean' }] } }),
    want: [`${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`, `${P}.properties[a].anyOf[1].type: Forbidden: must be empty to be structural`],
  },
  {
    name: 'generic and extension members inside a junctor',
    schema: root({ a: { type: 'string', allOf: [{ type: 'string', description: 'd', nullable: true, default: 'x', title: 't', [PUF]: true, [EXT.validations]: [{ rule: 'true' }] }] } }),
    want: [
      `${P}.properties[a].allOf[0].default: Forbidden: must be undefined to be structural`,
      `${P}.properties[a].allOf[0].description: Forbidden: must be empty to be structural`,
      `${P}.properties[a].allOf[0].nullable: Forbidden: must be false to be structural`,
      `${P}.properties[a].allOf[0].title: Forbidden: must be empty to be structural`,
      `${P}.properties[a].allOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[a].allOf[0].${PUF}: Forbidden: must be false to be structural`,
      `${P}.properties[a].allOf[0].${EXT.validations}: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'additionalProperties and list markers inside a junctor',
    schema: root({ a: { type: 'object', oneOf: [{ additionalProperties: { type: 'string' }, [LT]: 'atomic', [MT]: 'atomic', [LMK]: ['k'] }] } }),
    want: [
      `${P}.properties[a].oneOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
      `${P}.properties[a].oneOf[0].${LMK}: Forbidden: must be empty to be structural`,
      `${P}.properties[a].oneOf[0].${LT}: Forbidden: must be undefined to be structural`,
      `${P}.properties[a].oneOf[0].${MT}: Forbidden: must be undefined to be structural`,
      `${P}.properties[a].oneOf[0].type: Required value: must be object if ${MT} is specified`,
      `${P}.properties[a].oneOf[0].type: Required value: must be array if ${LT} is specified`,
      `${P}.properties[a].oneOf[0].${LT}: Invalid value: "atomic": must be map if ${LMK} is non-empty`,
    ],
  },
  {
    name: 'metadata in a junctor (and so missing from the structure)',
    schema: root({}, { anyOf: [{ properties: { metadata: { maxProperties: 1 } } }] }),
    want: [
      `${P}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.properties[metadata]: Required value: because it is defined in ${P}.anyOf[0].properties[metadata]`,
    ],
  },
  {
    name: 'a junctor property missing from the structure',
    schema: root({ y: { type: 'string' } }, { anyOf: [{ properties: { x: { maxLength: 1 } } }] }),
    want: [`${P}.properties[x]: Required value: because it is defined in ${P}.anyOf[0].properties[x]`],
  },
  {
    name: 'junctor items missing from the structure',
    schema: root({ a: { type: 'string' } }, { not: { items: { maxLength: 1 } } }),
    want: [`${P}.items: Required value: because it is defined in ${P}.not.items`],
  },
  { name: 'a root that is not an object', schema: { type: 'array', items: { type: 'string' } }, want: [`${P}.type: Invalid value: "array": must be object at the root`] },
  { name: 'a root without type', schema: { properties: { a: { type: 'string' } } }, want: [`${P}.type: Required value: must not be empty at the root`] },
  { name: 'a field without type', schema: root({ spec: { properties: { a: { type: 'string' } } } }), want: [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`] },
  { name: 'array items without type', schema: root({ a: { type: 'array', items: { maxLength: 1 } } }), want: [`${P}.properties[a].items.type: Required value: must not be empty for specified array items`] },
  { name: 'an array without items', schema: root({ a: { type: 'array' } }), want: [`${P}.properties[a].items: Required value: must be specified`] },
  { name: 'additionalProperties at the root', schema: { type: 'object', additionalProperties: { type: 'string' } }, want: [`${P}.additionalProperties: Forbidden: must not be used at the root`] },
  {
    name: 'a pattern that does not compile',
    schema: root({ a: { type: 'string', pattern: '(abc' } }),
    want: [`${P}.properties[a].pattern: Invalid value: "(abc": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(abc\``],
  },
  {
    name: 'lookahead and backreferences, which RE2 refuses',
    schema: root({ a: { type: 'string', pattern: 'a(?=b)' }, b: { type: 'string', pattern: '(a)\\1' }, c: { type: 'string', pattern: '[(?=]\\d' } }),
    want: [
      `${P}.properties[a].pattern: Invalid value: "a(?=b)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
      `${P}.properties[b].pattern: Invalid value: "(a)\\\\1": must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: \`\\1\``,
    ],
  },
  {
    name: 'root metadata restricting labels',
    schema: root({ metadata: obj({ name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } }) }),
    want: [`${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`],
  },
  {
    name: 'root metadata with a description',
    schema: root({ metadata: { type: 'object', description: 'x' } }),
    want: [`${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`],
  },
  { name: 'root metadata of type string', schema: root({ metadata: { type: 'string' } }), want: [`${P}.properties[metadata].type: Invalid value: "string": must be object`] },
  {
    name: 'kind and apiVersion not strings at the root',
    schema: root({ kind: { type: 'integer' }, apiVersion: { type: 'object' } }),
    want: [`${P}.properties[apiVersion].type: Invalid value: "object": must be string`, `${P}.properties[kind].type: Invalid value: "integer": must be string`],
  },
  {
    name: 'kind not a string in an embedded resource',
    schema: root({ e: { type: 'object', [ER]: true, properties: { kind: { type: 'integer' } } } }),
    want: [`${P}.properties[e].properties[kind].type: Invalid value: "integer": must be string`],
  },
  {
    name: 'defaults in top-level metadata and kind',
    schema: root({ metadata: { type: 'object', default: {} }, kind: { type: 'string', default: 'K' } }),
    want: [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`, `${P}.properties[kind].default: Forbidden: must not be set in top-level kind`],
  },
  {
    name: 'a default inside additionalProperties of embedded metadata',
    schema: root({ e: { type: 'object', [ER]: true, properties: { metadata: obj({ annotations: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } }) } } }),
    want: [`${P}.properties[e].properties[metadata].properties[annotations].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`],
  },
  {
    name: 'an embedded resource inside resource metadata',
    schema: root({ e: { type: 'object', [ER]: true, properties: { metadata: obj({ x: { type: 'object', [ER]: true, [PUF]: true } }) } } }),
    want: [`${P}.properties[e].properties[metadata].properties[x].${ER}: Forbidden: must not be used inside of resource meta`],
  },
  { name: 'nullable at the root', schema: { type: 'object', nullable: true }, want: [`${P}.nullable: Forbidden: nullable cannot be true at the root`] },
  {
    name: 'a set of granular objects',
    schema: root({ a: { type: 'array', [LT]: 'set', items: obj({ x: { type: 'string' } }) } }),
    want: [`${P}.properties[a].items.${MT}: Invalid value: "null": must be atomic as item of a list with ${LT}=set`],
  },
  {
    name: 'a set of sets',
    schema: root({ a: { type: 'array', [LT]: 'set', items: { type: 'array', [LT]: 'set', items: { type: 'string' } } } }),
    want: [`${P}.properties[a].items.${LT}: Invalid value: "set": must be atomic as item of a list with ${LT}=set`],
  },
  { name: 'list-type on a string', schema: root({ a: { type: 'string', [LT]: 'atomic' } }), want: [`${P}.properties[a].type: Invalid value: "string": must be array if ${LT} is specified`] },
  {
    name: 'an unknown list-type',
    schema: root({ a: { type: 'array', [LT]: 'bag', items: { type: 'string' } } }),
    want: [`${P}.properties[a].${LT}: Unsupported value: "bag": supported values: "atomic", "set", "map"`],
  },
  {
    name: 'list-map-keys without list-type',
    schema: root({ a: { type: 'array', [LMK]: ['name'], items: obj({ name: { type: 'string' } }, { required: ['name'] }) } }),
    want: [`${P}.properties[a].${LT}: Required value: must be map if ${LMK} is non-empty`],
  },
  {
    name: 'list-map-keys on a set',
    schema: root({ a: { type: 'array', [LT]: 'set', [LMK]: ['name'], items: { type: 'string' } } }),
    want: [`${P}.properties[a].${LT}: Invalid value: "set": must be map if ${LMK} is non-empty`],
  },
  {
    name: 'a map list without keys',
    schema: root({ a: { type: 'array', [LT]: 'map', items: obj({ name: { type: 'string' } }) } }),
    want: [`${P}.properties[a].${LMK}: Required value: must not be empty if ${LT} is map`],
  },
  {
    name: 'a map list whose key is not an item property, and duplicated',
    schema: root({ a: mapList(obj({ name: { type: 'string' } }, { required: ['name'] }), ['id', 'id']) }),
    want: [
      `${P}.properties[a].${LMK}: Invalid value: []string{"id", "id"}: entries must all be names of item properties`,
      `${P}.properties[a].${LMK}: Invalid value: []string{"id", "id"}: entries must all be names of item properties`,
      `${P}.properties[a].${LMK}: Invalid value: []string{"id", "id"}: must not contain duplicate entries`,
    ],
  },
  {
    name: 'a map list key neither required nor defaulted, and nullable',
    schema: root({ a: mapList(obj({ name: { type: 'string', nullable: true } })) }),
    want: [
      `${P}.properties[a].items.properties[name].default: Required value: this property is in ${LMK}, so it must have a default or be a required property`,
      `${P}.properties[a].items.properties[name].nullable: Forbidden: this property is in ${LMK}, so it cannot be nullable`,
    ],
  },
  {
    name: 'a map list key that is an object',
    schema: root({ a: mapList(obj({ name: { type: 'object' } }, { required: ['name'] })) }),
    want: [`${P}.properties[a].items.properties[name].type: Invalid value: "object": must be a scalar type if parent array's ${LT} is map`],
  },
  {
    name: 'a map list of strings',
    schema: root({ a: { type: 'array', [LT]: 'map', [LMK]: ['name'], items: { type: 'string' } } }),
    want: [`${P}.properties[a].items.type: Invalid value: "string": must be object if parent array's ${LT} is map`],
  },
  {
    name: 'nullable items of a map list',
    schema: root({ a: mapList(obj({ name: { type: 'string' } }, { required: ['name'], nullable: true })) }),
    want: [`${P}.properties[a].items.nullable: Forbidden: cannot be nullable when ${LT} is map`],
  },
  {
    name: 'map-type on a string and an unknown map-type',
    schema: root({ a: { type: 'string', [MT]: 'atomic' }, b: { type: 'object', [MT]: 'deep' } }),
    want: [
      `${P}.properties[a].type: Invalid value: "string": must be object if ${MT} is specified`,
      `${P}.properties[b].${MT}: Unsupported value: "deep": supported values: "atomic", "granular"`,
    ],
  },
  {
    name: 'a schema that does not convert, with no other error',
    schema: root({ a: { type: 'string', $schema: 'http://json-schema.org/draft-04/schema#' } }),
    want: [`${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`],
  },
  {
    name: 'the status subresource with a root that is not an object',
    schema: { type: 'array', items: { type: 'string' } },
    status: true,
    want: [
      `${P}.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
      `${P}.type: Invalid value: "array": must be object at the root`,
    ],
  },
  {
    name: 'root errors before structural errors before OpenAPI errors',
    schema: { type: 'object', nullable: true, properties: { b: { type: 'array', items: { type: 'string' }, uniqueItems: true }, a: {} } },
    want: [
      `${P}.nullable: Forbidden: nullable cannot be true at the root`,
      `${P}.properties[a].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[b].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ],
  },
];

const upstreamTable: Case[] = [
  {
    name: 'structural incomplete',
    schema: {
      type: 'object',
      properties: { b: obj({ b: { type: 'array' } }), c: { type: 'array', items: { type: 'object' } }, d: { type: 'array' } },
      not: { properties: { a: {}, b: { not: { properties: { a: {}, b: { items: {} } } } }, c: { items: { not: { items: { properties: { a: {} } } } } }, d: { items: {} } } },
      allOf: [{ properties: { e: {} } }],
      anyOf: [{ properties: { f: {} } }],
      oneOf: [{ properties: { g: {} } }],
    },
    want: [
      `${P}.properties[a]: Required value: because it is defined in ${P}.not.properties[a]`,
      `${P}.properties[b].properties[a]: Required value: because it is defined in ${P}.not.properties[b].not.properties[a]`,
      `${P}.properties[b].properties[b].items: Required value: because it is defined in ${P}.not.properties[b].not.properties[b].items`,
      `${P}.properties[b].properties[b].items: Required value: must be specified`,
      `${P}.properties[c].items.items: Required value: because it is defined in ${P}.not.properties[c].items.not.items`,
      `${P}.properties[d].items: Required value: because it is defined in ${P}.not.properties[d].items`,
      `${P}.properties[d].items: Required value: must be specified`,
      `${P}.properties[e]: Required value: because it is defined in ${P}.allOf[0].properties[e]`,
      `${P}.properties[f]: Required value: because it is defined in ${P}.anyOf[0].properties[f]`,
      `${P}.properties[g]: Required value: because it is defined in ${P}.oneOf[0].properties[g]`,
    ],
  },
  {
    name: 'missing types without extensions',
    schema: {
      properties: {
        foo: { properties: { a: {} } },
        bar: { items: { additionalProperties: { properties: { a: {} }, items: {} } } },
        abc: { additionalProperties: { properties: { a: { items: { additionalProperties: {} } } } } },
      },
    },
    want: [
      `${P}.properties[abc].additionalProperties.properties[a].items.additionalProperties.type: Required value: must not be empty for specified object fields`,
      `${P}.properties[abc].additionalProperties.properties[a].items.type: Required value: must not be empty for specified array items`,
      `${P}.properties[abc].additionalProperties.properties[a].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[abc].additionalProperties.type: Required value: must not be empty for specified object fields`,
      `${P}.properties[abc].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[bar].items.additionalProperties.items.type: Required value: must not be empty for specified array items`,
      `${P}.properties[bar].items.additionalProperties.properties[a].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[bar].items.additionalProperties.type: Required value: must not be empty for specified object fields`,
      `${P}.properties[bar].items.type: Required value: must not be empty for specified array items`,
      `${P}.properties[bar].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[foo].properties[a].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[foo].type: Required value: must not be empty for specified object fields`,
      `${P}.type: Required value: must not be empty at the root`,
    ],
  },
  {
    name: 'int-or-string variants',
    schema: root({
      a: { [IOS]: true },
      b: { [IOS]: true, anyOf: [{ type: 'integer' }, { type: 'string' }], allOf: [{ pattern: 'abc' }] },
      c: { [IOS]: true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: 'abc' }, { pattern: 'abc' }] },
      d: { [IOS]: true, anyOf: [{ type: 'integer' }, { type: 'string', pattern: 'abc' }] },
      e: { [IOS]: true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string', pattern: 'abc' }] }, { pattern: 'abc' }] },
      f: { [IOS]: true, anyOf: [{ type: 'integer' }, { type: 'string' }, { pattern: 'abc' }] },
      g: { [IOS]: true, anyOf: [{ type: 'string' }, { type: 'integer' }] },
    }),
    want: [
      `${P}.properties[d].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[d].anyOf[1].type: Forbidden: must be empty to be structural`,
      `${P}.properties[e].allOf[0].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[e].allOf[0].anyOf[1].type: Forbidden: must be empty to be structural`,
      `${P}.properties[f].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[f].anyOf[1].type: Forbidden: must be empty to be structural`,
      `${P}.properties[g].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[g].anyOf[1].type: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'metadata with non-properties',
    schema: root({ metadata: { minimum: 42 } }),
    want: [
      `${P}.properties[metadata].type: Invalid value: "": must be object`,
      `${P}.properties[metadata].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  },
  {
    name: 'metadata under junctors',
    schema: root({ metadata: obj({ name: { type: 'string', pattern: '^[a-z]+$' } }) }, {
      allOf: [{ properties: { metadata: {} } }],
      anyOf: [{ properties: { metadata: {} } }],
      oneOf: [{ properties: { metadata: {} } }],
      not: { properties: { metadata: {} } },
    }),
    want: [
      `${P}.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.not.properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.oneOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
    ],
  },
  {
    name: 'forbidden additionalProperties at the root',
    schema: { type: 'object', additionalProperties: false },
    want: [`${P}.additionalProperties: Forbidden: must not be used at the root`],
  },
  {
    name: 'items slice in value validation',
    schema: root({ slice: { type: 'array', items: { type: 'string' }, not: { items: [{ type: 'string' }] } } }),
    want: [`${P}.properties[slice].not.items: Forbidden: items must be a schema object and not an array`],
  },
  {
    name: 'an invalid pattern',
    schema: root({ foo: { type: 'string', pattern: '+' } }),
    want: [`${P}.properties[foo].pattern: Invalid value: "+": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: \`+\``],
  },
];

describe('apiextensions/schema validateCustomResourceSchema (upstream apiextensions validation, ValidateStructural v1.30)', () => {
  for (const c of valid) {
    it(`accepts ${c.name}`, () => {
      const errs = validateCustomResourceSchema(c.schema, ROOT, { statusEnabled: c.status ?? false });
      expect(errs.map(fieldErrorString)).to.deep.equal([]);
      expect(isStructuralSchema(c.schema)).to.equal(true);
    });
  }
  for (const c of invalid) {
    it(`refuses ${c.name}`, () => {
      const errs = validateCustomResourceSchema(c.schema, ROOT, { statusEnabled: c.status ?? false });
      expect(errs.map(fieldErrorString)).to.deep.equal(c.want);
    });
  }

  for (const c of upstreamTable) {
    it(`reports upstream's violations for ${c.name}`, () => {
      const errs = validateCustomResourceSchema(c.schema, ROOT, { statusEnabled: c.status ?? false });
      expect(errs.map(fieldErrorString)).to.deep.equal(c.want);
    });
  }

  it('prints the whole root schema, in Go syntax, when the status subresource forbids a root member', () => {
    const errs = validateCustomResourceSchema({ type: 'object', minProperties: 1, properties: { spec: { type: 'object' } } }, ROOT, { statusEnabled: true }).map(fieldErrorString);
    expect(errs).to.have.length(1);
    expect(errs[0]).to.match(/^spec\.versions\[0\]\.schema\.openAPIV3Schema: Invalid value: apiextensions\.JSONSchemaProps\{ID:"", Schema:"", Ref:\(\*string\)\(nil\), Description:"", Type:"object", Nullable:false, /);
    expect(errs[0]).to.contain('MinProperties:(*int64)(0xc000000000)');
    expect(errs[0]).to.contain('Properties:map[string]apiextensions.JSONSchemaProps{"spec":apiextensions.JSONSchemaProps{ID:""');
    expect(errs[0]).to.match(
      /: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
    );
  });

  it('allows the same members without the status subresource', () => {
    expect(validateCustomResourceSchema({ type: 'object', minProperties: 1 }, ROOT, { statusEnabled: false })).to.deep.equal([]);
  });

  it('reports a map list whose items are an array with the Go rendering of items', () => {
    const errs = validateCustomResourceSchema(root({ a: { type: 'array', [LT]: 'map', [LMK]: ['n'], items: [{ type: 'object' }] } }), ROOT, { statusEnabled: false }).map(fieldErrorString);
    expect(errs).to.deep.equal([
      `${P}.properties[a].items: Forbidden: items must be a schema object and not an array`,
      `${P}.properties[a].items: Invalid value: apiextensions.JSONSchemaPropsOrArray{Schema:(*apiextensions.JSONSchemaProps)(nil), JSONSchemas:[]apiextensions.JSONSchemaProps{${goEmptyObject()}}}: must only have a single schema if ${LT} is map`,
    ]);
  });

  it('reports non-structural schemas through isStructuralSchema', () => {
    expect(isStructuralSchema(root({ a: { type: 'array' } }))).to.equal(false);
    expect(isStructuralSchema(root({ a: { $ref: '#/x' } }))).to.equal(false);
  });

  it('never throws on malformed members', () => {
    const junk = { type: 5, properties: [1], items: 'x', allOf: {}, anyOf: [null, 3], [LMK]: 'k', [LT]: 'map', required: 'a', additionalProperties: 'y' } as unknown as JSONSchemaProps;
    expect(() => validateCustomResourceSchema(junk, ROOT, { statusEnabled: true })).not.to.throw();
    expect(() => validateCustomResourceSchema(null as unknown as JSONSchemaProps, ROOT, { statusEnabled: false })).not.to.throw();
  });
});

function goEmptyObject(): string {
  const fields = [
    'ID:""', 'Schema:""', 'Ref:(*string)(nil)', 'Description:""', 'Type:"object"', 'Nullable:false', 'Format:""', 'Title:""',
    'Default:(*apiextensions.JSON)(nil)', 'Maximum:(*float64)(nil)', 'ExclusiveMaximum:false', 'Minimum:(*float64)(nil)',
    'ExclusiveMinimum:false', 'MaxLength:(*int64)(nil)', 'MinLength:(*int64)(nil)', 'Pattern:""', 'MaxItems:(*int64)(nil)',
    'MinItems:(*int64)(nil)', 'UniqueItems:false', 'MultipleOf:(*float64)(nil)', 'Enum:[]apiextensions.JSON(nil)',
    'MaxProperties:(*int64)(nil)', 'MinProperties:(*int64)(nil)', 'Required:[]string(nil)', 'Items:(*apiextensions.JSONSchemaPropsOrArray)(nil)',
    'AllOf:[]apiextensions.JSONSchemaProps(nil)', 'OneOf:[]apiextensions.JSONSchemaProps(nil)', 'AnyOf:[]apiextensions.JSONSchemaProps(nil)',
    'Not:(*apiextensions.JSONSchemaProps)(nil)', 'Properties:map[string]apiextensions.JSONSchemaProps(nil)',
    'AdditionalProperties:(*apiextensions.JSONSchemaPropsOrBool)(nil)', 'PatternProperties:map[string]apiextensions.JSONSchemaProps(nil)',
    'Dependencies:apiextensions.JSONSchemaDependencies(nil)', 'AdditionalItems:(*apiextensions.JSONSchemaPropsOrBool)(nil)',
    'Definitions:apiextensions.JSONSchemaDefinitions(nil)', 'ExternalDocs:(*apiextensions.ExternalDocumentation)(nil)',
    'Example:(*apiextensions.JSON)(nil)', 'XPreserveUnknownFields:(*bool)(nil)', 'XEmbeddedResource:false', 'XIntOrString:false',
    'XListMapKeys:[]string(nil)', 'XListType:(*string)(nil)', 'XMapType:(*string)(nil)', 'XValidations:apiextensions.ValidationRules(nil)',
  ];
  return `apiextensions.JSONSchemaProps{${fields.join(', ')}}`;
}
