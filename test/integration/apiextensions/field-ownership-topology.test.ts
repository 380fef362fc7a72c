/**
 * Field ownership across a schema change of topology on a CustomResourceDefinition changed at
 * run time (spec 000 § Field ownership, the two topology rows; issue #20 for issue #14): a
 * map-keyed list, a set and a granular struct that become atomic are owned whole by every manager
 * that owned anything inside them, so later changes conflict; an atomic list and struct that
 * become map/granular keep their previous owner on the top-level field only, and later changes of
 * inner keys do not conflict. The last row is the spec's text: upstream's structured-merge-diff
 * instead hands the previous owner every inner field the live object has (buildGranularFieldSet).
 */
import { expect } from 'chai';
import { EXT } from '../../../lib/apiextensions/types.js';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { CRDS, createCRD, deleteCRD } from '../../framework/crd.js';
import { eventually } from '../../framework/storage-contract.js';
import { useTestServer } from '../../framework/test-server.js';

// Response bodies are read field by field, as JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type O = Record<string, any>;
type Topology = 'granular' | 'atomic';

const GROUP = 'topology.example.com';
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

/**
 * The schema at revision `rev`: `spec.items` a map-keyed list (granular) or an atomic list,
 * `spec.tags` a set or an atomic list, `spec.settings` a granular or atomic struct, and a defaulted `spec.rev<rev>` that shows when
 * the revision is the one serving.
 */
function schema(rev: number, topology: Topology): O {
  const items: O = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' } } };
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          items: topology === 'granular' ? { type: 'array', [EXT.listType]: 'map', [EXT.listMapKeys]: ['name'], items } : { type: 'array', [EXT.listType]: 'atomic', items },
          tags: { type: 'array', [EXT.listType]: topology === 'granular' ? 'set' : 'atomic', items: { type: 'string' } },
          settings: { type: 'object', [EXT.mapType]: topology, properties: { a: { type: 'string' }, b: { type: 'string' } } },
          other: { type: 'string' },
          [`rev${rev}`]: { type: 'boolean', default: true },
        },
      },
    },
  };
}

function definition(plural: string, topology: Topology): O {
  return {
    apiVersion: `${vendorGroup('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural, kind: `${plural[0]!.toUpperCase()}${plural.slice(1, -1)}` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema(1, topology) } }],
    },
  };
}

const entry = (obj: O, manager: string): O | undefined => (obj.metadata.managedFields as O[]).find((m) => m.manager === manager);
const specFields = (obj: O, manager: string): O | undefined => entry(obj, manager)?.fieldsV1?.['f:spec'];

describe('Field ownership across a schema change of topology (spec 000 § Field ownership)', () => {
  const server = useTestServer();
  const admin = () => server().admin;

  /** Helpers over the CRD `<plural>.topology.example.com` and its object `obj` in `default`. */
  function crdOf(plural: string, kind: string) {
    const base = `/apis/${GROUP}/v1/namespaces/default/${plural}`;
    return {
      apply: (manager: string, spec: O, force = false) =>
        admin().patch(`${base}/obj?fieldManager=${manager}${force ? '&force=true' : ''}`, { apiVersion: `${GROUP}/v1`, kind, metadata: { name: 'obj' }, spec }, APPLY),
      get: async () => (await admin().get(`${base}/obj`)).body as O,
      patch: (manager: string, spec: O) => admin().patch(`${base}/obj?fieldManager=${manager}`, { spec }, MERGE),
      /** Changes the schema to revision `rev` with `topology` and waits until reads show it. */
      async changeSchema(rev: number, topology: Topology) {
        const crd = (await admin().get(`${CRDS}/${plural}.${GROUP}`)).body as O;
        crd.spec.versions[0].schema.openAPIV3Schema = schema(rev, topology);
        const res = await admin().put(`${CRDS}/${plural}.${GROUP}`, crd);
        expect(res.status, res.text).to.equal(200);
        await eventually(async () => (await admin().get(`${base}/obj`)).body.spec?.[`rev${rev}`] === true, 10_000, `schema revision ${rev} to serve`);
      },
    };
  }

  it('map/set/granular to atomic: the lists and the struct are owned whole by every manager that owned an element; changes conflict with each', async () => {
    await createCRD(admin(), definition('togglers', 'granular'));
    try {
      const t = crdOf('togglers', 'Toggler');
      expect((await t.apply('one', { items: [{ name: 'a', value: '1' }], tags: ['x'], settings: { a: '1' } })).status).to.equal(201);
      const before = await t.apply('two', { items: [{ name: 'b', value: '2' }], tags: ['y'], settings: { b: '2' } });
      expect(before.status, before.text).to.equal(200);
      expect(specFields(before.body, 'one')?.['f:items']).to.have.all.keys('k:{"name":"a"}');
      expect(specFields(before.body, 'two')?.['f:items']).to.have.all.keys('k:{"name":"b"}');
      expect(specFields(before.body, 'two')?.['f:tags']).to.have.all.keys('v:"y"');

      await t.changeSchema(2, 'atomic');
      const conflict = await t.apply('three', { items: [{ name: 'c', value: '3' }], tags: ['z'], settings: { a: 'x' } });
      expect(conflict.status, conflict.text).to.equal(409);
      expect(conflict.body.details.causes).to.deep.equal([
        { reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.spec.items' },
        { reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.spec.settings' },
        { reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.spec.tags' },
        { reason: 'FieldManagerConflict', message: 'conflict with "two"', field: '.spec.items' },
        { reason: 'FieldManagerConflict', message: 'conflict with "two"', field: '.spec.settings' },
        { reason: 'FieldManagerConflict', message: 'conflict with "two"', field: '.spec.tags' },
      ]);
      expect((await t.get()).spec.items).to.deep.equal([{ name: 'a', value: '1' }, { name: 'b', value: '2' }]);

      // A later write records the reconciled sets: each owner holds the whole list and struct.
      const other = await t.patch('four', { other: 'x' });
      expect(other.status, other.text).to.equal(200);
      for (const m of ['one', 'two']) expect(specFields(other.body, m), m).to.deep.equal({ 'f:items': {}, 'f:settings': {}, 'f:tags': {} });

      const forced = await t.apply('three', { items: [{ name: 'c', value: '3' }], tags: ['z'], settings: { a: 'x' } }, true);
      expect(forced.status, forced.text).to.equal(200);
      expect(forced.body.spec).to.deep.include({ items: [{ name: 'c', value: '3' }], tags: ['z'], settings: { a: 'x' } });
      expect(specFields(forced.body, 'three')).to.deep.equal({ 'f:items': {}, 'f:settings': {}, 'f:tags': {} });
      expect(entry(forced.body, 'one')).to.equal(undefined);
      expect(entry(forced.body, 'two')).to.equal(undefined);
    } finally {
      await deleteCRD(admin(), `togglers.${GROUP}`);
    }
  });

  it('atomic to map/set/granular: no new owners are inferred; the previous owner keeps the top-level field, not the inner keys, and later changes do not conflict', async () => {
    await createCRD(admin(), definition('splitters', 'atomic'));
    try {
      const t = crdOf('splitters', 'Splitter');
      const first = await t.apply('one', { items: [{ name: 'a', value: '1' }], settings: { a: '1', b: '1' } });
      expect(first.status, first.text).to.equal(201);
      expect(specFields(first.body, 'one')).to.deep.equal({ 'f:items': {}, 'f:settings': {} });
      const atomicConflict = await t.apply('two', { items: [{ name: 'a', value: '2' }] });
      expect(atomicConflict.status).to.equal(409);

      await t.changeSchema(2, 'granular');
      const changed = await t.apply('two', { items: [{ name: 'a', value: '2' }], settings: { a: '2' } });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body.spec).to.deep.include({ items: [{ name: 'a', value: '2' }], settings: { a: '2', b: '1' } });
      expect(specFields(changed.body, 'one')).to.deep.equal({ 'f:items': {}, 'f:settings': {} });
      expect(specFields(changed.body, 'two')).to.deep.equal({
        'f:items': { 'k:{"name":"a"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
        'f:settings': { 'f:a': {} },
      });
      const again = await t.apply('three', { settings: { b: '3' } });
      expect(again.status, again.text).to.equal(200);
      expect(again.body.spec.settings).to.deep.equal({ a: '2', b: '3' });
    } finally {
      await deleteCRD(admin(), `splitters.${GROUP}`);
    }
  });
});
