/**
 * Streamed JSON lists (issue #17 item 5): the chunks of jsonListChunks, concatenated, are exactly
 * the bytes of encoding the whole list at once (issue #23: the same property order), for every
 * shape of list and every chunk size.
 */
import { expect } from 'chai';
import { encodeJSON } from '../../../../lib/apimachinery/serializers/json.js';
import { type ListDocument, jsonListChunks } from '../../../../lib/apimachinery/serializers/json-list-chunks.js';

function configMaps(n: number, data: (i: number) => Record<string, string> = (i) => ({ k: 'v'.repeat(i % 300) })): unknown[] {
  return Array.from({ length: n }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'ns', resourceVersion: String(i + 1) }, data: data(i) }));
}

function streamed(list: ListDocument, chunkBytes?: number): { text: string; chunks: Buffer[] } {
  const chunks = [...jsonListChunks(list, chunkBytes)];
  return { text: Buffer.concat(chunks).toString('utf8'), chunks };
}

describe('streamed JSON lists (issue #17 item 5)', () => {
  const lists: [string, ListDocument][] = [
    ['an empty list', { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: [] }],
    ['one item', { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: configMaps(1) }],
    ['1,000 items', { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: configMaps(1000) }],
    ['a page with continue and remainingItemCount', { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ', remainingItemCount: 42 }, items: configMaps(500) }],
    ['items with unicode (multi-byte, astral, escapes)', { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: configMaps(300, (i) => ({ ü: 'grüße ✓ 日本語 🎉'.repeat(i % 7), quote: 'a"b\\c\n\t\u0001', lone: '\ud800x' })) }],
    ['properties after items, undefined ones and null items', { kind: 'List', apiVersion: 'v1', items: [null, { a: 1 }, undefined, 'x'], metadata: { resourceVersion: '1' }, skipped: undefined, tail: [1, 'two'] }],
    ['a list with nothing but items', { items: [{ a: 1 }] }],
  ];
  for (const [what, list] of lists) {
    it(`gives exactly the bytes of the whole-list encoding for ${what}, whatever the chunk size`, () => {
      const whole = encodeJSON(list).toString('utf8');
      expect(streamed(list).text).to.equal(whole);
      for (const size of [1, 100, 4096]) expect(streamed(list, size).text, `chunks of ${size}`).to.equal(whole);
      expect(Buffer.concat(streamed(list, 1000).chunks).equals(encodeJSON(list)), 'as UTF-8 bytes').to.equal(true);
    });
  }

  it('cuts a large list into bounded chunks and encodes items only as chunks are taken', () => {
    const items = configMaps(2000);
    const { chunks } = streamed({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items }, 8192);
    expect(chunks.length).to.be.greaterThan(10);
    const longestItem = Math.max(...items.map((i) => Buffer.byteLength(JSON.stringify(i))));
    for (const c of chunks) expect(c.length).to.be.below(8192 + longestItem + 2);
    const lazy = jsonListChunks({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [{ a: 1 }, { toJSON: () => { throw new Error('encoded too early'); } }] }, 1);
    expect(String(lazy.next().value)).to.equal('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[{"a":1}');
  });
});
