import { expect } from 'chai';
import { parseIncludeObject, TableOptionsError } from '../../../../lib/apimachinery/table/options.js';

describe('apimachinery/table/options', () => {
  const valid: Array<[string | null | undefined, string]> = [
    [undefined, 'Metadata'],
    [null, 'Metadata'],
    ['', 'Metadata'],
    ['Metadata', 'Metadata'],
    ['None', 'None'],
    ['Object', 'Object'],
  ];
  for (const [value, expected] of valid) {
    it(`includeObject=${JSON.stringify(value)} → ${expected}`, () => expect(parseIncludeObject(value)).to.equal(expected));
  }

  for (const value of ['object', 'All', ' None']) {
    it(`refuses includeObject=${JSON.stringify(value)} with upstream's message`, () => {
      expect(() => parseIncludeObject(value))
        .to.throw(TableOptionsError)
        .with.property(
          'message',
          `Unable to convert to Table as requested: includeObject: Unsupported value: ${JSON.stringify(value)}: supported values: "Metadata", "None", "Object"`,
        );
    });
  }
});
