import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { JSONSyntaxError, TYPE_META_GO_TYPE, decodeJSON, interpretTypeMeta } from '../../../../lib/apimachinery/serializers/json.js';
import { MAX_OBJECT_DEPTH } from '../../../../lib/apimachinery/serializers/nesting.js';
import { YAMLSyntaxError, decodeYAML } from '../../../../lib/apimachinery/serializers/yaml.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('decodeJSON errors', () => {
  it('answers 400 with Go\'s syntax error, never the JavaScript parser\'s', () => {
    const err = thrown(() => decodeJSON(Buffer.from('apiVersion: v1\n')));
    expect(err).to.be.instanceOf(JSONSyntaxError).and.instanceOf(StatusError);
    const e = err as JSONSyntaxError;
    expect(e.goMessage).to.equal("invalid character 'a' looking for beginning of value");
    expect(e.status).to.include({ code: 400, reason: 'BadRequest', message: "invalid character 'a' looking for beginning of value" });
    expect((thrown(() => decodeJSON('{"a":')) as JSONSyntaxError).goMessage).to.equal('unexpected end of JSON input');
  });

  it('keeps the depth limit in Go\'s words: MAX_OBJECT_DEPTH levels parse, one more (or 10 001) is a 400', () => {
    const deep = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    expect((thrown(() => decodeJSON(deep(10_001))) as JSONSyntaxError).goMessage).to.equal("invalid character '{' exceeded max depth");
    expect((thrown(() => decodeJSON(deep(MAX_OBJECT_DEPTH + 1))) as JSONSyntaxError).goMessage).to.equal("invalid character '{' exceeded max depth");
    expect(decodeJSON(deep(MAX_OBJECT_DEPTH))).to.be.an('object');
  });

  it('still reports duplicate fields of valid bodies', () => {
    const dups: string[] = [];
    expect(decodeJSON('{"a":1,"a":2}', dups)).to.deep.equal({ a: 2 });
    expect(dups).to.deep.equal(['a']);
  });
});

describe("interpretTypeMeta: upstream's json serializer reading apiVersion and kind", () => {
  const unmarshal = "couldn't get version/kind; json parse error: json: cannot unmarshal";
  const cases: [body: string, message: string | undefined][] = [
    ['{"apiVersion":"v1","kind":"ConfigMap"}', undefined],
    ['{}', undefined],
    ['null', undefined],
    ['{"kind":null}', undefined],
    ['[1,2]', `${unmarshal} array into Go value of type ${TYPE_META_GO_TYPE}`],
    ['"str"', `${unmarshal} string into Go value of type ${TYPE_META_GO_TYPE}`],
    ['5', `${unmarshal} number into Go value of type ${TYPE_META_GO_TYPE}`],
    ['true', `${unmarshal} bool into Go value of type ${TYPE_META_GO_TYPE}`],
    ['{"kind":5}', `${unmarshal} number into Go struct field .kind of type string`],
    ['{"apiVersion":{}}', `${unmarshal} object into Go struct field .apiVersion of type string`],
    ['{"KIND":[]}', `${unmarshal} array into Go struct field .kind of type string`],
    ['{"kind":"X","apiVersion":true}', `${unmarshal} bool into Go struct field .apiVersion of type string`],
    ['{"apiVersion":"a/b/c"}', 'unexpected GroupVersion string: a/b/c'],
    ['{"apiVersion":"/"}', undefined],
  ];
  for (const [body, message] of cases) {
    it(`${body} → ${message ?? 'read'}`, () => {
      expect(interpretTypeMeta(JSON.parse(body))).to.equal(message);
    });
  }

  it('names the Go type as reflect prints it', () => {
    expect(TYPE_META_GO_TYPE).to.equal('struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
  });
});

describe('decodeYAML errors: go-yaml v2 wording', () => {
  /** Bodies and go-yaml v2.4.0's Unmarshal error for them (each checked against go-yaml). */
  const cases: [body: string, message: string][] = [
    ['metadata:\n  name: [bad2\n', "yaml: line 2: did not find expected ',' or ']'"],
    ['a: [1, 2\nb: 3\n', "yaml: line 1: did not find expected ',' or ']'"],
    ['a:\n  b:\n    c: [1,\n  d: 2\n', "yaml: line 4: did not find expected ',' or ']'"],
    ['a: {b\n', "yaml: line 1: did not find expected ',' or '}'"],
    ['a: b: c\n', 'yaml: mapping values are not allowed in this context'],
    ['a: b\n  c: d\n', 'yaml: line 2: mapping values are not allowed in this context'],
    ['apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   labels: {}\n', 'yaml: line 5: mapping values are not allowed in this context'],
    ['x\ny: 1\n', 'yaml: line 2: mapping values are not allowed in this context'],
    ['a:\n  b: 1\n c: 2\n', 'yaml: line 2: did not find expected key'],
    ['a: b\n- c\n', 'yaml: line 1: did not find expected key'],
    ['spec:\n  containers:\n  - name: x\n    image: y\n   ports: []\n', 'yaml: line 4: did not find expected key'],
    ['data:\n  key:\n value\n', 'yaml: line 2: did not find expected key'],
    ['a: [b, c]]\n', 'yaml: did not find expected key'],
    ['a:\n  - b\n  c: d\n', "yaml: line 2: did not find expected '-' indicator"],
    ['- a\nb: c\n', "yaml: line 1: did not find expected '-' indicator"],
    ['apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: a\n      image: b\n     - name: c\n', "yaml: line 6: did not find expected '-' indicator"],
    ['kind: Pod\nmetadata\n  name: x\n', "yaml: line 3: could not find expected ':'"],
    ['a: b #c\nd\n', "yaml: line 3: could not find expected ':'"],
    ['a: "x\n', 'yaml: line 2: found unexpected end of stream'],
    ["a: 'x\n", 'yaml: line 2: found unexpected end of stream'],
    ['\ta: 1\n', 'yaml: found character that cannot start any token'],
    ['a:\n\t- x\n', 'yaml: line 2: found character that cannot start any token'],
    ['apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n\tlabels: {}\n', 'yaml: line 5: found a tab character that violates indentation'],
    ['@foo\n', 'yaml: found character that cannot start any token'],
    ['a: `x`\n', 'yaml: found character that cannot start any token'],
    ['key: "\\q"\n', 'yaml: found unknown escape character'],
    ['a: "\\u12"\n', 'yaml: did not find expected hexdecimal number'],
    [']\n', 'yaml: did not find expected node content'],
    ['a: ]\n', 'yaml: did not find expected node content'],
    ['a: *x\n', "yaml: unknown anchor 'x' referenced"],
    ['a: &x 1\nb: *y\n', "yaml: unknown anchor 'y' referenced"],
  ];
  for (const [body, message] of cases) {
    it(`${JSON.stringify(body)} → ${message}`, () => {
      const err = thrown(() => decodeYAML(Buffer.from(body)));
      expect(err).to.be.instanceOf(YAMLSyntaxError);
      expect((err as YAMLSyntaxError).yamlError).to.equal(message);
      expect((err as YAMLSyntaxError).status).to.include({ code: 400, reason: 'BadRequest', message: `error converting YAML to JSON: ${message}` });
    });
  }

  it('refuses a mapping key that is a list or a mapping in the words of sigs.k8s.io/yaml\'s conversion to JSON', () => {
    for (const [body, message] of [
      ['metadata:\n  labels: {? [a]: b}\n', 'unsupported map key of type: []interface {}, key: []interface {}{"a"}, value: "b"'],
      ['? {x: 1, y: [2.5, null]}\n: [c, 3]\n', 'unsupported map key of type: map[interface {}]interface {}, key: map[interface {}]interface {}{"x":1, "y":[]interface {}{2.5, interface {}(nil)}}, value: []interface {}{"c", 3}'],
      ['a: 1\n? [z]\n', 'unsupported map key of type: []interface {}, key: []interface {}{"z"}, value: <nil>'],
    ]) {
      const err = thrown(() => decodeYAML(Buffer.from(body!)));
      expect(err, body).to.be.instanceOf(YAMLSyntaxError);
      expect((err as YAMLSyntaxError).yamlError, body).to.equal(message);
    }
  });

  it('reads the first document only, as go-yaml does, and an empty body as null', () => {
    expect(decodeYAML('a: 1\n---\nb: [\n')).to.deep.equal({ a: 1 });
    expect(decodeYAML('')).to.equal(null);
    expect(decodeYAML('# only a comment\n')).to.equal(null);
  });

  it('keeps the depth limit in go-yaml\'s words, with this server\'s limit', () => {
    const err = thrown(() => decodeYAML(`x: ${'['.repeat(10_001)}${']'.repeat(10_001)}\n`)) as YAMLSyntaxError;
    expect(err.yamlError).to.equal(`yaml: exceeded max depth of ${MAX_OBJECT_DEPTH}`);
  });

  it('composes documents up to MAX_OBJECT_DEPTH and refuses deeper ones before composing them', () => {
    const n = MAX_OBJECT_DEPTH;
    const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
    expect(decodeYAML(`${'['.repeat(n)}1${']'.repeat(n)}\n`)).to.deep.equal(nested(n));
    let block = '';
    for (let i = 0; i < n; i++) block += `${' '.repeat(i)}a:\n`;
    expect(JSON.stringify(decodeYAML(block))).to.equal(`${'{"a":'.repeat(n - 1)}{"a":null}${'}'.repeat(n - 1)}`);
    const deeper = thrown(() => decodeYAML(`x: ${'['.repeat(n)}1${']'.repeat(n)}\n`)) as YAMLSyntaxError;
    expect(deeper.yamlError).to.equal(`yaml: exceeded max depth of ${n}`);
    expect((thrown(() => decodeYAML(`${'- '.repeat(n + 1)}1\n`)) as YAMLSyntaxError).yamlError).to.equal(`yaml: exceeded max depth of ${n}`);
  });

  it('stops parsing a body of 3 MiB of brackets at the depth limit', () => {
    const err = thrown(() => decodeYAML(`x: ${'['.repeat(3 * 1024 * 1024)}`)) as YAMLSyntaxError;
    expect(err.yamlError).to.equal(`yaml: exceeded max depth of ${MAX_OBJECT_DEPTH}`);
  });

  it('refuses a value nested past the limit by aliases, which the tokens do not show', () => {
    const half = MAX_OBJECT_DEPTH / 2;
    const text = `a: &a ${'['.repeat(half)}1${']'.repeat(half)}\nb: ${'['.repeat(half)}*a${']'.repeat(half)}\n`;
    expect((thrown(() => decodeYAML(text)) as YAMLSyntaxError).yamlError).to.equal(`yaml: exceeded max depth of ${MAX_OBJECT_DEPTH}`);
    const shallower = `a: &a ${'['.repeat(half - 1)}1${']'.repeat(half - 1)}\nb: ${'['.repeat(half - 1)}*a${']'.repeat(half - 1)}\n`;
    expect(decodeYAML(shallower)).to.have.keys('a', 'b');
  });

  it('reads a JSON body as JSON, duplicates included, and a malformed one as YAML for go-yaml\'s error', () => {
    const dups: string[] = [];
    expect(decodeYAML(' {"a":{"b":1,"b":2},"c":[1.5,"x"]}', dups)).to.deep.equal({ a: { b: 2 }, c: [1.5, 'x'] });
    expect(dups).to.deep.equal(['a.b']);
    expect(decodeYAML('{a: 1, "b": [x]}')).to.deep.equal({ a: 1, b: ['x'] });
    expect((thrown(() => decodeYAML('{"a": [1, }')) as YAMLSyntaxError).yamlError).to.match(/^yaml: did not find expected/);
  });

  it('refuses alias bombs with go-yaml\'s message', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`)].join('\n');
    expect((thrown(() => decodeYAML(bomb)) as YAMLSyntaxError).yamlError).to.equal('yaml: document contains excessive aliasing');
  });
});
