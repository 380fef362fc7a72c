import { expect } from 'chai';
import { evaluateJSONPath, JSONPathEvalError, parseJSONPath, printJSONPathResults } from '../../../../lib/apimachinery/jsonpath/index.js';

const data = {
  kind: 'List',
  items: [
    {
      metadata: { name: 'a', labels: { 'app.x/y': 'web' } },
      spec: { replicas: 3, ratio: 0.5, tags: ['x', 'y', 'z'], ok: true },
      status: {
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'Synced', status: 'False' },
        ],
      },
    },
    { metadata: { name: 'b' }, spec: { replicas: 1, ratio: 1.5, tags: [], ok: false } },
  ],
};

const find = (text: string, allowMissingKeys = false): unknown[][] => evaluateJSONPath(parseJSONPath(text), data, { allowMissingKeys });
/** Upstream `Execute`: every result list printed, concatenated. */
const execute = (text: string): string => find(text).map(printJSONPathResults).join('');

describe('apimachinery/jsonpath/evaluate', () => {
  describe('FindResults', () => {
    const cases: [string, unknown[][], boolean?][] = [
      ['{.kind}', [['List']]],
      ['{.items[*].metadata.name}', [['a', 'b']]],
      ['{.items[0].spec.tags[1]}', [['y']]],
      ['{.items[0].spec.tags[-1]}', [['z']]],
      ['{.items[0].spec.tags[0:2]}', [['x', 'y']]],
      ['{.items[0].spec.tags[1:]}', [['y', 'z']]],
      ['{.items[0].spec.tags[::2]}', [['x', 'z']]],
      ['{.items[0].spec.tags[0,2]}', [['x', 'z']]],
      ["{.items[0]['metadata']['name']}", [['a']]],
      ['{.items[0].spec.tags[0:0]}', [[]]],
      ['{.items[1].spec.tags[*]}', [[]]],
      ['{.items[0].status.conditions[?(@.type=="Ready")].status}', [['True']]],
      ["{.items[0].status.conditions[?(@.type!='Ready')].type}", [['Synced']]],
      ['{.items[?(@.status)].metadata.name}', [['a']], true],
      ['{.items[?(@.spec.ratio>1)].metadata.name}', [['b']]],
      ['{.items[?(@.spec.ratio<=0.5)].metadata.name}', [['a']]],
      ['{.items[?(@.spec.ok==true)].metadata.name}', [['a']]],
      ['{.items[?(@.metadata.name>="b")].metadata.name}', [['b']]],
      ['{.items[?(@.spec.replicas>=@.spec.replicas)].metadata.name}', [['a', 'b']]],
      // upstream compares a data integer (int64) with an int literal (as float64): never equal, always unequal
      ['{.items[?(@.spec.replicas==3)].metadata.name}', [[]]],
      ['{.items[?(@.spec.replicas!=3)].metadata.name}', [['a', 'b']]],
      ['{.items[?(@.status.conditions[0].type=="Ready")].metadata.name}', [['a']], true],
      ['{..type}', [['Ready', 'Synced']]],
      ['{.items[0].metadata.labels.app\\.x/y}', [['web']]],
      ['{.items[0].spec.*}', [[true, 0.5, 3, ['x', 'y', 'z']]]],
      ['name={.items[0].metadata.name}!', [['name='], ['a'], ['!']]],
      ['{.items[0].metadata.name}{"-"}{3}{true}', [['a'], ['-'], [3], [true]]],
      ['{range .items[*]}{.metadata.name};{end}', [['a'], [';'], ['b'], [';'], []]],
      ['{.spec}', [[]], true],
      ['{.items[*].status.phase}', [[]], true],
    ];
    for (const [text, want, allowMissing] of cases) {
      it(`${text}${allowMissing ? ' (missing keys allowed)' : ''}`, () => {
        expect(find(text, allowMissing)).to.deep.equal(want);
      });
    }
  });

  describe('evaluation errors carry upstream messages', () => {
    const cases: [string, string][] = [
      ['{.spec}', 'spec is not found'],
      ['{.items[?(@.status)].metadata.name}', 'status is not found'],
      ['{.kind[0]}', 'string is not array or slice'],
      ['{.items[0].metadata[0]}', 'map[string]interface {} is not array or slice'],
      ['{.items[5]}', 'array index out of bounds: index 5, length 2'],
      ['{.items[0:5]}', 'array index out of bounds: index 4, length 2'],
      ['{.items[1:0]}', 'starting index 1 is greater than ending index 0'],
      ['{.items[0:2:0]}', 'step must be > 0'],
      ['{end}', 'not in range, nothing to end'],
      ['{foo}', 'unrecognized identifier foo'],
      ['{.items[?(@.spec.tags[*]=="x")]}', 'can only compare one element at a time'],
      ['{.items[?(@.metadata.name==="a")]}', 'unrecognized filter operator ==='],
    ];
    for (const [text, message] of cases) {
      it(`${text} → ${message}`, () => {
        expect(() => find(text)).to.throw(JSONPathEvalError).with.property('message', message);
      });
    }
  });

  it('prints results as upstream Execute does', () => {
    expect(execute('{range .items[*]}{.metadata.name}:{.spec.replicas} {end}')).to.equal('a:3 b:1 ');
    expect(execute('{.items[0].spec.tags}')).to.equal('["x","y","z"]');
    expect(execute('{.items[*].spec.ratio}')).to.equal('0.5 1.5');
  });

  it('evaluates a template many times without changing it', () => {
    const t = parseJSONPath('{range .items[*]}{.metadata.name}{end}');
    const first = evaluateJSONPath(t, data);
    expect(evaluateJSONPath(t, data)).to.deep.equal(first);
  });
});
