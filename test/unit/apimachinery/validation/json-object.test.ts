import { expect } from 'chai';
import { jsonObjectError } from '../../../../lib/apimachinery/validation/json-object.js';

const check = (text: string) => jsonObjectError(Buffer.from(text));

describe('apimachinery/validation/json-object (Go json.Unmarshal into a map)', () => {
  const ok = ['{}', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', 'null', '{"nested": {"b": {}}}'];
  for (const text of ok) it(`accepts ${text}`, () => expect(check(text)).to.equal(undefined));

  const bad: Array<[string, string]> = [
    ['', 'unexpected end of JSON input'],
    ['{"a": 1', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{a: 1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a": 1 "b": 2}', "invalid character '\"' after object key:value pair"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a": tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a": 01}', "invalid character '1' after object key:value pair"],
    ['{"a": 1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a": "\\q"}', "invalid character 'q' in string escape code"],
    ['{} {}', "invalid character '{' after top-level value"],
    ['[1]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['"s"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['3', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['true', 'json: cannot unmarshal bool into Go value of type map[string]interface {}'],
  ];
  for (const [text, msg] of bad) it(`reports ${JSON.stringify(text)}`, () => expect(check(text)).to.equal(msg));
});
