import { expect } from 'chai';
import { parseDocument } from 'yaml';
import { jsonTooDeep, yamlTooDeep } from '../../../../lib/apimachinery/serializers/nesting.js';

describe('nesting bounds of request bodies', () => {
  it('counts JSON objects and arrays, not brackets inside strings', () => {
    expect(jsonTooDeep('{"a":[{"b":1}]}', 3)).to.equal(false);
    expect(jsonTooDeep('{"a":[{"b":{}}]}', 3)).to.equal(true);
    expect(jsonTooDeep('{"a":"[[[[[[{{{{\\"]]]"}', 1)).to.equal(false);
  });

  it('counts YAML mappings and sequences, flow or block', () => {
    expect(yamlTooDeep(parseDocument('a:\n  b:\n    - 1\n'), 3)).to.equal(false);
    expect(yamlTooDeep(parseDocument('a:\n  b:\n    - [1]\n'), 3)).to.equal(true);
  });
});
