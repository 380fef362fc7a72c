import { expect } from 'chai';
import { Parser } from 'yaml';
import { jsonTooDeep, yamlTokenDepth } from '../../../../lib/apimachinery/serializers/nesting.js';

/** The depth of a YAML stream's parsed tokens. */
const depth = (text: string) => yamlTokenDepth(Array.from(new Parser().parse(text)));

describe('nesting bounds of request bodies', () => {
  it('counts JSON objects and arrays, not brackets inside strings', () => {
    expect(jsonTooDeep('{"a":[{"b":1}]}', 3)).to.equal(false);
    expect(jsonTooDeep('{"a":[{"b":{}}]}', 3)).to.equal(true);
    expect(jsonTooDeep('{"a":"[[[[[[{{{{\\"]]]"}', 1)).to.equal(false);
  });

  it('counts YAML mappings and sequences, flow or block, keys included, not brackets inside scalars', () => {
    expect(depth('')).to.equal(0);
    expect(depth('x\n')).to.equal(0);
    expect(depth('a: 1\n')).to.equal(1);
    expect(depth('a:\n  b:\n    - 1\n')).to.equal(3);
    expect(depth('a:\n  b:\n    - [1]\n')).to.equal(4);
    expect(depth('a: x[[[[\nb: "{{{{"\n')).to.equal(1);
    expect(depth('? [[[1]]]\n: 2\n')).to.equal(4);
    expect(depth('{a: [{b: 1}]}\n')).to.equal(3);
    expect(depth('- - - 1\n')).to.equal(3);
    expect(depth('a: 1\n---\n[[[1]]]\n')).to.equal(3);
  });
});
