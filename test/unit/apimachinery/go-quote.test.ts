import { expect } from 'chai';
import { goQuote } from '../../../lib/apimachinery/go-quote.js';

describe('goQuote: Go strconv.Quote', () => {
  const cases: Array<[string, string, string]> = [
    ['plain text', 'abc', '"abc"'],
    ['quote and backslash', 'a"b\\c', '"a\\"b\\\\c"'],
    ['letter escapes', '\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['other ASCII controls as \\x', '\x00\x1b\x7f', '"\\x00\\x1b\\x7f"'],
    ['printable non-ASCII as itself', 'héllo 世界 🙂', '"héllo 世界 🙂"'],
    ['C1 control as \\u', '\u0085', '"\\u0085"'],
    ['non-ASCII space as \\u', 'a\u00a0b', '"a\\u00a0b"'],
    ['format character as \\u', '\u200b', '"\\u200b"'],
    ['private use as \\u', '\ue000', '"\\ue000"'],
    ['non-printable astral rune as \\U', '\u{e0001}', '"\\U000e0001"'],
    ['lone surrogate as U+FFFD', 'a\ud800b', '"a\ufffdb"'],
    ['empty', '', '""'],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => expect(goQuote(input)).to.equal(want));
  }
});
