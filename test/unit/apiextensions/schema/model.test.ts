import { expect } from 'chai';
import { indexList, listItemElement, resolve } from '../../../../lib/apimachinery/managedfields/typeinfo.js';
import { type Field, type ListSchema, type MapSchema, type Schema, type StructSchema, structFields } from '../../../../lib/apimachinery/schema/types.js';
import { objectMeta } from '../../../../lib/apis/meta/v1/types.js';
import { toStructSchema } from '../../../../lib/apiextensions/schema/index.js';
import { EXT, type JSONSchemaProps } from '../../../../lib/apiextensions/types.js';

const ID = 'io.example.stable.v1.CronTab';

const field = (s: StructSchema, ...path: string[]): Field => {
  let cur: Schema = s;
  let f: Field | undefined;
  for (const name of path) {
    if (cur.type === 'list') cur = cur.items;
    if (cur.type === 'map') cur = cur.values;
    if (cur.type !== 'struct') throw new Error(`${name}: not a struct`);
    f = structFields(cur)[name];
    if (!f) throw new Error(`no field ${name}`);
    cur = f.schema;
  }
  return f as Field;
};

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
    spec: {
      type: 'object',
      required: ['image'],
      description: 'the spec',
      properties: {
        image: { type: 'string', description: 'an image', pattern: '^[a-z]+$', minLength: 1, maxLength: 63, enum: ['a', 'b'], format: 'hostname' },
        replicas: { type: 'integer', default: 1, minimum: 0, maximum: 10 },
        small: { type: 'integer', format: 'int32' },
        ratio: { type: 'number', format: 'float', nullable: true },
        ratio2: { type: 'number' },
        paused: { type: 'boolean' },
        port: { [EXT.intOrString]: true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        labels: { type: 'object', additionalProperties: { type: 'string' }, [EXT.mapType]: 'atomic' },
        selector: { type: 'object', [EXT.mapType]: 'atomic', properties: { app: { type: 'string' } } },
        values: { type: 'object', [EXT.preserveUnknownFields]: true },
        anything: { [EXT.preserveUnknownFields]: true },
        extra: { type: 'object', [EXT.preserveUnknownFields]: true, properties: { known: { type: 'string' } } },
        empty: { type: 'object' },
        ports: {
          type: 'array',
          maxItems: 16,
          [EXT.listType]: 'map',
          [EXT.listMapKeys]: ['containerPort', 'protocol'],
          items: {
            type: 'object',
            required: ['containerPort'],
            properties: { containerPort: { type: 'integer', format: 'int32' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } },
          },
        },
        tags: { type: 'array', [EXT.listType]: 'set', items: { type: 'string' } },
        matrix: { type: 'array', items: { type: 'array', items: { type: 'object', properties: { v: { type: 'number' } } } } },
        template: { type: 'object', [EXT.embeddedResource]: true, properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } },
        raw: { type: 'object', [EXT.embeddedResource]: true, [EXT.preserveUnknownFields]: true },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
  [EXT.preserveUnknownFields]: true,
};

describe('apiextensions/schema toStructSchema (CRD schema → type model)', () => {
  const model = toStructSchema(schema, ID);

  it('gives the root kind, apiVersion, ObjectMeta metadata, then the properties', () => {
    expect(model).to.include({ type: 'struct', id: ID, preserveUnknownFields: true });
    expect(Object.keys(structFields(model))).to.deep.equal(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(field(model, 'kind')).to.deep.equal({ schema: { type: 'string' }, proto: 0, omitEmpty: true });
    expect(field(model, 'apiVersion').schema).to.deep.equal({ type: 'string' });
    expect(field(model, 'metadata').schema).to.equal(objectMeta);
  });

  it('names nested structs after their path', () => {
    expect(field(model, 'spec').schema).to.include({ type: 'struct', id: `${ID}.spec`, description: 'the spec' });
    expect(field(model, 'spec', 'ports').schema.type).to.equal('list');
    expect((field(model, 'spec', 'ports').schema as ListSchema).items).to.include({ type: 'struct', id: `${ID}.spec.ports.items` });
    const matrix = field(model, 'spec', 'matrix').schema as ListSchema;
    expect((matrix.items as ListSchema).items).to.include({ type: 'struct', id: `${ID}.spec.matrix.items.items` });
  });

  const leaves: Array<[string, string[], Field]> = [
    [
      'a string with its constraints, required, described',
      ['spec', 'image'],
      {
        schema: { type: 'string', description: 'an image', format: 'hostname', enum: ['a', 'b'], maxLength: 63, minLength: 1, pattern: '^[a-z]+$' },
        proto: 0,
        omitEmpty: true,
        required: true,
        description: 'an image',
      },
    ],
    ['an int64 with bounds and a default', ['spec', 'replicas'], { schema: { type: 'integer', format: 'int64', minimum: 0, maximum: 10 }, proto: 0, omitEmpty: true, default: 1 }],
    ['an int32', ['spec', 'small'], { schema: { type: 'integer', format: 'int32' }, proto: 0, omitEmpty: true }],
    ['a nullable float', ['spec', 'ratio'], { schema: { type: 'number', format: 'float', nullable: true }, proto: 0, omitEmpty: true }],
    ['a number without format', ['spec', 'ratio2'], { schema: { type: 'number' }, proto: 0, omitEmpty: true }],
    ['a boolean', ['spec', 'paused'], { schema: { type: 'boolean' }, proto: 0, omitEmpty: true }],
    ['an int-or-string', ['spec', 'port'], { schema: { type: 'int-or-string' }, proto: 0, omitEmpty: true }],
    ['an atomic map', ['spec', 'labels'], { schema: { type: 'map', values: { type: 'string' }, mapType: 'atomic' }, proto: 0, omitEmpty: true }],
    ['a set', ['spec', 'tags'], { schema: { type: 'list', items: { type: 'string' }, listType: 'set' }, proto: 0, omitEmpty: true }],
    ['a list key with a default', ['spec', 'ports', 'protocol'], { schema: { type: 'string' }, proto: 0, omitEmpty: true, default: 'TCP' }],
  ];
  for (const [name, path, want] of leaves) {
    it(`converts ${name}`, () => {
      expect(field(model, ...path)).to.deep.equal(want);
    });
  }

  it('converts a map-keyed list with its keys and maxItems', () => {
    const ports = field(model, 'spec', 'ports').schema as ListSchema;
    expect(ports).to.include({ listType: 'map', maxItems: 16 });
    expect(ports.listMapKeys).to.deep.equal(['containerPort', 'protocol']);
    expect(field(model, 'spec', 'ports', 'containerPort').required).to.equal(true);
  });

  it('keeps atomic structs and structs preserving unknown fields', () => {
    expect(field(model, 'spec', 'selector').schema).to.include({ type: 'struct', mapType: 'atomic' });
    const extra = field(model, 'spec', 'extra').schema as StructSchema;
    expect(extra).to.include({ type: 'struct', preserveUnknownFields: true });
    expect(Object.keys(structFields(extra))).to.deep.equal(['known']);
  });

  it('makes objects without properties field-less structs (preserving unknown fields when asked)', () => {
    expect(field(model, 'spec', 'values').schema).to.deep.equal({ type: 'struct', id: `${ID}.spec.values`, fields: {}, preserveUnknownFields: true });
    expect(field(model, 'spec', 'anything').schema).to.deep.equal({ type: 'struct', id: `${ID}.spec.anything`, fields: {}, preserveUnknownFields: true });
    expect(field(model, 'spec', 'empty').schema).to.deep.equal({ type: 'struct', id: `${ID}.spec.empty`, fields: {} });
  });

  it('gives embedded resources apiVersion, kind and metadata', () => {
    const template = field(model, 'spec', 'template').schema as StructSchema;
    expect(Object.keys(structFields(template))).to.deep.equal(['kind', 'apiVersion', 'metadata', 'spec']);
    expect(template.preserveUnknownFields).to.equal(undefined);
    expect(field(model, 'spec', 'template', 'metadata').schema).to.equal(objectMeta);
    expect(field(model, 'spec', 'template', 'spec', 'x').schema).to.deep.equal({ type: 'string' });
    const raw = field(model, 'spec', 'raw').schema as StructSchema;
    expect(raw).to.include({ type: 'struct', preserveUnknownFields: true });
    expect(Object.keys(structFields(raw))).to.deep.equal(['kind', 'apiVersion', 'metadata']);
  });

  it('fits the managed-fields walker: map-list keys take schema defaults', () => {
    const node = resolve(field(model, 'spec', 'ports').schema, []);
    expect(node).to.include({ kind: 'list', listType: 'map' });
    if (node.kind !== 'list') throw new Error('not a list');
    expect(listItemElement(node, { containerPort: 80 }, 0).id).to.equal(listItemElement(node, { containerPort: 80, protocol: 'TCP' }, 1).id);
    expect(indexList(node, [{ containerPort: 80 }, { containerPort: 80, protocol: 'UDP' }], []).pes).to.have.length(2);
    const labels = resolve(field(model, 'spec', 'labels').schema, {});
    expect(labels).to.include({ kind: 'map', atomic: true });
    expect(resolve(field(model, 'spec', 'values').schema, { a: 1 })).to.include({ kind: 'struct', atomic: false });
  });

  it('gives clashing paths distinct ids', () => {
    const m = toStructSchema({ type: 'object', properties: { 'a.b': { type: 'object', properties: {} , [EXT.preserveUnknownFields]: true }, a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } } } }, 'x');
    const ids = [(field(m, 'a.b').schema as StructSchema).id, (field(m, 'a', 'b').schema as StructSchema).id];
    expect(ids).to.deep.equal(['x.a.b', 'x.a.b~2']);
  });

  it('reads a map of maps and a list without items', () => {
    const m = toStructSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } } }, l: { type: 'array' } } }, 'y');
    expect(field(m, 'm').schema).to.deep.equal({ type: 'map', values: { type: 'map', values: { type: 'integer', format: 'int64' } } } satisfies MapSchema);
    expect(field(m, 'l').schema).to.deep.equal({ type: 'list', items: { type: 'raw' } });
  });

  it('never throws on malformed input and caches nothing', () => {
    expect(() => toStructSchema(null as unknown as JSONSchemaProps, 'z')).not.to.throw();
    expect(() => toStructSchema({ type: 'object', properties: [1, 2] as unknown as Record<string, JSONSchemaProps>, items: 'x' } as unknown as JSONSchemaProps, 'z')).not.to.throw();
    expect(toStructSchema(schema, ID)).not.to.equal(model);
    expect(toStructSchema(schema, ID)).to.deep.equal(model);
  });
});
