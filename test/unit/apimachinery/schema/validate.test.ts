import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { field, int32, string, struct } from '../../../../lib/apimachinery/schema/builder.js';
import { validateDeclarative } from '../../../../lib/apimachinery/schema/validate.js';
import { widget } from './fixtures.js';

/** The error strings of validating `obj` as a Widget. */
const errors = (obj: unknown) => validateDeclarative(widget, obj).map(fieldErrorString);

describe('schema/validate: declarative rules (spec 000 § Field validation levels: omitting a required field is an error)', () => {
  const rows: Array<[string, unknown, string[]]> = [
    ['a valid object has no errors', { spec: { replicas: 3, mode: 'Fast', label: 'abc', containers: [{ name: 'a', ports: [{ containerPort: 80 }] }] } }, []],
    ['a missing required field', {}, ['spec: Required value']],
    ['a null required field', { spec: null }, ['spec: Required value']],
    ['a required field in a list item, with its index', { spec: { containers: [{ name: 'a' }, {}] } }, ['spec.containers[1].name: Required value']],
    ['an empty required string', { spec: { containers: [{ name: '' }] } }, ['spec.containers[0].name: Required value']],
    ['a required integer of 0 is present', { spec: { containers: [{ name: 'a', ports: [{ containerPort: 0 }] }] } }, []],
    ['a value outside the enum', { spec: { mode: 'Medium' } }, ['spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"']],
    ['a string over maxLength', { spec: { label: 'abcdef' } }, ['spec.label: Too long: may not be more than 5 bytes']],
    ['a string at maxLength', { spec: { label: 'abcde' } }, []],
    [
      'a list over maxItems',
      { spec: { containers: [{ name: 'a', ports: [{ containerPort: 1 }, { containerPort: 2 }, { containerPort: 3 }, { containerPort: 4 }] }] } },
      ['spec.containers[0].ports: Too many: 4: must have at most 3 items'],
    ],
    ['an integer below its minimum', { spec: { replicas: -1 } }, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    ['an integer above its maximum', { spec: { replicas: 11 } }, ['spec.replicas: Invalid value: 11: must be less than or equal to 10']],
    ['an enum in a nested list item', { spec: { containers: [{ name: 'a', ports: [{ containerPort: 1, protocol: 'ICMP' }] }] } }, [
      'spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
    ]],
    ['several errors, in field order', { spec: { mode: 'X', label: 'toolong', containers: [{}] } }, [
      'spec.mode: Unsupported value: "X": supported values: "Fast", "Slow"',
      'spec.label: Too long: may not be more than 5 bytes',
      'spec.containers[0].name: Required value',
    ]],
  ];
  for (const [what, obj, want] of rows) {
    it(`${what}`, () => {
      expect(errors(obj)).to.deep.equal(want);
    });
  }

  it('map values are validated at [key] paths', () => {
    const s = struct('x.v1.S', { m: field(1, { type: 'map', values: { type: 'string', enum: ['a'] } }) });
    expect(validateDeclarative(s, { m: { k: 'b' } }).map(fieldErrorString)).to.deep.equal(['m[k]: Unsupported value: "b": supported values: "a"']);
  });

  it('an empty string for a required non-string field is not "Required"', () => {
    const s = struct('x.v1.S', { n: field(1, int32, { required: true }) });
    expect(validateDeclarative(s, { n: '' })).to.deep.equal([]);
  });

  it('a required field inside an absent optional struct is not reported', () => {
    const inner = struct('x.v1.Inner', { name: field(1, string, { required: true }) });
    const s = struct('x.v1.S', { inner: field(1, inner) });
    expect(validateDeclarative(s, {})).to.deep.equal([]);
  });

  it('cause reasons: Required, NotSupported, TooLong, TooMany, Invalid', () => {
    const errs = validateDeclarative(widget, {
      spec: { mode: 'X', label: 'toolong', replicas: 99, containers: [{ ports: [{ containerPort: 1 }, { containerPort: 2 }, { containerPort: 3 }, { containerPort: 4 }] }] },
    });
    expect(errs.map((e) => e.type).sort()).to.deep.equal(['Invalid', 'NotSupported', 'Required', 'TooLong', 'TooMany']);
  });
});
