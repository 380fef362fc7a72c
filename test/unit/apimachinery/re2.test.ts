import { expect } from 'chai';
import type { RE2JS } from 're2js';
import { compileRE2 } from '../../../lib/apimachinery/re2.js';

/** Go's error text for `pattern`, or undefined when it compiles. */
const patternError = (pattern: string): string | undefined => {
  const compiled = compileRE2(pattern);
  return typeof compiled === 'string' ? compiled : undefined;
};
/** `pattern` compiled; fails the test when it does not compile. */
const compilePattern = (pattern: string): RE2JS => {
  const compiled = compileRE2(pattern);
  if (typeof compiled === 'string') throw new Error(compiled);
  return compiled;
};

describe('apimachinery/re2 (RE2, errors as Go prints them)', () => {
  // The last five are RE2 syntax that JavaScript's engine refuses (in unicode mode): Go accepts them.
  const valid = ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'a*?b+?c??', '(?:ab)+', '(?<name>a)', '\\d+\\.\\d+', '[(?=]x', 'a|b|', '(?i)abc', '(?P<n>a)', 'a\\z', 'a{', '[]a]'];
  for (const p of valid) {
    it(`accepts ${JSON.stringify(p)}`, () => {
      expect(patternError(p)).to.equal(undefined);
    });
  }

  const goErrors: Array<[string, string]> = [
    ['+', 'missing argument to repetition operator: `+`'],
    ['a|*b', 'missing argument to repetition operator: `*`'],
    ['(??)', 'invalid or unsupported Perl syntax: `(??`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['a+?*', 'invalid nested repetition operator: `+?*`'],
    ['(abc', 'missing closing ): `(abc`'],
    ['abc)', 'unexpected ): `abc)`'],
    ['x[abc', 'missing closing ]: `[abc`'],
    ['abc\\', 'trailing backslash at end of expression: ``'],
    ['a(?=b)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['a(?!b)', 'invalid or unsupported Perl syntax: `(?!`'],
    // Go 1.22 (upstream v1.30) reads `(?<` as a named capture.
    ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['(?<n>a)\\k<n>', 'invalid escape sequence: `\\k`'],
    ['x{2,1}', 'invalid repeat count: `{2,1}`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
  ];
  for (const [p, want] of goErrors) {
    it(`refuses ${JSON.stringify(p)} with Go's message`, () => {
      expect(patternError(p)).to.equal(`error parsing regexp: ${want}`);
    });
  }

  it('matches anywhere in the value, as Go MatchString', () => {
    expect(compilePattern('b+').test('abbc')).to.equal(true);
    expect(compilePattern('^b+$').test('abbc')).to.equal(false);
    expect(compilePattern('(?i)^ABC$').test('abc')).to.equal(true);
  });

  it('matches in time linear in the value: a pattern that backtracks exponentially in JavaScript answers a 100,000-character value', () => {
    // JavaScript's engine needs about 2^n steps for n characters here (286 ms at 26 on this machine).
    expect(compilePattern('^(a+)+$').test(`${'a'.repeat(100_000)}!`)).to.equal(false);
    expect(compilePattern('^([a-z0-9]+-?)*[a-z0-9]$').test(`${'a-'.repeat(50_000)}!`)).to.equal(false);
  });
});
