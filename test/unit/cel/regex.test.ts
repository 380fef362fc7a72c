import { expect } from 'chai';
import { compile, CompileErrors, createEnvironment } from '../../../lib/cel/index.js';
import { fails, plainEnv, rejects, table } from './helpers.js';

describe('regex library with RE2 semantics (spec 000 § Expression language (CEL) in fields)', () => {
  describe('matches, find, findAll', () => {
    table(
      [
        ["'abc'.matches('^a.c$')", true],
        ["'abc'.matches('b')", true],
        ["'abc'.matches('^b')", false],
        ["matches('abc', 'c$')", true],
        ["'aaa'.matches('a{3}')", true],
        ["'AB'.matches('(?i)ab')", true],
        ["'é'.matches('^\\\\pL$')", true],
        ["'x'.matches('\\\\d')", false],
        ["'a.b'.matches('a\\\\.b')", true],
        ["'abc 123'.find('[0-9]+')", '123'],
        ["'abc 123'.find('xyz')", ''],
        ["'abc 123'.find('[0-9]*')", ''],
        ["'123 abc 456'.findAll('[0-9]+')", ['123', '456']],
        ["'123 abc 456'.findAll('[0-9]+', 1)", ['123']],
        ["'123 abc 456'.findAll('[0-9]+', 0)", []],
        ["'123 abc 456'.findAll('xyz')", []],
        ["'1, 2, 3, 4'.findAll('[0-9]+').map(x, int(x)).sum()", 10n],
        ["'aaa'.findAll('a*')", ['aaa']],
      ],
      plainEnv,
    );
  });

  describe('a constant pattern RE2 rejects is a compile error', () => {
    table(
      [
        ["'a'.matches('a(?=b)')", rejects(/error parsing regexp: invalid or unsupported Perl syntax: `\(\?=`/)],
        ["'a'.matches('(?!a)')", rejects(/invalid or unsupported Perl syntax/)],
        ["'ab'.find('(?<=a)b')", rejects(/error parsing regexp/)],
        ["'a'.findAll('a**')", rejects(/invalid nested repetition operator/)],
        ["'aa'.matches('(a)\\\\1')", rejects(/invalid escape sequence/)],
        ["'a'.matches('[')", rejects(/missing closing \]/)],
        ["'a'.matches('a{1001}')", rejects(/invalid repeat count/)],
        ["matches('a', '(?=a)')", rejects(/error parsing regexp/)],
        // Go's regexp.Error ends with the offending text even when it is empty.
        ["'a'.matches('a\\\\')", rejects(/error parsing regexp: trailing backslash at end of expression: ``/)],
      ],
      plainEnv,
    );
    it('locates the error at the pattern argument', () => {
      const result = compile("'abc'.matches('(?=a)')", plainEnv());
      expect(result).to.be.instanceOf(CompileErrors);
      const issue = (result as CompileErrors).issues[0]!;
      expect(issue.column).to.equal(15);
      expect(issue.line).to.equal(1);
    });
  });

  describe('a dynamic pattern RE2 rejects is a runtime error', () => {
    const env = () => createEnvironment({ variables: [{ name: 'pattern', type: 'string' }] });
    table(
      [
        ["'abc'.matches(pattern)", fails(/error parsing regexp: invalid or unsupported Perl syntax/)],
        ["'abc'.find(pattern)", fails(/^Illegal regex: error parsing regexp/)],
        ["'abc'.findAll(pattern)", fails(/^Illegal regex: error parsing regexp/)],
        ["'abc'.matches(pattern) || true", true],
      ],
      env,
      () => ({ pattern: '(?=a)' }),
    );
    table([["'abc'.matches(pattern)", true]], env, () => ({ pattern: '^a' }));
  });
});
