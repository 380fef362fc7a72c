import { expect } from 'chai';
import { validatePrinterColumnJSONPath } from '../../../../lib/apiextensions/printer/index.js';
import { fieldErrorString, FieldPath } from '../../../../lib/apimachinery/field-errors.js';

const column = FieldPath.of('spec', 'versions').index(0).child('additionalPrinterColumns').index(1);

describe('apiextensions/printer/column-validation', () => {
  const cases: [string, string[]][] = [
    ['.spec.replicas', []],
    ['.', []],
    ['.status.conditions[?(@.type=="Ready")].status', []],
    ['', ['spec.versions[0].additionalPrinterColumns[1].JSONPath: Required value']],
    ['spec.replicas', ['spec.versions[0].additionalPrinterColumns[1].JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .']],
    ['{.spec.replicas}', ['spec.versions[0].additionalPrinterColumns[1].JSONPath: Invalid value: "{.spec.replicas}": must be a simple json path starting with .']],
  ];
  for (const [jsonPath, want] of cases) {
    it(`${JSON.stringify(jsonPath)} → ${want.length} error(s)`, () => {
      expect(validatePrinterColumnJSONPath(jsonPath, column).map(fieldErrorString)).to.deep.equal(want);
    });
  }
});
