import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { compileSchemaRules, evaluateSchemaRules } from '../../../../lib/apiextensions/cel/index.js';
import { EXT, type JSONSchemaProps, type ValidationRule } from '../../../../lib/apiextensions/types.js';

const V = EXT.validations;
type Json = Record<string, unknown>;

/** A resource schema whose `spec` has `props` and `rules`. */
function specSchema(props: Record<string, JSONSchemaProps>, rules: ValidationRule[] = [], rootRules?: ValidationRule[]): JSONSchemaProps {
  return {
    type: 'object',
    ...(rootRules ? { [V]: rootRules } : {}),
    properties: { spec: { type: 'object', properties: props, [V]: rules } },
  };
}

const int: JSONSchemaProps = { type: 'integer' };
const str: JSONSchemaProps = { type: 'string', maxLength: 64 };
const counts = { replicas: int, max: int };

interface Case {
  name: string;
  schema: JSONSchemaProps;
  obj: Json;
  old?: Json;
  opts?: { costBudget?: number; ratcheting?: boolean };
  errors: string[];
  warnings?: string[];
}

const mapList = (itemRules: ValidationRule[]): JSONSchemaProps => ({
  type: 'array',
  maxItems: 10,
  [EXT.listType]: 'map',
  [EXT.listMapKeys]: ['name'],
  items: { type: 'object', required: ['name'], properties: { name: str, value: int }, [V]: itemRules },
});

const cases: Case[] = [
  { name: 'a passing rule', schema: specSchema(counts, [{ rule: 'self.replicas <= self.max' }]), obj: { spec: { replicas: 1, max: 3 } }, errors: [] },
  {
    name: 'failing rule without message',
    schema: specSchema(counts, [{ rule: ' self.replicas <= self.max ' }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Invalid value: "object": failed rule: self.replicas <= self.max'],
  },
  {
    name: 'failing rule with message (trimmed)',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: ' too many replicas ' }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Invalid value: "object": too many replicas'],
  },
  {
    name: 'messageExpression result',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'm', messageExpression: "'replicas ' + string(self.replicas) + ' over ' + string(self.max)" }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Invalid value: "object": replicas 5 over 3'],
  },
  {
    name: 'messageExpression that errs falls back to message',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'fallback', messageExpression: "'x' + string(self.replicas / (self.max - 3))" }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Invalid value: "object": fallback'],
  },
  {
    name: 'blank messageExpression result falls back to the rule',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', messageExpression: "'  '" }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Invalid value: "object": failed rule: self.replicas <= self.max'],
  },
  {
    name: 'messageExpression with a line break falls back',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'plain', messageExpression: "'a\\nb'" }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Invalid value: "object": plain'],
  },
  {
    name: 'reason FieldValueForbidden',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'no', reason: 'FieldValueForbidden' }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Forbidden: no'],
  },
  {
    name: 'reason FieldValueRequired',
    schema: specSchema(counts, [{ rule: 'has(self.max)', message: 'max is needed', reason: 'FieldValueRequired' }]),
    obj: { spec: { replicas: 5 } },
    errors: ['spec: Required value: max is needed'],
  },
  {
    name: 'reason FieldValueDuplicate',
    schema: specSchema(counts, [{ rule: 'self.replicas != self.max', reason: 'FieldValueDuplicate' }]),
    obj: { spec: { replicas: 3, max: 3 } },
    errors: ['spec: Duplicate value: "object"'],
  },
  {
    name: 'fieldPath relocates the error',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'too many', fieldPath: '.replicas' }]),
    obj: { spec: { replicas: 5, max: 3 } },
    errors: ['spec.replicas: Invalid value: "object": too many'],
  },
  {
    name: 'fieldPath into a map uses a key',
    schema: specSchema({ labels: { type: 'object', maxProperties: 5, additionalProperties: str } }, [{ rule: "!('bad' in self.labels)", fieldPath: '.labels.bad' }]),
    obj: { spec: { labels: { bad: 'x' } } },
    errors: ["spec.labels[bad]: Invalid value: \"object\": failed rule: !('bad' in self.labels)"],
  },
  {
    name: 'a rule at the root prints the nil path',
    schema: specSchema(counts, [], [{ rule: "self.metadata.name.startsWith('ok-')" }]),
    obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'bad', uid: 'u' }, spec: {} },
    errors: ['<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith(\'ok-\')'],
  },
  {
    name: 'integers reach the rule as ints, numbers as doubles',
    schema: specSchema({ n: int, ratio: { type: 'number' } }, [{ rule: 'self.n + 1 == 4 && self.n / 2 == 1 && self.ratio > 0.5' }]),
    obj: { spec: { n: 3, ratio: 1 } },
    errors: [],
  },
  {
    name: 'int-or-string values',
    schema: specSchema({ port: { [EXT.intOrString]: true } }, [{ rule: "type(self.port) == int ? self.port > 0 : self.port.endsWith('%')" }]),
    obj: { spec: { port: 'x' } },
    errors: ["spec: Invalid value: \"object\": failed rule: type(self.port) == int ? self.port > 0 : self.port.endsWith('%')"],
  },
  {
    name: 'items of a list',
    schema: specSchema({ tags: { type: 'array', maxItems: 5, items: { ...str, [V]: [{ rule: 'self.size() < 3', message: 'short tags' }] } } }),
    obj: { spec: { tags: ['ok', 'long', 'no'] } },
    errors: ['spec.tags[1]: Invalid value: "string": short tags'],
  },
  {
    name: 'values of a map',
    schema: specSchema({ limits: { type: 'object', maxProperties: 5, additionalProperties: { ...int, [V]: [{ rule: 'self >= 0' }] } } }),
    obj: { spec: { limits: { cpu: 1, mem: -1 } } },
    errors: ['spec.limits[mem]: Invalid value: "integer": failed rule: self >= 0'],
  },
  {
    name: 'null and absent values are not validated',
    schema: specSchema({ a: { type: 'integer', nullable: true, [V]: [{ rule: 'self > 0' }] } }),
    obj: { spec: { a: null } },
    errors: [],
  },
  {
    name: 'embedded resources are typed as resource roots',
    schema: specSchema({ template: { type: 'object', [EXT.embeddedResource]: true, [EXT.preserveUnknownFields]: true, [V]: [{ rule: "self.kind == 'Pod'" }] } }),
    obj: { spec: { template: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } } } },
    errors: ['spec.template: Invalid value: "object": failed rule: self.kind == \'Pod\''],
  },
  {
    name: 'evaluation error',
    schema: specSchema(counts, [{ rule: 'self.replicas / self.max > 1' }]),
    obj: { spec: { replicas: 5, max: 0 } },
    errors: ['spec: Invalid value: "object": division by zero evaluating rule: self.replicas / self.max > 1'],
  },
  {
    name: 'evaluation error names the message when there is one',
    schema: specSchema(counts, [{ rule: 'self.replicas / self.max > 1', message: 'ratio must be large' }]),
    obj: { spec: { replicas: 5, max: 0 } },
    errors: ['spec: Invalid value: "object": division by zero evaluating rule: ratio must be large'],
  },
  {
    name: 'transition rule does not run on create',
    schema: specSchema(counts, [{ rule: 'self.replicas >= oldSelf.replicas', message: 'no shrinking' }]),
    obj: { spec: { replicas: 1 } },
    errors: [],
  },
  {
    name: 'transition rule runs on update',
    schema: specSchema(counts, [{ rule: 'self.replicas >= oldSelf.replicas', message: 'no shrinking' }]),
    obj: { spec: { replicas: 1 } },
    old: { spec: { replicas: 2 } },
    errors: ['spec: Invalid value: "object": no shrinking'],
  },
  {
    name: 'messageExpression of a transition rule reads oldSelf',
    schema: specSchema(counts, [{ rule: 'self.replicas >= oldSelf.replicas', messageExpression: "'cannot go below %d'.format([oldSelf.replicas])" }]),
    obj: { spec: { replicas: 1 } },
    old: { spec: { replicas: 2 } },
    errors: ['spec: Invalid value: "object": cannot go below 2'],
  },
  {
    name: 'an old value that no longer fits the schema does not affect other rules',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'too many' }]),
    obj: { spec: { replicas: 5, max: 3 } },
    old: { spec: { replicas: 'five', max: 3 } },
    errors: ['spec: Invalid value: "object": too many'],
  },
  {
    name: 'transition rule does not run where the old value is missing',
    schema: specSchema({ inner: { type: 'object', properties: counts, [V]: [{ rule: 'self == oldSelf', message: 'immutable' }] } }),
    obj: { spec: { inner: { replicas: 1 } } },
    old: { spec: {} },
    errors: [],
  },
  {
    name: 'optionalOldSelf runs on create with an empty optional',
    schema: specSchema(counts, [{ rule: 'oldSelf.hasValue() || self.replicas < 10', message: 'start small', optionalOldSelf: true }]),
    obj: { spec: { replicas: 20 } },
    errors: ['spec: Invalid value: "object": start small'],
  },
  {
    name: 'optionalOldSelf sees the old value on update',
    schema: specSchema(counts, [{ rule: 'oldSelf.hasValue() && self.replicas <= oldSelf.value().replicas + 1', message: 'grow by one', optionalOldSelf: true }]),
    obj: { spec: { replicas: 20 } },
    old: { spec: { replicas: 10 } },
    errors: ['spec: Invalid value: "object": grow by one'],
  },
  {
    name: 'map-list items correlate by key',
    schema: specSchema({ entries: mapList([{ rule: 'self.value >= oldSelf.value', message: 'values only grow' }]) }),
    obj: { spec: { entries: [{ name: 'new', value: 0 }, { name: 'b', value: 1 }, { name: 'a', value: 5 }] } },
    old: { spec: { entries: [{ name: 'a', value: 1 }, { name: 'b', value: 2 }] } },
    errors: ['spec.entries[1]: Invalid value: "object": values only grow'],
  },
  {
    name: 'map values correlate by key',
    schema: specSchema({ limits: { type: 'object', maxProperties: 5, additionalProperties: { ...int, [V]: [{ rule: 'self == oldSelf', message: 'immutable' }] } } }),
    obj: { spec: { limits: { cpu: 2, mem: 1 } } },
    old: { spec: { limits: { cpu: 1 } } },
    errors: ['spec.limits[cpu]: Invalid value: "integer": immutable'],
  },
  {
    name: 'ratcheting: an unchanged invalid value gives a warning',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'too many' }]),
    obj: { spec: { replicas: 5, max: 3 } },
    old: { spec: { replicas: 5, max: 3 } },
    errors: [],
    warnings: ['spec: Invalid value: "object": too many'],
  },
  {
    name: 'ratcheting off: the unchanged invalid value is an error',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'too many' }]),
    obj: { spec: { replicas: 5, max: 3 } },
    old: { spec: { replicas: 5, max: 3 } },
    opts: { ratcheting: false },
    errors: ['spec: Invalid value: "object": too many'],
  },
  {
    name: 'ratcheting: a changed invalid value is an error',
    schema: specSchema(counts, [{ rule: 'self.replicas <= self.max', message: 'too many' }]),
    obj: { spec: { replicas: 6, max: 3 } },
    old: { spec: { replicas: 5, max: 3 } },
    errors: ['spec: Invalid value: "object": too many'],
  },
  {
    name: 'ratcheting: only the changed map-list item is an error',
    schema: specSchema({ entries: mapList([{ rule: 'self.value < 10', message: 'small values' }]) }),
    obj: { spec: { entries: [{ name: 'b', value: 20 }, { name: 'a', value: 11 }] } },
    old: { spec: { entries: [{ name: 'a', value: 11 }, { name: 'b', value: 12 }] } },
    errors: ['spec.entries[0]: Invalid value: "object": small values'],
    warnings: ['spec.entries[1]: Invalid value: "object": small values'],
  },
  {
    name: 'ratcheting: items of an unchanged atomic list give warnings',
    schema: specSchema({ tags: { type: 'array', maxItems: 5, items: { ...str, [V]: [{ rule: 'self.size() < 3' }] } }, other: int }),
    obj: { spec: { tags: ['long'], other: 2 } },
    old: { spec: { tags: ['long'], other: 1 } },
    errors: [],
    warnings: ['spec.tags[0]: Invalid value: "string": failed rule: self.size() < 3'],
  },
  {
    name: 'ratcheting: items of a reordered atomic list are errors',
    schema: specSchema({ tags: { type: 'array', maxItems: 5, items: { ...str, [V]: [{ rule: 'self.size() < 3' }] } } }),
    obj: { spec: { tags: ['ok', 'long'] } },
    old: { spec: { tags: ['long', 'ok'] } },
    errors: ['spec.tags[1]: Invalid value: "string": failed rule: self.size() < 3'],
  },
  {
    name: 'ratcheting never applies to transition rules',
    schema: specSchema(counts, [{ rule: 'self.replicas > oldSelf.replicas', message: 'must grow' }]),
    obj: { spec: { replicas: 5 } },
    old: { spec: { replicas: 5 } },
    errors: ['spec: Invalid value: "object": must grow'],
  },
  {
    name: 'the shared budget runs out',
    schema: specSchema({ tags: { type: 'array', maxItems: 5, items: { ...str, [V]: [{ rule: 'self.size() < 10' }] } } }),
    obj: { spec: { tags: ['a', 'b', 'c'] } },
    opts: { costBudget: 5 },
    errors: ['spec.tags[1]: Invalid value: "string": validation failed due to running out of cost budget, no further validation rules will be run'],
  },
];

describe('apiextensions/cel evaluateSchemaRules', () => {
  for (const c of cases) {
    it(c.name, () => {
      const out = evaluateSchemaRules(compileSchemaRules(c.schema), c.obj, c.old, c.opts);
      expect(out.errors.map(fieldErrorString)).to.deep.equal(c.errors);
      expect(out.warnings).to.deep.equal(c.warnings ?? []);
    });
  }

  it('stops at the per-call limit', () => {
    const schema = specSchema({ tags: { type: 'array', items: { type: 'string' } } }, [{ rule: 'self.tags.all(x, self.tags.all(y, x != y || x == y))', message: 'quadratic' }, { rule: 'false' }]);
    const tags = Array.from({ length: 1200 }, (_, i) => `t${i}`);
    const out = evaluateSchemaRules(compileSchemaRules(schema), { spec: { tags } }, undefined);
    expect(out.errors.map(fieldErrorString)).to.deep.equal([
      "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: quadratic",
    ]);
  });

  it('reports a rule that did not compile at every evaluation', () => {
    const schema = specSchema(counts, [{ rule: 'self.nope > 1' }]);
    const out = evaluateSchemaRules(compileSchemaRules(schema), { spec: { replicas: 1 } }, undefined);
    expect(out.errors.map(fieldErrorString)).to.deep.equal([
      "spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:6: undefined field 'nope'\n | self.nope > 1\n | .....^",
    ]);
  });

  it('compiles once per schema object and records transition rules and costs', () => {
    const schema = specSchema(counts, [{ rule: 'self.replicas >= oldSelf.replicas' }, { rule: 'self.replicas < 5' }]);
    const compiled = compileSchemaRules(schema);
    expect(compileSchemaRules(schema)).to.equal(compiled);
    expect(compiled.rules.map((r) => r.usesOldSelf)).to.deep.equal([true, false]);
    expect(compiled.rules.every((r) => r.maxCost > 0 && r.program !== undefined)).to.equal(true);
  });

  it('a schema without rules validates nothing', () => {
    const compiled = compileSchemaRules(specSchema(counts));
    expect(compiled.root).to.equal(undefined);
    expect(evaluateSchemaRules(compiled, { spec: { replicas: 'x' } }, undefined)).to.deep.equal({ errors: [], warnings: [] });
  });
});
