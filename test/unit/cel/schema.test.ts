import { expect } from 'chai';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { schemaExtension } from '../../../lib/apis/vendor.js';
import {
  celToJSON,
  compile,
  CompileErrors,
  ConversionError,
  createEnvironment,
  escapeProperty,
  MAX_REQUEST_SIZE_BYTES,
  unescapeProperty,
  type CelEnvironment,
  type OpenAPISchema,
} from '../../../lib/cel/index.js';
import { SchemaTypeBuilder } from '../../../lib/cel/schema-types.js';
import { fails, rejects, table, type Row } from './helpers.js';

const X = {
  intOrString: schemaExtension('int-or-string'),
  preserve: schemaExtension('preserve-unknown-fields'),
  embedded: schemaExtension('embedded-resource'),
  listType: schemaExtension('list-type'),
  mapKeys: schemaExtension('list-map-keys'),
};

const container: OpenAPISchema = {
  type: 'object',
  properties: { name: { type: 'string' }, image: { type: 'string' }, port: { type: 'integer' } },
};

/** A schema exercising every mapping rule of schema-types.ts. */
const SCHEMA: OpenAPISchema = {
  type: 'object',
  required: ['replicas'],
  properties: {
    replicas: { type: 'integer' },
    ratio: { type: 'number' },
    enabled: { type: 'boolean' },
    name: { type: 'string', maxLength: 63 },
    intOrString: { [X.intOrString]: true },
    tags: { type: 'array', items: { type: 'string' }, [X.listType]: 'set' },
    containers: { type: 'array', items: container, [X.listType]: 'map', [X.mapKeys]: ['name'] },
    ordered: { type: 'array', items: { type: 'integer' } },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    counts: { type: 'object', additionalProperties: { type: 'integer' } },
    namespace: { type: 'string' },
    'x-prop': { type: 'string' },
    a__b: { type: 'string' },
    'dotted.name': { type: 'string' },
    'slash/name': { type: 'string' },
    in: { type: 'string' },
    'has space': { type: 'string' },
    created: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    ttl: { type: 'string', format: 'duration' },
    data: { type: 'string', format: 'byte' },
    nullableField: { type: 'string', nullable: true },
    nested: { type: 'object', properties: { count: { type: 'integer' }, note: { type: 'string' } } },
    free: { type: 'object', [X.preserve]: true },
    partial: { type: 'object', [X.preserve]: true, properties: { known: { type: 'string' } } },
    embedded: { type: 'object', [X.embedded]: true, [X.preserve]: true },
    matrix: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
  },
};

const OBJECT = {
  apiVersion: 'example/v1',
  kind: 'Widget',
  metadata: { name: 'obj', namespace: 'default', labels: { hidden: 'yes' } },
  replicas: 3,
  ratio: 0.5,
  enabled: true,
  name: 'web',
  intOrString: '50%',
  tags: ['a', 'b'],
  containers: [
    { name: 'app', image: 'app:1', port: 8080 },
    { name: 'sidecar', image: 'proxy:2' },
  ],
  ordered: [3, 1, 2],
  labels: { app: 'web', tier: 'front' },
  counts: { a: 1, b: 2 },
  namespace: 'ns',
  'x-prop': 'dash',
  a__b: 'under',
  'dotted.name': 'dot',
  'slash/name': 'slash',
  in: 'reserved',
  'has space': 'inaccessible',
  created: '2024-05-01T12:00:00Z',
  day: '2024-05-01',
  ttl: '1h30m',
  data: 'aGVsbG8=',
  nullableField: null,
  nested: { count: 2, note: null },
  free: { anything: 1, list: [1, 2.5, 'x'], deep: { key: true } },
  partial: { known: 'k', unknown: 'u' },
  embedded: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', generateName: 'cm-' }, data: { x: 'y' } },
  matrix: [[1, 2], [3]],
};

/** The same object with its set and map lists reordered (equal under list semantics). */
const REORDERED = { ...OBJECT, tags: ['b', 'a'], containers: [OBJECT.containers[1], OBJECT.containers[0]] };

let env: CelEnvironment | undefined;
const selfEnv = (): CelEnvironment =>
  (env ??= createEnvironment({
    variables: [
      { name: 'self', schema: SCHEMA, resourceRoot: true },
      { name: 'oldSelf', schema: SCHEMA, resourceRoot: true },
    ],
  }));

describe('schema-derived types (spec 000 § Expression language (CEL) in fields)', () => {
  describe('property name escaping', () => {
    const cases: Array<[string, string | undefined]> = [
      ['name', 'name'],
      ['namespace', '__namespace__'],
      ['in', '__in__'],
      ['true', '__true__'],
      ['x-prop', 'x__dash__prop'],
      ['redact__d', 'redact__underscores__d'],
      ['dotted.name', 'dotted__dot__name'],
      ['slash/name', 'slash__slash__name'],
      ['_private', '_private'],
      ['-leading', '__dash__leading'],
      ['int', 'int'],
      ['has space', undefined],
      ['1digit', undefined],
      ['', undefined],
      ['ünïcode', undefined],
      ['a:b', undefined],
    ];
    for (const [property, ident] of cases) {
      it(`${JSON.stringify(property)} ↔ ${ident ?? 'inaccessible'}`, () => {
        expect(escapeProperty(property)).to.equal(ident);
        if (ident !== undefined) expect(unescapeProperty(ident)).to.equal(property);
      });
    }
    it('rejects unknown escape sequences', () => {
      expect(unescapeProperty('a__bogus__b')).to.equal(undefined);
      expect(unescapeProperty('plain')).to.equal('plain');
    });
  });

  describe('type mapping', () => {
    const types = new SchemaTypeBuilder();
    const root = types.build(SCHEMA, 'self', true);
    const field = (name: string) => (root?.kind === 'object' ? root.fields.get(name)?.type : undefined);

    it('maps scalars, formats and int-or-string', () => {
      expect(field('replicas')).to.include({ kind: 'primitive', name: 'int' });
      expect(field('ratio')).to.include({ kind: 'primitive', name: 'double' });
      expect(field('enabled')).to.include({ kind: 'primitive', name: 'bool' });
      expect(field('created')).to.include({ kind: 'primitive', name: 'google.protobuf.Timestamp' });
      expect(field('ttl')).to.include({ kind: 'primitive', name: 'google.protobuf.Duration' });
      expect(field('data')).to.include({ kind: 'primitive', name: 'bytes' });
      expect(field('intOrString')).to.include({ kind: 'dyn', intOrString: true });
      expect(field('free')).to.include({ kind: 'dyn' });
    });
    it('maps lists with their list type and maps from additionalProperties', () => {
      expect(field('tags')).to.include({ kind: 'list', listType: 'set' });
      expect(field('containers')).to.deep.include({ kind: 'list', listType: 'map', mapKeys: ['name'] });
      expect(field('ordered')).to.include({ kind: 'list', listType: 'atomic' });
      expect(field('labels')).to.include({ kind: 'map' });
    });
    it('escapes property names and leaves inaccessible ones out', () => {
      const names = root?.kind === 'object' ? [...root.fields.keys()] : [];
      expect(names).to.include.members(['__namespace__', 'x__dash__prop', 'a__underscores__b', 'dotted__dot__name', 'slash__slash__name', '__in__']);
      expect(names).to.not.include('has space');
    });
    it('adds apiVersion, kind and metadata.name / generateName at a resource root and in embedded resources', () => {
      expect(field('apiVersion')).to.include({ name: 'string' });
      const meta = field('metadata');
      expect(meta?.kind === 'object' ? [...meta.fields.keys()] : []).to.have.members(['name', 'generateName']);
      const embedded = field('embedded');
      expect(embedded?.kind === 'object' ? [...embedded.fields.keys()] : []).to.include.members(['apiVersion', 'kind', 'metadata']);
    });
    it('bounds sizes by maxLength (×4 bytes), maxItems, maxProperties or the request size', () => {
      expect(field('name')?.maxElements).to.equal(63 * 4);
      const bounded = types.build({ type: 'array', maxItems: 7, items: { type: 'integer' } }, 'b');
      expect(bounded?.maxElements).to.equal(7);
      const unbounded = types.build({ type: 'array', items: { type: 'integer' } }, 'u');
      expect(unbounded?.maxElements).to.equal(Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / 2));
      const props = types.build({ type: 'object', maxProperties: 5, additionalProperties: { type: 'string' } }, 'p');
      expect(props?.maxElements).to.equal(5);
      const enumString = types.build({ type: 'string', enum: ['a', 'bbb'] }, 'e');
      expect(enumString?.maxElements).to.equal(3);
    });
    it('names object types after the variable and path, and reuses the type of a schema object', () => {
      expect(root?.kind === 'object' ? root.name : '').to.equal('selfType');
      const nested = field('nested');
      expect(nested?.kind === 'object' ? nested.name : '').to.equal('selfType.nested');
      expect(types.build(SCHEMA, 'oldSelf', true)).to.equal(root);
    });
    it('leaves out schemas with nothing to express', () => {
      expect(types.build({ type: 'array' }, 'x')).to.equal(undefined);
      expect(types.build({}, 'y')).to.equal(undefined);
    });
  });

  describe('expressions over schema-typed objects', () => {
    const rows: Row[] = [
      ['self.replicas * 2', 6n],
      ['self.ratio * 2.0', 1.0],
      ['self.enabled', true],
      ['self.name', 'web'],
      ['self.name.size() <= 63', true],
      ["type(self.intOrString) == string ? self.intOrString == '50%' : self.intOrString < 100", true],
      ['self.ordered', [3n, 1n, 2n]],
      ['self.ordered == [1, 2, 3]', false],
      ["self.labels['app']", 'web'],
      ["'tier' in self.labels", true],
      ['self.labels.all(k, k.size() > 2)', true],
      ["self.counts['b'] + 1", 3n],
      ['self.__namespace__', 'ns'],
      ['self.x__dash__prop', 'dash'],
      ['self.a__underscores__b', 'under'],
      ['self.dotted__dot__name', 'dot'],
      ['self.slash__slash__name', 'slash'],
      ['self.__in__', 'reserved'],
      ['self.namespace', rejects(/undefined field 'namespace'/)],
      ['self.nope', rejects(/undefined field 'nope'/)],
      ['self.replicas + 1.0', rejects(/no such overload/)],
      ["self.created < timestamp('2030-01-01T00:00:00Z')", true],
      ["self.created + duration('1h') == timestamp('2024-05-01T13:00:00Z')", true],
      ["self.day == timestamp('2024-05-01T00:00:00Z')", true],
      ["self.ttl == duration('90m')", true],
      ["self.data == b'hello'", true],
      ['has(self.nullableField)', false],
      ['self.nullableField', fails(/No such key: nullableField/)],
      ['has(self.nested.note)', false],
      ['self.nested.count', 2n],
      ['has(self.ratio)', true],
      ['self.?nested.?note.orValue("none")', 'none'],
      ['self.free.anything == 1', true],
      ['self.free.list[1] == 2.5', true],
      ["self.free.deep.key", true],
      ['has(self.free.missing)', false],
      ['self.partial.known', 'k'],
      ['self.partial.unknown', rejects(/undefined field 'unknown'/)],
      ['self.embedded.metadata.generateName', 'cm-'],
      ['self.embedded.kind', 'ConfigMap'],
      ['self.metadata.name', 'obj'],
      ['self.apiVersion', 'example/v1'],
      ['has(self.metadata.namespace)', rejects(/undefined field 'namespace'/)],
      ['self.matrix[0][1] + self.matrix[1][0]', 5n],
      ['self.containers.exists(c, c.name == "app" && c.port == 8080)', true],
      ["self.containers.filter(c, has(c.port)).map(c, c.name)", ['app']],
      ['type(self) == type(oldSelf)', true],
    ];
    table(rows, selfEnv, () => ({ self: OBJECT, oldSelf: OBJECT }));
  });

  describe('set and map lists: order-insensitive equality, union and merge', () => {
    const rows: Row[] = [
      ['self.tags == oldSelf.tags', true],
      ["self.tags == ['b', 'a']", true],
      ["self.tags == ['a', 'b', 'c']", false],
      ["['b', 'a'] == self.tags", false],
      ["self.tags + ['c', 'a']", ['a', 'b', 'c']],
      ["(self.tags + ['c', 'a', 'c']).size()", 3n],
      ["oldSelf.tags + self.tags", ['b', 'a']],
      ['self.containers == oldSelf.containers', true],
      ['self.containers.map(c, c.name) == oldSelf.containers.map(c, c.name)', false],
      ['(self.containers + oldSelf.containers).map(c, c.name)', ['app', 'sidecar']],
      ['self == oldSelf', true],
      ['self.ordered + [4]', [3n, 1n, 2n, 4n]],
    ];
    table(rows, selfEnv, () => ({ self: OBJECT, oldSelf: REORDERED }));
    table(
      [
        ['(self.containers + oldSelf.containers).map(c, c.image)', ['app:2', 'proxy:2', 'new:1']],
        ['self.containers == oldSelf.containers', false],
        ['self == oldSelf', false],
      ],
      selfEnv,
      () => ({
        self: OBJECT,
        oldSelf: { ...OBJECT, containers: [{ name: 'app', image: 'app:2' }, { name: 'new', image: 'new:1' }] },
      }),
    );
  });

  describe('conversion of data to runtime values', () => {
    it('converts integers to BigInt and numbers to doubles', () => {
      const prepared = selfEnv().prepare({ self: OBJECT });
      const self = prepared.values.self as Map<string, unknown>;
      expect(self.get('replicas')).to.equal(3n);
      expect(self.get('ratio')).to.equal(0.5);
      expect(self.get('ttl')).to.be.instanceOf(Duration);
      expect(self.has('nullableField')).to.equal(false);
    });
    it('reports data that does not fit the schema with its path', () => {
      const env = selfEnv();
      expect(() => env.prepare({ self: { ...OBJECT, replicas: 'three' } })).to.throw(ConversionError, /invalid data at self\.replicas: expected int, got string/);
      expect(() => env.prepare({ self: { ...OBJECT, ordered: [1, 'x'] } })).to.throw(ConversionError, /self\.ordered\[1\]/);
      expect(() => env.prepare({ self: { ...OBJECT, ratio: 1.5, replicas: 1.5 } })).to.throw(ConversionError, /expected int/);
      expect(() => env.prepare({ self: { ...OBJECT, created: 'yesterday' } })).to.throw(ConversionError, /invalid date-time/);
      expect(() => env.prepare({ self: { ...OBJECT, ttl: '1d' } })).to.throw(ConversionError, /invalid duration/);
    });
    it('returns a conversion failure as an evaluation error', () => {
      const program = compile('self.replicas > 0', selfEnv());
      if (program instanceof CompileErrors) expect.fail(program.message);
      const result = program.evaluate({ self: { ...OBJECT, replicas: 'x' } });
      expect(result.ok).to.equal(false);
      if (!result.ok) expect(result.error.message).to.match(/self\.replicas/);
    });
    it('converts results back to JSON with property names restored', () => {
      const program = compile('self.nested', selfEnv());
      if (program instanceof CompileErrors) expect.fail(program.message);
      const result = program.evaluate({ self: OBJECT });
      expect(result.ok && celToJSON(result.value)).to.deep.equal({ count: 2 });
      const json = (expression: string) => {
        const p = compile(expression, selfEnv());
        if (p instanceof CompileErrors) expect.fail(p.message);
        const r = p.evaluate({ self: OBJECT, oldSelf: OBJECT });
        return r.ok ? celToJSON(r.value) : expect.fail(r.error.message);
      };
      expect(json('self.created')).to.equal('2024-05-01T12:00:00Z');
      expect(json('self.ttl')).to.equal('1h30m0s');
      expect(json('self.data')).to.equal('aGVsbG8=');
      expect(json('9007199254740993')).to.equal('9007199254740993');
      expect(json('self.containers[1]')).to.deep.equal({ name: 'sidecar', image: 'proxy:2' });
      expect(json('self.embedded.metadata')).to.deep.equal({ name: 'cm', generateName: 'cm-' });
      expect(json("quantity('1.5Gi')")).to.equal('1536Mi');
    });
  });
});
