import { expect } from 'chai';
import { parseDocument } from 'yaml';
import { jsonDuplicateFields, memberCount, yamlDuplicateFields, yamlDuplicateKeyErrors } from '../../../../lib/apimachinery/serializers/duplicate-fields.js';
import { decodeJSON } from '../../../../lib/apimachinery/serializers/json.js';
import { jsonKeyCount } from '../../../../lib/apimachinery/serializers/nesting.js';

describe('duplicate fields (spec 000 § Field validation levels)', () => {
  const json: [string, string, string[]][] = [
    ['none', '{"a":1,"b":{"c":2},"d":[{"e":1},{"e":2}]}', []],
    ['top level', '{"a":1,"a":2}', ['a']],
    ['nested', '{"metadata":{"name":"x","labels":{"k":"1","k":"2"},"name":"y"}}', ['metadata.labels.k', 'metadata.name']],
    ['in list items', '{"spec":{"ports":[{"port":1},{"port":2,"port":3}]}}', ['spec.ports[1].port']],
    ['escaped keys and strings with braces', '{"a\\"b":"}{,","a\\u0022b":1,"s":"[\\"]"}', ['a"b']],
    ['thrice', '{"x":1,"x":2,"x":3}', ['x', 'x']],
    ['nested arrays', '{"a":[[{"b":1,"b":2}]]}', ['a[0][0].b']],
    ['whitespace', ' { "a" : 1 ,\n "a" : 2 } ', ['a']],
    ['a key named __proto__, twice', '{"__proto__":{"a":1},"b":{"__proto__":1,"__proto__":2}}', ['b.__proto__']],
    ['strings that look like keys', '{"a":"b:","c":["d",":"],"e\\\\":"x"}', []],
  ];
  for (const [name, text, expected] of json) {
    it(`JSON: ${name}`, () => {
      JSON.parse(text);
      expect(jsonDuplicateFields(text)).to.deep.equal(expected);
      const found: string[] = [];
      decodeJSON(text, found);
      expect(found, 'through decodeJSON').to.deep.equal(expected);
    });
  }

  it('JSON: the text has more keys than the parsed value has members exactly when a key repeats', () => {
    for (const [, text, expected] of json) {
      const keys = jsonKeyCount(text);
      expect(memberCount(JSON.parse(text)) < keys, text).to.equal(expected.length > 0);
      expect(keys - memberCount(JSON.parse(text)), text).to.equal(expected.length);
    }
    expect(jsonKeyCount('[1,"a",{"b":[{"c":{}}]},"d"]')).to.equal(2);
    expect(memberCount([1, 'a', { b: [{ c: {} }] }, 'd'])).to.equal(2);
    expect(jsonKeyCount('{"a":[[[1]]]}', 2)).to.equal(-1);
  });

  const yaml: [string, string, string[]][] = [
    ['none', 'a: 1\nb:\n  c: 2\n', []],
    ['nested', 'metadata:\n  name: x\n  labels:\n    k: "1"\n    k: "2"\n', ['metadata.labels.k']],
    ['in sequences', 'spec:\n  ports:\n  - port: 1\n  - port: 2\n    port: 3\n', ['spec.ports[1].port']],
  ];
  for (const [name, text, expected] of yaml) {
    it(`YAML: ${name}`, () => {
      expect(yamlDuplicateFields(parseDocument(text, { uniqueKeys: false }))).to.deep.equal(expected);
    });
  }

  const goYAML: [string, string, string[]][] = [
    ['the line of the repeated value', 'a: 1\nb:\n  c: 2\n  c:\n    3\n', ['line 5: key "c" already set in map']],
    ['a value\'s own duplicates before its key\'s, as go-yaml meets them', 'a: {x: 1, x: 2}\na: 3\n', ['line 1: key "x" already set in map', 'line 2: key "a" already set in map']],
    ['a key as Go prints it (%#v)', '1: a\n1: b\n"q\\"": c\n"q\\"": d\n', ['line 2: key 1 already set in map', 'line 4: key "q\\"" already set in map']],
    ['JSON on one line', '{"a":{"b":1,"b":2},"a":1}', ['line 1: key "b" already set in map', 'line 1: key "a" already set in map']],
  ];
  for (const [name, text, expected] of goYAML) {
    it(`go-yaml's strict errors: ${name}`, () => {
      expect(yamlDuplicateKeyErrors(parseDocument(text, { uniqueKeys: false }), text)).to.deep.equal(expected);
    });
  }
});
