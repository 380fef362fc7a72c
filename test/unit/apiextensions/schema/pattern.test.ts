import { expect } from 'chai';
import { patternError } from '../../../../lib/apiextensions/schema/pattern.js';

describe('apiextensions/schema patternError (Go RE2 messages where recognized)', () => {
  const valid = ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'a*?b+?c??', '(?:ab)+', '(?<name>a)', '\\d+\\.\\d+', '[(?=]x', 'a|b|'];
  for (const p of valid) {
    it(`accepts ${JSON.stringify(p)}`, () => {
      expect(patternError(p)).to.equal(undefined);
    });
  }

  const goErrors: Array<[string, string]> = [
    ['+', 'missing argument to repetition operator: `+`'],
    ['a|*b', 'missing argument to repetition operator: `*`'],
    ['(??)', 'missing argument to repetition operator: `??`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['a+?*', 'invalid nested repetition operator: `+?*`'],
    ['(abc', 'missing closing ): `(abc`'],
    ['abc)', 'unexpected ): `abc)`'],
    ['x[abc', 'missing closing ]: `[abc`'],
    ['abc\\', 'trailing backslash at end of expression: ``'],
    ['a(?=b)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['a(?!b)', 'invalid or unsupported Perl syntax: `(?!`'],
    ['(?<=a)b', 'invalid or unsupported Perl syntax: `(?<`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['(?<n>a)\\k<n>', 'invalid escape sequence: `\\k`'],
  ];
  for (const [p, want] of goErrors) {
    it(`refuses ${JSON.stringify(p)} with Go's message`, () => {
      expect(patternError(p)).to.equal(`error parsing regexp: ${want}`);
    });
  }

  it("falls back to the JavaScript engine's message for other errors (RE2-only syntax included)", () => {
    expect(patternError('(?i)abc')).to.match(/^Invalid regular expression: /);
    expect(patternError('a{')).to.match(/^Invalid regular expression: /);
    expect(patternError('[]a]')).to.match(/^Invalid regular expression: /);
  });
});
