import { expect } from 'chai';
import { parseDocument } from 'yaml';
import { jsonDuplicateFields, yamlDuplicateFields, yamlDuplicateKeyErrors } from '../../../../lib/apimachinery/serializers/duplicate-fields.js';

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
  ];
  for (const [name, text, expected] of json) {
    it(`JSON: ${name}`, () => {
      JSON.parse(text);
      expect(jsonDuplicateFields(text)).to.deep.equal(expected);
    });
  }

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
