import { expect } from 'chai';
import {
  type FieldError,
  FieldPath,
  duplicate,
  fieldErrorBody,
  fieldErrorString,
  forbidden,
  formatBadValue,
  goStringMap,
  internalError,
  invalid,
  notFound,
  notSupported,
  prefixErrors,
  required,
  tooLong,
  tooMany,
  typeInvalid,
} from '../../../lib/apimachinery/field-errors.js';

describe('field-errors: FieldPath (spec 001 § Errors, details.causes[].field)', () => {
  const rows: Array<[string, FieldPath, string]> = [
    ['one root segment', FieldPath.of('spec'), 'spec'],
    ['several root segments', FieldPath.of('metadata', 'name'), 'metadata.name'],
    ['child', FieldPath.of('spec').child('template'), 'spec.template'],
    ['several children', FieldPath.of('spec').child('a', 'b'), 'spec.a.b'],
    ['index', FieldPath.of('spec').child('containers').index(0).child('name'), 'spec.containers[0].name'],
    ['map key, unquoted', FieldPath.of('metadata', 'labels').key('app.orch/x'), 'metadata.labels[app.orch/x]'],
    ['child of an empty root', FieldPath.of().child('a'), 'a'],
    ['nested index and key', FieldPath.of('data').key('k').index(2), 'data[k][2]'],
  ];
  for (const [what, p, text] of rows) {
    it(`${what}: ${text}`, () => {
      expect(p.toString()).to.equal(text);
    });
  }

  it('is immutable: building on a path leaves it unchanged', () => {
    const base = FieldPath.of('spec');
    base.child('x');
    base.index(1);
    base.key('k');
    expect(base.toString()).to.equal('spec');
  });
});

describe('field-errors: constructors and messages (upstream field.Error)', () => {
  const rows: Array<[string, FieldError, string, string]> = [
    ['Required', required('spec.name'), 'FieldValueRequired', 'spec.name: Required value'],
    ['Required with detail', required('spec.name', 'a name is needed'), 'FieldValueRequired', 'spec.name: Required value: a name is needed'],
    ['Invalid with a string', invalid('metadata.name', 'Foo', 'must be lower case'), 'FieldValueInvalid', 'metadata.name: Invalid value: "Foo": must be lower case'],
    ['Invalid with a number', invalid('spec.replicas', -1, 'must be greater than or equal to 0'), 'FieldValueInvalid', 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ['Invalid with a boolean', invalid('spec.x', true, 'no'), 'FieldValueInvalid', 'spec.x: Invalid value: true: no'],
    ['Invalid with a fraction', invalid('spec.x', 0.5, 'no'), 'FieldValueInvalid', 'spec.x: Invalid value: 0.5: no'],
    ['Invalid with null prints "null" quoted', invalid('spec.x', null, 'no'), 'FieldValueInvalid', 'spec.x: Invalid value: "null": no'],
    ['Invalid with a string that needs escaping', invalid('spec.x', 'a"b\n', 'no'), 'FieldValueInvalid', 'spec.x: Invalid value: "a\\"b\\n": no'],
    ['Invalid without detail', invalid('spec.x', 'v', ''), 'FieldValueInvalid', 'spec.x: Invalid value: "v"'],
    [
      'NotSupported lists the supported values quoted',
      notSupported('spec.restartPolicy', 'Sometimes', ['Always', 'OnFailure', 'Never']),
      'FieldValueNotSupported',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ],
    ['NotSupported without supported values', notSupported('spec.x', 'v', []), 'FieldValueNotSupported', 'spec.x: Unsupported value: "v"'],
    ['Forbidden', forbidden('spec.selector', 'field is immutable'), 'FieldValueForbidden', 'spec.selector: Forbidden: field is immutable'],
    ['Duplicate', duplicate('spec.ports[1].name', 'http'), 'FieldValueDuplicate', 'spec.ports[1].name: Duplicate value: "http"'],
    ['NotFound', notFound('spec.x', 'y'), 'FieldValueNotFound', 'spec.x: Not found: "y"'],
    ['TooLong does not show the value', tooLong('data', 'x'.repeat(10), 5), 'FieldValueTooLong', 'data: Too long: may not be more than 5 bytes'],
    ['TooMany shows the actual count', tooMany('spec.items', 7, 5), 'FieldValueTooMany', 'spec.items: Too many: 7: must have at most 5 items'],
    ['TypeInvalid', typeInvalid('spec.replicas', 'three', 'spec.replicas in body must be of type integer: "string"'), 'FieldValueTypeInvalid', 'spec.replicas: Invalid value: "three": spec.replicas in body must be of type integer: "string"'],
    ['InternalError shows no value', internalError('spec', 'boom'), 'InternalError', 'spec: Internal error: boom'],
    ['a FieldPath argument', required(FieldPath.of('spec').child('containers').index(0).child('name')), 'FieldValueRequired', 'spec.containers[0].name: Required value'],
  ];
  for (const [what, err, _reason, text] of rows) {
    it(`${what}: ${text}`, () => {
      expect(fieldErrorString(err)).to.equal(text);
      expect(fieldErrorBody(err)).to.equal(text.slice(err.field.length + 2));
    });
  }
});

describe('field-errors: formatBadValue', () => {
  const rows: Array<[unknown, string]> = [
    ['x', '"x"'],
    ['', '""'],
    [3, '3'],
    [-2.5, '-2.5'],
    [false, 'false'],
    [null, '"null"'],
    [undefined, '"null"'],
    [{ a: 1 }, '{"a":1}'],
    [['a', 'b'], '["a","b"]'],
  ];
  for (const [value, text] of rows) {
    it(`${JSON.stringify(value) ?? 'undefined'} → ${text}`, () => {
      expect(formatBadValue(value)).to.equal(text);
    });
  }
});

describe('field-errors: prefixErrors', () => {
  it('prefixes a dotted field with prefix.', () => {
    expect(prefixErrors('spec.template', [required('metadata.name')]).map((e) => e.field)).to.deep.equal(['spec.template.metadata.name']);
  });

  it('prefixes an index or key field without a dot', () => {
    expect(prefixErrors(FieldPath.of('spec', 'containers'), [invalid('[0]', 'x', 'd')]).map((e) => e.field)).to.deep.equal(['spec.containers[0]']);
  });

  it('does not change the errors passed in', () => {
    const errs = [required('a')];
    prefixErrors('p', errs);
    expect(errs[0]!.field).to.equal('a');
  });
});

describe('field-errors: goStringMap', () => {
  it('prints a label map as Go\'s %#v prints a map[string]string: keys sorted, quoted as Go quotes, nil when absent', () => {
    expect(formatBadValue(goStringMap({ tier: 'db', app: 'web', 'a"b': 'caf\u00e9\n' }))).to.equal('map[string]string{"a\\"b":"café\\n", "app":"web", "tier":"db"}');
    expect(formatBadValue(goStringMap({}))).to.equal('map[string]string{}');
    expect(formatBadValue(goStringMap(undefined))).to.equal('map[string]string(nil)');
  });
});
