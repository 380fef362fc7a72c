import { expect } from 'chai';
import { goFoldName, goJSONSyntaxError, goQuoteChar, goStringFromBytes } from '../../../../lib/apimachinery/serializers/go-json-errors.js';

/** Bodies and the error Go's json.Unmarshal gives for them (each checked against Go 1.19's encoding/json). */
const SYNTAX: [name: string, body: string | Buffer, message: string][] = [
  ['YAML sent as JSON', 'apiVersion: v1\nkind: Namespace\n', "invalid character 'a' looking for beginning of value"],
  ['empty', '', 'unexpected end of JSON input'],
  ['only white space', ' \t\r\n', 'unexpected end of JSON input'],
  ['cut after a colon', '{"a":', 'unexpected end of JSON input'],
  ['cut in a string', '{"a":"b', 'unexpected end of JSON input'],
  ['cut in a key', '{"a', 'unexpected end of JSON input'],
  ['cut after a value', '{"a":1', 'unexpected end of JSON input'],
  ['cut in an array', '[1,2', 'unexpected end of JSON input'],
  ['cut in a literal', 'tru', "invalid character ' ' in literal true (expecting 'e')"],
  ['cut after a minus', '-', "invalid character ' ' in numeric literal"],
  ['cut after a decimal point', '1.', "invalid character ' ' after decimal point in numeric literal"],
  ['cut in an exponent', '1e', "invalid character ' ' in exponent of numeric literal"],
  ['bad true', '{"a":trux}', "invalid character 'x' in literal true (expecting 'e')"],
  ['bad false', '[fals]', "invalid character ']' in literal false (expecting 'e')"],
  ['bad null', 'nul', "invalid character ' ' in literal null (expecting 'l')"],
  ['after an object key', '{"a" 1}', "invalid character '1' after object key"],
  ['after a key:value pair', '{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
  ['after an array element', '[1 2]', "invalid character '2' after array element"],
  ['unquoted key', '{a:1}', "invalid character 'a' looking for beginning of object key string"],
  ['trailing comma in an object', '{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['trailing comma in an array', '[1,]', "invalid character ']' looking for beginning of value"],
  ['trailing garbage', '{"a":1}x', "invalid character 'x' after top-level value"],
  ['a second value', '{} {}', "invalid character '{' after top-level value"],
  ['letters after a number', '123abc', "invalid character 'a' after top-level value"],
  ['newline in a string', '{"a":"x\ny"}', "invalid character '\\n' in string literal"],
  ['control character in a string', '{"a":"\u0001"}', "invalid character '\\x01' in string literal"],
  ['tab in a string', '["\t"]', "invalid character '\\t' in string literal"],
  ['unknown escape', '"\\x41"', "invalid character 'x' in string escape code"],
  ['bad \\u escape', '"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
  ['leading zero', '[01]', "invalid character '1' after array element"],
  ['plus sign', '{"a":+1}', "invalid character '+' looking for beginning of value"],
  ['fraction without integer part', '{"a":.5}', "invalid character '.' looking for beginning of value"],
  ['bad exponent', '[1e+x]', "invalid character 'x' in exponent of numeric literal"],
  ['single quote', "{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
  ['double quote', '[1"]', `invalid character '"' after array element`],
  ['backslash', '\\', "invalid character '\\\\' looking for beginning of value"],
  ['two-byte character: its lead byte as a code point', 'é', "invalid character 'Ã' looking for beginning of value"],
  ['two-byte character as a key', '{é:1}', "invalid character 'Ã' looking for beginning of object key string"],
  ['three-byte character', '€', "invalid character 'â' looking for beginning of value"],
  ['byte order mark', '\ufeff{}', "invalid character 'ï' looking for beginning of value"],
  ['NUL', Buffer.from([0x00]), "invalid character '\\x00' looking for beginning of value"],
  ['DEL', Buffer.from([0x7f]), "invalid character '\\x7f' looking for beginning of value"],
  ['ESC', Buffer.from([0x1b]), "invalid character '\\x1b' looking for beginning of value"],
  ['BEL', Buffer.from([0x07]), "invalid character '\\a' looking for beginning of value"],
  ['vertical tab', Buffer.from([0x0b]), "invalid character '\\v' looking for beginning of value"],
  ['form feed', Buffer.from([0x0c]), "invalid character '\\f' looking for beginning of value"],
  ['byte 0x80', Buffer.from([0x80]), "invalid character '\\u0080' looking for beginning of value"],
  ['byte 0x85', Buffer.from([0x85]), "invalid character '\\u0085' looking for beginning of value"],
  ['byte 0xa0 (no-break space)', Buffer.from([0xa0]), "invalid character '\\u00a0' looking for beginning of value"],
  ['byte 0xad (soft hyphen)', Buffer.from([0xad]), "invalid character '\\u00ad' looking for beginning of value"],
  ['byte 0xff', Buffer.from([0xff]), "invalid character 'ÿ' looking for beginning of value"],
  ['closing bracket', ']', "invalid character ']' looking for beginning of value"],
  ['closing brace', '}', "invalid character '}' looking for beginning of value"],
  ['mismatched close', '[}', "invalid character '}' looking for beginning of value"],
  ['arrays 10 001 deep', `${'['.repeat(10_001)}${']'.repeat(10_001)}`, "invalid character '[' exceeded max depth"],
  ['objects 10 001 deep', `${'{"a":'.repeat(10_001)}1${'}'.repeat(10_001)}`, "invalid character '{' exceeded max depth"],
];

describe("Go encoding/json's syntax errors", () => {
  for (const [name, body, message] of SYNTAX) {
    it(`${name}: ${message}`, () => {
      expect(goJSONSyntaxError(body)).to.equal(message);
    });
  }

  it('finds nothing wrong with JSON, at most 10 000 levels deep', () => {
    for (const ok of ['{}', ' [] ', '"é\\u00e9\\n"', '-0.5e+10', 'true', 'null', '{"a":[1,{"b":null}],"c":"\\"\\\\\\/"}\n', `${'['.repeat(10_000)}${']'.repeat(10_000)}`]) {
      expect(goJSONSyntaxError(ok), ok.slice(0, 20)).to.equal(undefined);
    }
  });

  it('takes bytes: invalid UTF-8 inside a string is no syntax error, as in Go', () => {
    expect(goJSONSyntaxError(Buffer.from([0x22, 0xff, 0xc3, 0x22]))).to.equal(undefined);
  });

  it('accepts what JSON.parse accepts, and only that (mutated documents)', () => {
    const base = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"k":"v\\n\\u00e9"},"n":[1,-2.5e3,true,false,null]}';
    const alphabet = '{}[]":,\\ \n\t-+.0123456789eEtrufalsn\u0001é';
    let seed = 1;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const p = rnd(base.length);
      const ch = alphabet[rnd(alphabet.length)]!;
      const s = rnd(2) === 0 ? base.slice(0, p) + ch + base.slice(p) : base.slice(0, p) + base.slice(p + 1);
      let parses = true;
      try {
        JSON.parse(s);
      } catch {
        parses = false;
      }
      expect(goJSONSyntaxError(s) === undefined, s).to.equal(parses);
    }
  });
});

describe("Go's quoteChar", () => {
  it('quotes a byte as encoding/json does', () => {
    const cases: [number, string][] = [
      [0x61, "'a'"],
      [0x27, "'\\''"],
      [0x22, `'"'`],
      [0x5c, "'\\\\'"],
      [0x0a, "'\\n'"],
      [0x0d, "'\\r'"],
      [0x09, "'\\t'"],
      [0x00, "'\\x00'"],
      [0x1f, "'\\x1f'"],
      [0x7f, "'\\x7f'"],
      [0x9f, "'\\u009f'"],
      [0xa1, "'¡'"],
      [0xc3, "'Ã'"],
    ];
    for (const [c, quoted] of cases) expect(goQuoteChar(c), c.toString(16)).to.equal(quoted);
  });
});

describe('Go strings from bytes', () => {
  it('keeps valid UTF-8 and makes each byte of a cut or invalid sequence one U+FFFD', () => {
    expect(goStringFromBytes(Buffer.from('{"é": "€"}'))).to.equal('{"é": "€"}');
    expect(goStringFromBytes(Buffer.from([0x7b, 0xe2, 0x82]))).to.equal('{\ufffd\ufffd');
    expect(goStringFromBytes(Buffer.from([0xff, 0x61, 0xed, 0xa0, 0x80]))).to.equal('\ufffda\ufffd\ufffd\ufffd');
  });
});

describe("encoding/json's struct field matching", () => {
  it('folds case, the Kelvin sign and the long s', () => {
    expect(goFoldName('apiVersion')).to.equal('APIVERSION');
    expect(goFoldName('\u212aind')).to.equal('KIND');
    expect(goFoldName('apiVer\u017fion')).to.equal('APIVERSION');
    expect(goFoldName('kınd')).to.equal('KıND');
  });
});
