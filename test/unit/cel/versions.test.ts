import { expect } from 'chai';
import {
  AUTHORIZER_TYPES,
  compile,
  CompileErrors,
  createEnvironment,
  createEnvironmentSet,
  CURRENT_VERSION,
  DEFAULT_COMPATIBILITY_VERSION,
  EnvironmentError,
  FEATURE_VERSIONS,
  formatVersion,
  parseVersion,
} from '../../../lib/cel/index.js';
import { compareVersions, featuresAt } from '../../../lib/cel/versions.js';

const QUANTITY = "quantity('1Gi').isGreaterThan(quantity('1Mi'))";
const OPTIONAL = 'optional.of(1).orValue(2) == 1';
const OPTIONAL_SYNTAX = "{'a': 1}.?a.orValue(0) == 1";
const CROSS_TYPE = '1 < 1.5';
const CROSS_TYPE_UINT = '2u > 1';

const compiles = (expression: string, version: string, stored = false): boolean =>
  !(compile(expression, createEnvironment({ version, stored })) instanceof CompileErrors);

describe('compatibility versions (spec 000 § Expression language (CEL) in fields)', () => {
  it('the server is 1.30 and new expressions default to 1.29', () => {
    expect(formatVersion(CURRENT_VERSION)).to.equal('1.30');
    expect(formatVersion(DEFAULT_COMPATIBILITY_VERSION)).to.equal('1.29');
  });

  it('introduces the quantity library in 1.28, optional types and cross-type comparisons in 1.29', () => {
    expect(formatVersion(FEATURE_VERSIONS.quantityLibrary)).to.equal('1.28');
    expect(formatVersion(FEATURE_VERSIONS.optionalTypes)).to.equal('1.29');
    expect(formatVersion(FEATURE_VERSIONS.crossTypeNumericComparisons)).to.equal('1.29');
    expect(formatVersion(FEATURE_VERSIONS.authorizerLibrary)).to.equal('1.27');
  });

  const matrix: Array<[string, string, boolean]> = [
    [QUANTITY, '1.27', false],
    [QUANTITY, '1.28', true],
    [QUANTITY, '1.29', true],
    ["'%d'.format([1]) == '1'", '1.28', false],
    ["'%d'.format([1]) == '1'", '1.29', true],
    ["strings.quote('a') == '\"a\"'", '1.28', false],
    ["strings.quote('a') == '\"a\"'", '1.29', true],
    [OPTIONAL, '1.28', false],
    [OPTIONAL, '1.29', true],
    [OPTIONAL_SYNTAX, '1.28', false],
    [OPTIONAL_SYNTAX, '1.29', true],
    [CROSS_TYPE, '1.28', false],
    [CROSS_TYPE, '1.29', true],
    [CROSS_TYPE_UINT, '1.28', false],
    [CROSS_TYPE_UINT, '1.30', true],
    ['1 < 2', '1.25', true],
    ["'abc'.charAt(1) == 'b'", '1.25', true],
  ];
  for (const [expression, version, accepted] of matrix) {
    it(`${expression} is ${accepted ? 'accepted' : 'rejected'} as a new expression at ${version}`, () => {
      expect(compiles(expression, version)).to.equal(accepted);
    });
  }

  for (const expression of [QUANTITY, OPTIONAL, OPTIONAL_SYNTAX, CROSS_TYPE, CROSS_TYPE_UINT]) {
    it(`${expression} keeps compiling in the stored-expressions environment after a rollback to 1.27`, () => {
      const set = createEnvironmentSet({ version: '1.27' });
      expect(compile(expression, set.newExpressions)).to.be.instanceOf(CompileErrors);
      expect(compile(expression, set.storedExpressions)).to.not.be.instanceOf(CompileErrors);
      expect(set.storedExpressions.describe()).to.equal('1.30 (stored expressions)');
    });
  }

  it('names the version that introduced a rejected feature', () => {
    const q = compile(QUANTITY, createEnvironment({ version: '1.27' })) as CompileErrors;
    expect(q.message).to.match(/^ERROR: <input>:1:9: undeclared reference to 'quantity' \(in container ''\)\n/);
    const o = compile(OPTIONAL, createEnvironment({ version: '1.28' })) as CompileErrors;
    expect(o.message).to.match(/undeclared reference to 'optional' \(optional types are available from compatibility version 1\.29\)/);
    const c = compile(CROSS_TYPE, createEnvironment({ version: '1.28' })) as CompileErrors;
    expect(c.message).to.match(/found no matching overload for '_<_' applied to '\(int, double\)'/);
  });

  it('declares the authorizer type only from 1.27', () => {
    const declare = (version: string) => createEnvironment({ version, variables: [{ name: 'authorizer', type: AUTHORIZER_TYPES.authorizer }] });
    expect(() => declare('1.26')).to.throw(EnvironmentError, /unknown type/);
    expect(declare('1.27').variables.has('authorizer')).to.equal(true);
  });

  it('parses and compares versions', () => {
    expect(parseVersion('v1.29')).to.deep.equal({ major: 1, minor: 29 });
    expect(() => parseVersion('1.29.3')).to.throw(/invalid compatibility version/);
    expect(compareVersions(parseVersion('1.28'), parseVersion('1.30'))).to.be.lessThan(0);
    expect(featuresAt(parseVersion('1.28'))).to.deep.equal({
      authorizerLibrary: true,
      quantityLibrary: true,
      stringsLibraryV2: false,
      optionalTypes: false,
      crossTypeNumericComparisons: false,
      networkLibraries: false,
    });
  });
});
