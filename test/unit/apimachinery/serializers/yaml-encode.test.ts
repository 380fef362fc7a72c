import { expect } from 'chai';
import { parse } from 'yaml';
import { encodeYAML } from '../../../../lib/apimachinery/serializers/yaml.js';

/*
 * Every expected text here is go-yaml v2.4.0's own output for the same JSON: sigs.k8s.io/yaml's
 * JSONToYAML, which is how upstream answers `Accept: application/yaml` (Debian's
 * golang-k8s-sigs-yaml-dev and golang-gopkg-yaml.v2-dev, run once to produce them).
 */

/** A YAML document from its lines. */
const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const yaml = (value: unknown): string => encodeYAML(value).toString('utf8');

describe('encodeYAML writes the bytes upstream writes (JSON → sigs.k8s.io/yaml → go-yaml v2)', () => {
  const long = 'LimitRanger plugin set: cpu request for container hostnames, memory request for container hostnames';
  const configMap = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name: 'settings',
      namespace: 'default',
      uid: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      resourceVersion: '12345',
      creationTimestamp: '2026-11-25T10:00:00Z',
      labels: { app: 'web', 'app.orch.io/tier': 'frontend' },
      annotations: { 'orch.io/last-applied': '{"apiVersion":"v1","kind":"ConfigMap"}\n', note: long },
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Apply',
          apiVersion: 'v1',
          time: '2026-11-25T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:enabled': {}, 'f:script': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
        },
      ],
    },
    data: {
      enabled: 'true',
      replicas: '1',
      answer: 'y',
      mode: 'on',
      empty: '',
      tilde: '~',
      version: '1.2.3',
      ratio: '0.5',
      hex: '0x1F',
      exp: '1e3',
      dot: '.5',
      clock: '10:30',
      date: '2026-11-25',
      script: '#!/bin/sh\necho "hello"\nexit 0\n',
      banner: 'line one\nline two',
      keep: 'trailing\n\n',
      indented: '  two spaces first\nthen not',
    },
    binaryData: {},
    immutable: false,
  };

  it('writes a ConfigMap as kubectl shows it: sorted keys, managedFields under its key, quoted look-alikes, literal blocks', () => {
    expect(yaml(configMap)).to.equal(
      y(
        'apiVersion: v1',
        'binaryData: {}',
        'data:',
        '  answer: "y"',
        '  banner: |-',
        '    line one',
        '    line two',
        '  clock: "10:30"',
        '  date: "2026-11-25"',
        '  dot: ".5"',
        '  empty: ""',
        '  enabled: "true"',
        '  exp: "1e3"',
        '  hex: "0x1F"',
        '  indented: |2-',
        '      two spaces first',
        '    then not',
        '  keep: |+',
        '    trailing',
        '',
        '  mode: "on"',
        '  ratio: "0.5"',
        '  replicas: "1"',
        '  script: |',
        '    #!/bin/sh',
        '    echo "hello"',
        '    exit 0',
        '  tilde: "~"',
        '  version: 1.2.3',
        'immutable: false',
        'kind: ConfigMap',
        'metadata:',
        '  annotations:',
        '    note: \'LimitRanger plugin set: cpu request for container hostnames, memory request',
        '      for container hostnames\'',
        '    orch.io/last-applied: |',
        '      {"apiVersion":"v1","kind":"ConfigMap"}',
        '  creationTimestamp: "2026-11-25T10:00:00Z"',
        '  labels:',
        '    app: web',
        '    app.orch.io/tier: frontend',
        '  managedFields:',
        '  - apiVersion: v1',
        '    fieldsType: FieldsV1',
        '    fieldsV1:',
        '      f:data:',
        '        .: {}',
        '        f:enabled: {}',
        '        f:script: {}',
        '      f:metadata:',
        '        f:labels:',
        '          .: {}',
        '          f:app: {}',
        '    manager: kubectl',
        '    operation: Apply',
        '    time: "2026-11-25T10:00:00Z"',
        '  name: settings',
        '  namespace: default',
        '  resourceVersion: "12345"',
        '  uid: 6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
  });

  it('reads back as the same object', () => {
    expect(parse(yaml(configMap), { version: '1.2' })).to.deep.equal(configMap);
  });

  it('quotes a string that plain would read as something else (double quotes) or would not parse (single quotes)', () => {
    const table: [string, string][] = [
    // Booleans and nulls of YAML 1.1 (resolve.go's map), in any of its spellings: double quotes.
    ['true', 'v: "true"\n'],
    ['True', 'v: "True"\n'],
    ['TRUE', 'v: "TRUE"\n'],
    ['y', 'v: "y"\n'],
    ['Y', 'v: "Y"\n'],
    ['yes', 'v: "yes"\n'],
    ['no', 'v: "no"\n'],
    ['n', 'v: "n"\n'],
    ['on', 'v: "on"\n'],
    ['off', 'v: "off"\n'],
    ['null', 'v: "null"\n'],
    ['Null', 'v: "Null"\n'],
    ['~', 'v: "~"\n'],
    ['', 'v: ""\n'],
    // Numbers as strconv reads them after dropping underscores (base prefixes, octal, floats): double quotes.
    ['1', 'v: "1"\n'],
    ['-1', 'v: "-1"\n'],
    ['+1', 'v: "+1"\n'],
    ['007', 'v: "007"\n'],
    ['08', 'v: "08"\n'],
    ['1_000', 'v: "1_000"\n'],
    ['0x1F', 'v: "0x1F"\n'],
    ['0o17', 'v: "0o17"\n'],
    ['0b101', 'v: "0b101"\n'],
    ['1e3', 'v: "1e3"\n'],
    ['1.', 'v: "1."\n'],
    ['.5', 'v: ".5"\n'],
    ['.inf', 'v: ".inf"\n'],
    ['-.Inf', 'v: "-.Inf"\n'],
    ['.nan', 'v: ".nan"\n'],
    // Past int64/uint64: decimal digits still read as a float; other bases no longer read as a number.
    ['18446744073709551616', 'v: "18446744073709551616"\n'],
    ['0xFFFFFFFFFFFFFFFF', 'v: "0xFFFFFFFFFFFFFFFF"\n'],
    ['0x10000000000000000', 'v: 0x10000000000000000\n'],
    ['0o2000000000000000000000', 'v: 0o2000000000000000000000\n'],
    [`-0b1${'0'.repeat(63)}`, `v: "-0b1${'0'.repeat(63)}"\n`],
    // Timestamps in the four layouts go-yaml tries (a date alone, T or t, a space), valid ones only; base-60 floats.
    ['2026-11-25T10:00:00Z', 'v: "2026-11-25T10:00:00Z"\n'],
    ['2026-11-25t10:00:00.5+01:00', 'v: "2026-11-25t10:00:00.5+01:00"\n'],
    ['2026-11-25 10:00:00', 'v: "2026-11-25 10:00:00"\n'],
    ['2026-11-25', 'v: "2026-11-25"\n'],
    ['2026-11-25T10:00:00', 'v: 2026-11-25T10:00:00\n'],
    ['2026-02-30', 'v: 2026-02-30\n'],
    ['10:30', 'v: "10:30"\n'],
    ['1:2:3', 'v: "1:2:3"\n'],
    // Plain when nothing else reads it: a version, `<<` (not in resolve's table), a phrase.
    ['1.2.3', 'v: 1.2.3\n'],
    ['<<', 'v: <<\n'],
    ['yes please', 'v: yes please\n'],
    // Plain would not parse (an indicator first, `: ` or ` #` inside, document markers, edge spaces): single quotes.
    ['a: b', 'v: \'a: b\'\n'],
    ['a:b', 'v: a:b\n'],
    ['- a', 'v: \'- a\'\n'],
    ['-a', 'v: -a\n'],
    ['? a', 'v: \'? a\'\n'],
    [':a', 'v: :a\n'],
    ['#x', 'v: \'#x\'\n'],
    ['a #b', 'v: \'a #b\'\n'],
    ['a#b', 'v: a#b\n'],
    ['[x]', 'v: \'[x]\'\n'],
    ['x]', 'v: x]\n'],
    ['{x}', 'v: \'{x}\'\n'],
    ['*x', 'v: \'*x\'\n'],
    ['&x', 'v: \'&x\'\n'],
    ['!x', 'v: \'!x\'\n'],
    ['|x', 'v: \'|x\'\n'],
    ['>x', 'v: \'>x\'\n'],
    ['%x', 'v: \'%x\'\n'],
    ['@x', 'v: \'@x\'\n'],
    ['`x', 'v: \'`x\'\n'],
    ['"x"', 'v: \'"x"\'\n'],
    ['\'x\'', 'v: \'\'\'x\'\'\'\n'],
    ['it\'s', 'v: it\'s\n'],
    ['---', 'v: \'---\'\n'],
    ['...', 'v: \'...\'\n'],
    [' lead', 'v: \' lead\'\n'],
    ['trail ', 'v: \'trail \'\n'],
    // A character the emitter escapes (tab, CR, anything outside the printable BMP): double quotes and escapes.
    ['tab\there', 'v: "tab\\there"\n'],
    ['cr\rhere', 'v: "cr\\rhere"\n'],
    ['é', 'v: é\n'],
    ['naïve café', 'v: naïve café\n'],
    ['日本語', 'v: 日本語\n'],
    ['\u{1f600}', 'v: "\\U0001F600"\n'],
    ['a\u{1f600}b', 'v: "a\\U0001F600b"\n'],
    // go-yaml quirks: is_bom tests the string's first character, so after a leading BOM every character is escaped; and the JSON text's raw NEL is a line break to go-yaml's reader, folded as in a flow scalar.
    ['\ufeffa b', 'v: "\\uFEFF\\x61\\x20\\x62"\n'],
    ['x\u0085y', 'v: x y\n'],
    ['x \u0085\u0085 y', 'v: |-\n  x\n  y\n'],
    ['\u00a0x', 'v: \u00a0x\n'],
    ['line\u2028sep', 'v: \'line\u2028  sep\'\n'],
    ];
    for (const [value, text] of table) expect(yaml({ v: value }), JSON.stringify(value)).to.equal(text);
  });

  it('writes a string with a line feed as a literal block: chomping and indentation indicators, double quotes when a block cannot hold it', () => {
    const table: [string, string][] = [
    ['a\nb', 'v: |-\n  a\n  b\n'],
    ['a\n', 'v: |\n  a\n'],
    ['a\n\n', 'v: |+\n  a\n\n'],
    ['\n', 'v: |2+\n\n'],
    ['\n\nx', 'v: |2-\n\n\n  x\n'],
    [' a\nb', 'v: |2-\n   a\n  b\n'],
    ['a \nb', 'v: "a \\nb"\n'],
    ['a\n b', 'v: |-\n  a\n   b\n'],
    ['a\tb\nc', 'v: "a\\tb\\nc"\n'],
    ['x\n  indented\n\nblank above\n', 'v: |\n  x\n    indented\n\n  blank above\n'],
    ];
    for (const [value, text] of table) expect(yaml({ v: value }), JSON.stringify(value)).to.equal(text);
  });

  it('writes numbers as go-yaml does after reading our JSON text: int64/uint64 digits as they are, other numbers as Go floats', () => {
    const scalars = { n: null, t: true, f: false, i: 42, neg: -7, f1: 1.5, big: 1e21, small: 1e-7, mid: 1234567.5, int63: 2 ** 63, min63: -(2 ** 63), u64: 2 ** 64, tenth: 0.1, zero: -0 };
    expect(yaml(scalars)).to.equal(
      y(
        'big: 1e+21',
        'f: false',
        'f1: 1.5',
        'i: 42',
        'int63: 9223372036854776000',
        'mid: 1.2345675e+06',
        'min63: -9.223372036854776e+18',
        '"n": null',
        'neg: -7',
        'small: 1e-07',
        't: true',
        'tenth: 0.1',
        'u64: 1.8446744073709552e+19',
        'zero: 0',
      ),
    );
  });

  it('writes empty collections as {} and [], lists of lists compactly, a sequence at its key\'s indentation', () => {
    const collections = {
      empty: {},
      none: [],
      list: [[1, 2], [], [[3]], [{}], { a: [] }],
      maps: [{ b: 1, a: 2 }, { x: { y: { z: null } } }],
      nested: { list: [{ name: 'a', items: ['x', 'y'] }] },
    };
    expect(yaml(collections)).to.equal(
      y(
        'empty: {}',
        'list:',
        '- - 1',
        '  - 2',
        '- []',
        '- - - 3',
        '- - {}',
        '- a: []',
        'maps:',
        '- a: 2',
        '  b: 1',
        '- x:',
        '    "y":',
        '      z: null',
        'nested:',
        '  list:',
        '  - items:',
        '    - x',
        '    - "y"',
        '    name: a',
        'none: []',
      ),
    );
  });

  it('sorts keys as go-yaml does (other characters before letters, digit runs by value) and writes long or multi-line keys with ?', () => {
    const keys: Record<string, number> = {
      true: 1, '1': 2, '': 3, 'a: b': 4, '#x': 5, 'with space': 6, é: 7, b: 8, a: 9, B: 10, _x: 11, '-x': 12, '.': 13,
      a10: 14, a2: 15, a01: 16, 'f:spec': 17, 'k:{"x":1}': 18, ['k'.repeat(130)]: 19, 'multi\nline': 20, on: 21,
    };
    expect(yaml(keys)).to.equal(
      y(
        '"": 3',
        '\'#x\': 5',
        '-x: 12',
        '.: 13',
        '_x: 11',
        '"1": 2',
        'B: 10',
        'a: 9',
        '\'a: b\': 4',
        'a01: 16',
        'a2: 15',
        'a10: 14',
        'b: 8',
        'f:spec: 17',
        'k:{"x":1}: 18',
        '? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk',
        ': 19',
        '? |-',
        '  multi',
        '  line',
        ': 20',
        '"on": 21',
        '"true": 1',
        'with space: 6',
        'é: 7',
      ),
    );
  });

  it('folds plain and quoted scalars at a space past column 80, never a literal block or a word', () => {
    const folding = {
      plain: 'this is very long line with spaces and it must be longer than 80 so we will repeat that it must be longer that 80',
      single: "message: 0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available",
      double: 'a tab\there and a long tail of words so that the double quoted scalar passes the eightieth column   twice over, really',
      nospace: 'x'.repeat(120),
      inList: ['short', 'a list item that is long enough to fold because it goes on and on past the eightieth column'],
    };
    expect(yaml(folding)).to.equal(
      y(
        'double: "a tab\\there and a long tail of words so that the double quoted scalar passes',
        '  the eightieth column   twice over, really"',
        'inList:',
        '- short',
        '- a list item that is long enough to fold because it goes on and on past the eightieth',
        '  column',
        'nospace: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        'plain: this is very long line with spaces and it must be longer than 80 so we will',
        '  repeat that it must be longer that 80',
        'single: \'message: 0/3 nodes are available: 3 node(s) didn\'\'t match Pod\'\'s node affinity/selector.',
        '  preemption: 0/3 nodes are available\'',
      ),
    );
  });

  it('writes top-level values as go-yaml does', () => {
    expect(yaml(null)).to.equal('null\n');
    expect(yaml({})).to.equal('{}\n');
    expect(yaml([])).to.equal('[]\n');
    expect(yaml('x')).to.equal('x\n');
    expect(yaml('a\nb')).to.equal('|-\n  a\n  b\n');
    expect(yaml(1.5)).to.equal('1.5\n');
    expect(yaml([null, { a: null }])).to.equal('- null\n- a: null\n');
  });

  it('writes what JSON.stringify would: toJSON results, no undefined members, null for what a list cannot hold', () => {
    const value = { at: new Date(Date.UTC(2026, 10, 25, 10, 0, 0)), gone: undefined, fn: () => 1, list: [undefined, NaN, Infinity, 1] };
    expect(yaml(value)).to.equal(y('at: "2026-11-25T10:00:00.000Z"', 'list:', '- null', '- null', '- null', '- 1'));
  });
});
