import { expect } from 'chai';
import { DEFAULT_CUSTOM_RESOURCE_COLUMNS, newCustomResourceTablePrinter } from '../../../../lib/apiextensions/printer/index.js';
import type { CustomResourceColumnDefinition } from '../../../../lib/apiextensions/types.js';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { NAME_COLUMN } from '../../../../lib/apimachinery/table/columns.js';
import type { TableSource } from '../../../../lib/apimachinery/table/types.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');

function crontab(extra: TableSource = {}): TableSource {
  return {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'my-cron', namespace: 'default', creationTimestamp: '2024-05-01T11:55:00Z', resourceVersion: '7' },
    spec: { replicas: 3, ratio: 0.5, suspend: true, image: 'nginx', selector: { app: 'web' }, tags: ['x', 'y'] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], last: '2024-05-01T09:30:00Z' },
    ...extra,
  };
}

const col = (name: string, type: string, jsonPath: string, more: Partial<CustomResourceColumnDefinition> = {}): CustomResourceColumnDefinition => ({ name, type, jsonPath, ...more });

describe('apiextensions/printer/table-printer', () => {
  it('serves Name and Age when a version declares no columns', () => {
    for (const columns of [undefined, []]) {
      const p = newCustomResourceTablePrinter(columns);
      expect(p.columns.map((c) => [c.name, c.type, c.format, c.priority])).to.deep.equal([
        ['Name', 'string', 'name', 0],
        ['Age', 'date', '', 0],
      ]);
      expect(p.columns[1]!.description).to.equal(DEFAULT_CUSTOM_RESOURCE_COLUMNS[0]!.description);
      expect(p.cells(crontab(), NOW)).to.deep.equal(['my-cron', '5m']);
      expect(p.error).to.equal(undefined);
    }
  });

  it('carries type, format, priority and description, defaulting the description', () => {
    const p = newCustomResourceTablePrinter([
      col('Spec', 'string', '.spec.image', { description: 'The image', priority: 1, format: 'byte' }),
      col('Replicas', 'integer', '.spec.replicas'),
    ]);
    expect(p.columns).to.deep.equal([
      NAME_COLUMN,
      { name: 'Spec', type: 'string', format: 'byte', description: 'The image', priority: 1 },
      { name: 'Replicas', type: 'integer', format: '', description: 'Custom resource definition column (in JSONPath format): .spec.replicas', priority: 0 },
    ]);
  });

  describe('cells typed as their columns', () => {
    const cases: [string, CustomResourceColumnDefinition, unknown][] = [
      ['integer', col('R', 'integer', '.spec.replicas'), 3],
      ['integer from a fraction (truncated)', col('R', 'integer', '.spec.ratio'), 0],
      ['integer from a string', col('R', 'integer', '.spec.image'), null],
      ['number', col('N', 'number', '.spec.ratio'), 0.5],
      ['number from a string', col('N', 'number', '.status.phase'), null],
      ['boolean', col('B', 'boolean', '.spec.suspend'), true],
      ['boolean from a string', col('B', 'boolean', '.status.phase'), null],
      ['string', col('S', 'string', '.status.phase'), 'Running'],
      ['string from an integer', col('S', 'string', '.spec.replicas'), '3'],
      ['string from a boolean', col('S', 'string', '.spec.suspend'), 'true'],
      ['string from an object (JSON)', col('S', 'string', '.spec.selector'), '{"app":"web"}'],
      ['string from an array (JSON)', col('S', 'string', '.spec.tags'), '["x","y"]'],
      ['string: first of several results', col('S', 'string', '.spec.tags[*]'), 'x'],
      ['string through a filter', col('S', 'string', '.status.conditions[?(@.type=="Ready")].status'), 'True'],
      ['date', col('D', 'date', '.status.last'), '150m'],
      ['date from a number', col('D', 'date', '.spec.replicas'), null],
      ['date that is not RFC 3339', col('D', 'date', '.status.phase'), '<invalid>'],
      ['missing value', col('S', 'string', '.status.missing'), null],
      ['path failing on the object', col('S', 'string', '.spec.tags[5]'), null],
      ['unknown type', col('X', 'object', '.spec.selector'), null],
    ];
    for (const [title, column, want] of cases) {
      it(title, () => {
        expect(newCustomResourceTablePrinter([column]).cells(crontab(), NOW)).to.deep.equal(['my-cron', want]);
      });
    }
  });

  describe('date cells', () => {
    const cases: [unknown, unknown][] = [
      ['2024-05-01T11:59:30Z', '30s'],
      ['2024-05-01T13:59:30+02:00', '30s'],
      ['2024-05-01T11:59:29.5Z', '30s'],
      ['2024-04-29T12:00:00Z', '2d'],
      ['', '<unknown>'],
      ['0001-01-01T00:00:00Z', '<unknown>'],
      ['2024-02-30T00:00:00Z', '<invalid>'],
      ['2024-05-01 11:59:30Z', '<invalid>'],
      [null, null],
    ];
    for (const [value, want] of cases) {
      it(`${JSON.stringify(value)} → ${JSON.stringify(want)}`, () => {
        const p = newCustomResourceTablePrinter([col('D', 'date', '.status.when')]);
        expect(p.cells(crontab({ status: { when: value } }), NOW)).to.deep.equal(['my-cron', want]);
      });
    }
  });

  it('string columns print a null value as <no value>, other types give a null cell', () => {
    const obj = crontab({ status: { phase: null } });
    expect(newCustomResourceTablePrinter([col('S', 'string', '.status.phase'), col('I', 'integer', '.status.phase')]).cells(obj, NOW)).to.deep.equal([
      'my-cron',
      '<no value>',
      null,
    ]);
  });

  it('stops at a column whose JSONPath does not parse, as upstream falls back', () => {
    const p = newCustomResourceTablePrinter([col('A', 'string', '.spec.image'), col('B', 'string', '.spec['), col('C', 'string', '.status.phase')]);
    expect(p.error).to.equal('unrecognized column definition ".spec["');
    expect(p.columns.map((c) => c.name)).to.deep.equal(['Name', 'A']);
    expect(p.cells(crontab(), NOW)).to.deep.equal(['my-cron', 'nginx']);
  });

  it('builds a Table with null cells', () => {
    const p = newCustomResourceTablePrinter([col('Phase', 'string', '.status.phase'), col('Replicas', 'integer', '.status.replicas', { priority: 1 })]);
    const table = tableFor({ printerColumns: p }, [crontab(), crontab({ metadata: { name: 'other' }, status: {} })], { includeObject: 'None', now: NOW });
    expect(table.columnDefinitions!.map((c) => [c.name, c.priority])).to.deep.equal([
      ['Name', 0],
      ['Phase', 0],
      ['Replicas', 1],
    ]);
    expect(table.rows).to.deep.equal([
      { cells: ['my-cron', 'Running', null], object: null },
      { cells: ['other', null, null], object: null },
    ]);
  });
});
