import { expect } from 'chai';
import { selectableFieldValue } from '../../../../lib/apiextensions/printer/index.js';

const obj = {
  metadata: { name: 'x' },
  spec: { color: 'blue', size: 3, big: false, ratio: 0.25, none: null, tags: ['a', 'b'], nested: { level: 2 } },
};

describe('apiextensions/printer/selectable-field', () => {
  const cases: [string, string | undefined][] = [
    ['.spec.color', 'blue'],
    ['.spec.size', '3'],
    ['.spec.big', 'false'],
    ['.spec.ratio', '0.25'],
    ['.spec.nested.level', '2'],
    ['.spec.missing', ''],
    ['.status.phase', ''],
    ['.spec.none', ''],
    ['.spec.tags[1]', 'b'],
    ['.spec.tags[*]', undefined],
    ['.spec.tags[7]', undefined],
    ['.spec[', undefined],
  ];
  for (const [path, want] of cases) {
    it(`${path} → ${JSON.stringify(want)}`, () => {
      expect(selectableFieldValue(obj, path)).to.equal(want);
      expect(selectableFieldValue(obj, path)).to.equal(want);
    });
  }
});
