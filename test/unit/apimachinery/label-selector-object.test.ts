import { expect } from 'chai';
import { FieldPath, fieldErrorString } from '../../../lib/apimachinery/field-errors.js';
import {
  type LabelSelectorObject,
  LabelSelector,
  labelSelectorFromObject,
  SelectorParseError,
} from '../../../lib/apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../lib/apimachinery/labels/validation.js';
import { LABEL_VALUE, NAME_PART } from './label-messages.js';

describe('labels: labelSelectorFromObject', () => {
  const cases: [string, LabelSelectorObject | null | undefined, string, Record<string, string>[], Record<string, string>[]][] = [
    ['undefined selects nothing', undefined, '', [], [{}, { a: '1' }]],
    ['null selects nothing', null, '', [], [{}, { a: '1' }]],
    ['{} selects everything', {}, '', [{}, { a: '1' }], []],
    ['empty lists select everything', { matchLabels: {}, matchExpressions: [] }, '', [{}], []],
    ['matchLabels', { matchLabels: { b: '2', a: '1' } }, 'a=1,b=2', [{ a: '1', b: '2', c: '3' }], [{ a: '1' }, { a: '1', b: '3' }]],
    [
      'matchExpressions',
      {
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['front', 'back'] },
          { key: 'env', operator: 'NotIn', values: ['prod'] },
          { key: 'app', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist', values: [] },
        ],
      },
      'app,env notin (prod),!legacy,tier in (back,front)',
      [{ tier: 'front', app: 'x' }, { tier: 'back', app: 'y', env: 'dev' }],
      [{ tier: 'front' }, { tier: 'mid', app: 'x' }, { tier: 'front', app: 'x', env: 'prod' }, { tier: 'front', app: 'x', legacy: '' }],
    ],
    [
      'both, matchLabels first on equal keys',
      { matchLabels: { a: '1' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '2'] }] },
      'a=1,a in (1,2)',
      [{ a: '1' }],
      [{ a: '2' }],
    ],
  ];
  for (const [name, obj, text, yes, no] of cases) {
    it(name, () => {
      const sel = labelSelectorFromObject(obj);
      expect(sel.toString()).to.equal(text);
      for (const l of yes) expect(sel.matches(l), JSON.stringify(l)).to.equal(true);
      for (const l of no) expect(sel.matches(l), JSON.stringify(l)).to.equal(false);
    });
  }

  it('nothing vs everything semantics are explicit', () => {
    expect(labelSelectorFromObject(undefined)).to.equal(LabelSelector.nothing());
    expect(labelSelectorFromObject({})).to.equal(LabelSelector.everything());
  });

  const errors: [LabelSelectorObject, string][] = [
    [{ matchExpressions: [{ key: 'a', operator: 'Foo' }] }, '"Foo" is not a valid label selector operator'],
    [{ matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] }, '"in" is not a valid label selector operator'],
    [{ matchExpressions: [{ key: 'a', operator: 'In' }] }, "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist'],
    [{ matchLabels: { a: '-x' } }, `values[0][a]: Invalid value: "-x": ${LABEL_VALUE}`],
    [{ matchLabels: { '-a': 'x' } }, `key: Invalid value: "-a": ${NAME_PART}`],
  ];
  for (const [obj, message] of errors) {
    it(`rejects ${JSON.stringify(obj)}`, () => {
      expect(() => labelSelectorFromObject(obj)).to.throw(SelectorParseError).with.property('message', message);
    });
  }
});

describe('labels: validateLabelSelectorObject', () => {
  const path = FieldPath.of('spec', 'selector');
  const cases: [string, LabelSelectorObject | null | undefined, string[]][] = [
    ['undefined', undefined, []],
    ['null', null, []],
    ['empty', {}, []],
    [
      'valid',
      {
        matchLabels: { app: 'web', 'example.com/tier': '' },
        matchExpressions: [
          { key: 'a', operator: 'In', values: ['x'] },
          { key: 'b', operator: 'NotIn', values: ['', 'y'] },
          { key: 'c', operator: 'Exists' },
          { key: 'd', operator: 'DoesNotExist', values: [] },
        ],
      },
      [],
    ],
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In' }] },
      ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ],
    [
      'NotIn with empty values',
      { matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }, { key: 'a', operator: 'NotIn', values: [] }] },
      ["spec.selector.matchExpressions[1].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      ["spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
    ],
    [
      'DoesNotExist with values',
      { matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }] },
      ["spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
    ],
    [
      'unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Foo' }] },
      ['spec.selector.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator'],
    ],
    [
      'bad key and values',
      { matchExpressions: [{ key: '-a', operator: 'In', values: ['ok', '-x'] }] },
      [
        `spec.selector.matchExpressions[0].key: Invalid value: "-a": ${NAME_PART}`,
        `spec.selector.matchExpressions[0].values[1]: Invalid value: "-x": ${LABEL_VALUE}`,
      ],
    ],
    [
      'bad matchLabels',
      { matchLabels: { '-a': 'x', b: '-y' } },
      [
        `spec.selector.matchLabels: Invalid value: "-a": ${NAME_PART}`,
        `spec.selector.matchLabels: Invalid value: "-y": ${LABEL_VALUE}`,
      ],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(name, () => {
      expect(validateLabelSelectorObject(obj, path).map(fieldErrorString)).to.deep.equal(want);
    });
  }

  it('reports field error types for causes', () => {
    const errs = validateLabelSelectorObject({ matchExpressions: [{ key: 'a', operator: 'In' }, { key: 'b', operator: 'Exists', values: ['x'] }, { key: 'c', operator: 'X' }] }, path);
    expect(errs.map((e) => [e.type, e.field])).to.deep.equal([
      ['Required', 'spec.selector.matchExpressions[0].values'],
      ['Forbidden', 'spec.selector.matchExpressions[1].values'],
      ['Invalid', 'spec.selector.matchExpressions[2].operator'],
    ]);
  });
});
