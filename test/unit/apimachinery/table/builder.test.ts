import { expect } from 'chai';
import { tableFor, tableWatchTransformer } from '../../../../lib/apimachinery/table/builder.js';
import { column, DEFAULT_COLUMNS } from '../../../../lib/apimachinery/table/columns.js';
import type { TablePrinter, TableSource } from '../../../../lib/apimachinery/table/types.js';
import { META_GROUP } from '../../../../lib/apis/vendor.js';

const API_VERSION = `${META_GROUP}/v1`;
const NOW = Date.UTC(2024, 4, 1, 12);

/** A kind with a one-column printer that also sets a row condition for `done` objects. */
const printer: TablePrinter = {
  columns: [column('Name', 'string', 'name', { format: 'name' }), column('Size', 'integer', 'size'), column('Seen', 'string', 'age', { priority: 1 })],
  cells: (o, now) => [String((o.metadata as TableSource).name), Number(o.size ?? 0), `${now}`],
  conditions: (o) => (o.done ? [{ type: 'Completed', status: 'True', reason: 'Done' }] : undefined),
};
const withColumns = { printerColumns: printer };
const withoutColumns = {};

function thing(name: string, extra: TableSource = {}): TableSource {
  return {
    apiVersion: 'example.io/v1',
    kind: 'Thing',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '11', creationTimestamp: '2024-05-01T10:00:00.5Z', labels: { a: 'b' } },
    spec: { x: 1 },
    ...extra,
  };
}

describe('apimachinery/table/builder', () => {
  describe('default columns (kinds without their own)', () => {
    it('has Name (string, format name) and Created At (date), priority 0', () => {
      const table = tableFor(withoutColumns, thing('a'), { now: NOW });
      expect(table.columnDefinitions!.map((c) => [c.name, c.type, c.format, c.priority])).to.deep.equal([
        ['Name', 'string', 'name', 0],
        ['Created At', 'date', '', 0],
      ]);
      expect(table.columnDefinitions).to.deep.equal(DEFAULT_COLUMNS);
    });

    it('prints the name and the creation time as RFC 3339 in UTC, whole seconds', () => {
      const table = tableFor(withoutColumns, [thing('a'), thing('b', { metadata: { name: 'b' } })], { now: NOW });
      expect(table.rows!.map((r) => r.cells)).to.deep.equal([
        ['a', '2024-05-01T10:00:00Z'],
        ['b', '0001-01-01T00:00:00Z'],
      ]);
    });

    it('has rows: null for an empty result (upstream nil slice)', () => {
      expect(tableFor(withoutColumns, [], { listMeta: { resourceVersion: '9' } }).rows).to.equal(null);
    });
  });

  describe('a kind printer', () => {
    it('gives all its columns (wide ones included) and cells in order', () => {
      const table = tableFor(withColumns, thing('a', { size: 3 }), { now: NOW });
      expect(table.columnDefinitions!.map((c) => c.name)).to.deep.equal(['Name', 'Size', 'Seen']);
      expect(table.columnDefinitions![2]!.priority).to.equal(1);
      expect(table.rows![0]!.cells).to.deep.equal(['a', 3, String(NOW)]);
    });

    it('has rows: [] for an empty result', () => {
      expect(tableFor(withColumns, [], { now: NOW }).rows).to.deep.equal([]);
    });

    it('adds row conditions only when the printer gives some, between cells and object', () => {
      const table = tableFor(withColumns, [thing('a', { done: true }), thing('b')], { now: NOW, includeObject: 'None' });
      expect(table.rows![0]).to.deep.equal({ cells: ['a', 0, String(NOW)], conditions: [{ type: 'Completed', status: 'True', reason: 'Done' }], object: null });
      expect(Object.keys(table.rows![0]!)).to.deep.equal(['cells', 'conditions', 'object']);
      expect(table.rows![1]).to.deep.equal({ cells: ['b', 0, String(NOW)], object: null });
    });
  });

  describe('the Table envelope', () => {
    it('is kind Table of the meta group, fields in upstream order', () => {
      const table = tableFor(withColumns, thing('a'), { now: NOW });
      expect(Object.keys(table)).to.deep.equal(['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
      expect(table.kind).to.equal('Table');
      expect(table.apiVersion).to.equal(API_VERSION);
      expect(Object.keys(table.columnDefinitions![0]!)).to.deep.equal(['name', 'type', 'format', 'description', 'priority']);
    });

    it('carries only the resourceVersion of a single object', () => {
      expect(tableFor(withColumns, thing('a'), { now: NOW }).metadata).to.deep.equal({ resourceVersion: '11' });
      expect(tableFor(withColumns, thing('a', { metadata: { name: 'a' } }), { now: NOW }).metadata).to.deep.equal({});
    });

    it('carries the list metadata given with an array of items', () => {
      const table = tableFor(withColumns, [thing('a')], { now: NOW, listMeta: { resourceVersion: '20', continue: 'tok', remainingItemCount: 4, selfLink: 'x' } });
      expect(table.metadata).to.deep.equal({ resourceVersion: '20', continue: 'tok', remainingItemCount: 4 });
    });

    it('reads items and metadata of a list object', () => {
      const list = { apiVersion: 'example.io/v1', kind: 'ThingList', metadata: { resourceVersion: '30', continue: '' }, items: [thing('a'), thing('b')] };
      const table = tableFor(withColumns, list, { now: NOW });
      expect(table.metadata).to.deep.equal({ resourceVersion: '30' });
      expect(table.rows!.map((r) => r.cells[0])).to.deep.equal(['a', 'b']);
    });

    it('leaves out the column definitions with noHeaders (columnDefinitions: null)', () => {
      expect(tableFor(withColumns, thing('a'), { now: NOW, noHeaders: true }).columnDefinitions).to.equal(null);
    });
  });

  describe('includeObject', () => {
    const obj = thing('a');
    it('Metadata (the default) puts a PartialObjectMetadata with the whole metadata', () => {
      for (const table of [tableFor(withColumns, obj, { now: NOW }), tableFor(withColumns, obj, { now: NOW, includeObject: 'Metadata' })]) {
        expect(table.rows![0]!.object).to.deep.equal({ kind: 'PartialObjectMetadata', apiVersion: API_VERSION, metadata: obj.metadata });
      }
    });
    it('Object puts the full object', () => {
      expect(tableFor(withColumns, obj, { now: NOW, includeObject: 'Object' }).rows![0]!.object).to.equal(obj);
    });
    it('None puts null', () => {
      expect(tableFor(withoutColumns, obj, { now: NOW, includeObject: 'None' }).rows![0]!.object).to.equal(null);
    });
    it('never modifies the object', () => {
      const copy = structuredClone(obj);
      tableFor(withColumns, obj, { now: NOW });
      expect(obj).to.deep.equal(copy);
    });
  });

  describe('tableWatchTransformer', () => {
    it('gives one-row Tables, column definitions on the first event only', () => {
      let clock = NOW;
      const transform = tableWatchTransformer(withColumns, { includeObject: 'None', clock: () => clock });
      const first = transform(thing('a'));
      clock += 1000;
      const second = transform(thing('b'));
      expect(first).to.deep.include({ kind: 'Table', apiVersion: API_VERSION, metadata: { resourceVersion: '11' } });
      expect((first.columnDefinitions as unknown[]).length).to.equal(3);
      expect(first.rows).to.deep.equal([{ cells: ['a', 0, String(NOW)], object: null }]);
      expect(second.columnDefinitions).to.equal(null);
      expect(second.rows).to.deep.equal([{ cells: ['b', 0, String(NOW + 1000)], object: null }]);
    });

    it('passes a Status through, and it still counts as the first event', () => {
      const transform = tableWatchTransformer(withoutColumns);
      const status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' };
      expect(transform(status)).to.equal(status);
      expect(transform(thing('a')).columnDefinitions).to.equal(null);
    });

    it('defaults to includeObject Metadata', () => {
      const transform = tableWatchTransformer(withoutColumns);
      const rows = transform(thing('a')).rows as Array<{ object: TableSource }>;
      expect(rows[0]!.object.kind).to.equal('PartialObjectMetadata');
    });
  });
});
