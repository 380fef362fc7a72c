import { expect } from 'chai';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { listTable } from '../../../../lib/endpoints/handlers/representation.js';

describe('large lists become Tables in batches (issue #6 item 5)', () => {
  for (const n of [0, 499, 500, 1234]) {
    it(`equals the Table of the whole ${n}-item list`, async () => {
      const created = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
      const list = {
        apiVersion: 'v1',
        kind: 'ConfigMapList',
        metadata: { resourceVersion: '9' },
        items: Array.from({ length: n }, (_, i) => ({ metadata: { name: `cm-${i}`, creationTimestamp: created }, data: { a: String(i) } })),
      };
      const batched = await listTable(configMap, list, 'Metadata');
      expect(batched).to.deep.equal(tableFor(configMap, list, { includeObject: 'Metadata' }));
    });
  }
});
