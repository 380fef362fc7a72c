import { expect } from 'chai';
import { FieldPath, fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { validateSchemaRules } from '../../../../lib/apiextensions/cel/index.js';
import { EXT, type JSONSchemaProps, type ValidationRule } from '../../../../lib/apiextensions/types.js';

const V = EXT.validations;
const ROOT = FieldPath.of('spec', 'validation', 'openAPIV3Schema');
const R = 'spec.validation.openAPIV3Schema';
const HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
const NIL_RULE = (rule: string, extra = ''): string =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:${extra || '""'}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;

function obj(properties: Record<string, JSONSchemaProps>, rules?: ValidationRule[], extra: JSONSchemaProps = {}): JSONSchemaProps {
  return { type: 'object', properties, ...(rules ? { [V]: rules } : {}), ...extra };
}
const int: JSONSchemaProps = { type: 'integer' };

const cases: Array<{ name: string; schema: JSONSchemaProps; want: string[] }> = [
  { name: 'a valid rule passes', schema: obj({ a: int }, [{ rule: 'self.a > 1' }]), want: [] },
  {
    name: 'blank rule is required',
    schema: obj({ a: int }, [{ rule: '  ' }]),
    want: [`${R}.${V}[0].rule: Required value: rule is not specified`],
  },
  {
    name: 'blank message',
    schema: obj({ a: int }, [{ rule: 'true', message: ' ' }]),
    want: [`${R}.${V}[0].message: Invalid value: " ": message must be non-empty if specified`],
  },
  {
    name: 'message with a line break',
    schema: obj({ a: int }, [{ rule: 'true', message: 'a\nb' }]),
    want: [`${R}.${V}[0].message: Invalid value: "a\\nb": message must not contain line breaks`],
  },
  {
    name: 'multi-line rule without message',
    schema: obj({ a: int }, [{ rule: 'true &&\ntrue' }]),
    want: [`${R}.${V}[0].message: Required value: message must be specified if rule contains line breaks`],
  },
  { name: 'multi-line rule with a message passes', schema: obj({ a: int }, [{ rule: 'true &&\ntrue', message: 'm' }]), want: [] },
  {
    name: 'blank messageExpression',
    schema: obj({ a: int }, [{ rule: 'true', messageExpression: '  ' }]),
    want: [`${R}.${V}[0].messageExpression: Required value: messageExpression must be non-empty if specified`],
  },
  {
    name: 'unsupported reason',
    schema: obj({ a: int }, [{ rule: 'true', reason: 'FieldValueBad' }]),
    want: [`${R}.${V}[0].reason: Unsupported value: "FieldValueBad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`],
  },
  { name: 'supported reason passes', schema: obj({ a: int }, [{ rule: 'true', reason: 'FieldValueForbidden' }]), want: [] },
  {
    name: 'blank fieldPath',
    schema: obj({ a: int }, [{ rule: 'true', fieldPath: ' ' }]),
    want: [`${R}.${V}[0].fieldPath: Invalid value: " ": fieldPath must be non-empty if specified`, `${R}.${V}[0].fieldPath: Invalid value: " ": fieldPath must be a valid path`],
  },
  {
    name: 'fieldPath with a line break',
    schema: obj({ a: int }, [{ rule: 'true', fieldPath: '.a\n' }]),
    want: [`${R}.${V}[0].fieldPath: Invalid value: ".a\\n": fieldPath must not contain line breaks`, `${R}.${V}[0].fieldPath: Invalid value: ".a\\n": fieldPath must be a valid path`],
  },
  {
    name: 'fieldPath to a missing field',
    schema: obj({ a: int }, [{ rule: 'true', fieldPath: '.b' }]),
    want: [`${R}.${V}[0].fieldPath: Invalid value: ".b": fieldPath must be a valid path`],
  },
  {
    name: 'fieldPath with a list index',
    schema: obj({ l: { type: 'array', items: obj({ a: int }) } }, [{ rule: 'true', fieldPath: '.l[0]' }]),
    want: [`${R}.${V}[0].fieldPath: Invalid value: ".l[0]": fieldPath must be a valid path`],
  },
  { name: 'fieldPath through a map and a quoted name passes', schema: obj({ m: { type: 'object', additionalProperties: obj({ 'a.b': int }) } }, [{ rule: 'true', fieldPath: ".m.key['a.b']" }]), want: [] },
  {
    name: 'compile error shows the rule struct and the caret',
    schema: obj({ a: int }, [{ rule: 'self.b > 1' }]),
    want: [`${R}.${V}[0].rule: Invalid value: ${NIL_RULE('self.b > 1')}: compilation failed: ERROR: <input>:1:6: undefined field 'b'\n | self.b > 1\n | .....^`],
  },
  {
    name: 'rule that is not boolean',
    schema: obj({ a: int }, [{ rule: 'self.a' }]),
    want: [`${R}.${V}[0].rule: Invalid value: ${NIL_RULE('self.a')}: cel expression must evaluate to a bool`],
  },
  {
    name: 'messageExpression that does not compile',
    schema: obj({ a: int }, [{ rule: 'self.a > 1', messageExpression: 'self.b' }]),
    want: [`${R}.${V}[0].messageExpression: Invalid value: ${NIL_RULE('self.a > 1', '"self.b"')}: messageExpression compilation failed: ERROR: <input>:1:6: undefined field 'b'\n | self.b\n | .....^`],
  },
  {
    name: 'messageExpression that is not a string',
    schema: obj({ a: int }, [{ rule: 'self.a > 1', messageExpression: 'self.a' }]),
    want: [`${R}.${V}[0].messageExpression: Invalid value: ${NIL_RULE('self.a > 1', '"self.a"')}: messageExpression must evaluate to a string`],
  },
  {
    name: 'optionalOldSelf on a rule without oldSelf',
    schema: obj({ a: int }, [{ rule: 'self.a > 1', optionalOldSelf: true }]),
    want: [`${R}.${V}[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`],
  },
  { name: 'optionalOldSelf on a transition rule passes', schema: obj({ a: int }, [{ rule: '!oldSelf.hasValue() || self.a >= oldSelf.value().a', optionalOldSelf: true }]), want: [] },
  {
    name: 'oldSelf under an atomic list',
    schema: obj({ l: { type: 'array', maxItems: 10, items: obj({ a: { type: 'string', maxLength: 10 } }, [{ rule: 'self.a == oldSelf.a' }]) } }),
    want: [`${R}.properties[l].items.${V}[0].rule: Invalid value: "self.a == oldSelf.a": oldSelf cannot be used on the uncorrelatable portion of the schema within ${R}.properties[l]`],
  },
  {
    name: 'oldSelf under a set list',
    schema: obj({ l: { type: 'array', maxItems: 10, [EXT.listType]: 'set', items: { type: 'string', maxLength: 10, [V]: [{ rule: 'self == oldSelf' }] } } }),
    want: [`${R}.properties[l].items.${V}[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${R}.properties[l]`],
  },
  {
    name: 'oldSelf under a map list passes',
    schema: obj({
      l: { type: 'array', maxItems: 10, [EXT.listType]: 'map', [EXT.listMapKeys]: ['k'], items: obj({ k: { type: 'string', maxLength: 10 } }, [{ rule: 'self.k == oldSelf.k' }], { required: ['k'] }) },
    }),
    want: [],
  },
  {
    name: 'a node without an expression type',
    schema: obj({ a: { [V]: [{ rule: 'true' }] } }),
    want: [`${R}.properties[a].${V}: Internal error: internal error: failed to construct type information for ${V} rules: unable to convert structural schema to CEL declarations`],
  },
  {
    name: 'rule-text errors below a node skip compiling its rules',
    schema: obj({ a: { type: 'integer', [V]: [{ rule: ' ' }] } }, [{ rule: 'self.nope' }]),
    want: [`${R}.properties[a].${V}[0].rule: Required value: rule is not specified`],
  },
  {
    name: 'quadratic rule over an unbounded list',
    schema: obj({ l: { type: 'array', items: { type: 'string' } } }, [{ rule: 'self.l.all(x, self.l.exists(y, x == y))' }]),
    want: [
      `${R}.${V}[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${HINT}`,
      `${R}.${V}[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${R}: Forbidden: ${V} estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${HINT}`,
    ],
  },
  {
    name: 'rule on the items of an unbounded list',
    schema: obj({ l: { type: 'array', items: { type: 'string', [V]: [{ rule: "self.contains('a')" }] } } }),
    want: [
      `${R}.properties[l].items.${V}[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${HINT}`,
      `${R}.properties[l].items.${V}[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${R}: Forbidden: ${V} estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${HINT}`,
    ],
  },
  {
    name: 'the same rule with maxItems and maxLength passes',
    schema: obj({ l: { type: 'array', maxItems: 10000, items: { type: 'string', maxLength: 1000, [V]: [{ rule: "self.contains('abc')" }] } } }),
    want: [],
  },
  {
    name: 'a little over the per-rule limit prints six decimals',
    schema: obj({ l: { type: 'array', maxItems: 30000, items: { type: 'string', maxLength: 1000, [V]: [{ rule: "self.contains('abc')" }] } } }),
    want: [`${R}.properties[l].items.${V}[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.203000x ${HINT}`],
  },
  {
    name: 'over the per-rule limit and the total',
    schema: obj({ l: { type: 'array', maxItems: 1000000, items: { type: 'string', maxLength: 1000, [V]: [{ rule: "self.contains('abc')" }] } } }),
    want: [
      `${R}.properties[l].items.${V}[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 40.1x ${HINT}`,
      `${R}.properties[l].items.${V}[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${R}: Forbidden: ${V} estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 4.0x ${HINT}`,
    ],
  },
  {
    name: 'maxProperties bounds map values',
    schema: obj({ m: { type: 'object', maxProperties: 100000, additionalProperties: { type: 'string', maxLength: 1000, [V]: [{ rule: "self.contains('abc')" }] } } }),
    want: [`${R}.properties[m].additionalProperties.${V}[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 4.0x ${HINT}`],
  },
  {
    name: 'rules under allOf are not compiled',
    schema: obj({ a: int }, undefined, { allOf: [{ [V]: [{ rule: 'self.nope' }] }] }),
    want: [],
  },
];

describe('apiextensions/cel validateSchemaRules (CRD write checks)', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(validateSchemaRules(c.schema, ROOT).map(fieldErrorString)).to.deep.equal(c.want);
    });
  }

  it('suppressPerExpressionCost drops only the per-rule errors', () => {
    const schema = obj({ l: { type: 'array', maxItems: 30000, items: { type: 'string', maxLength: 1000, [V]: [{ rule: "self.contains('abc')" }] } } });
    expect(validateSchemaRules(schema, ROOT, { suppressPerExpressionCost: true })).to.deep.equal([]);
  });

  it('never throws on malformed rules', () => {
    const schema = { type: 'object', properties: { a: int }, [V]: [null, 3, { rule: 7 }] } as unknown as JSONSchemaProps;
    expect(validateSchemaRules(schema, ROOT).map(fieldErrorString)).to.deep.equal([0, 1, 2].map((i) => `${R}.${V}[${i}].rule: Required value: rule is not specified`));
  });
});
