import { expect } from 'chai';
import { jsonListStream } from '../../../../lib/apimachinery/serializers/json-list-stream.js';

async function text(s: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const c of s) out += c.toString();
  return out;
}

describe('streamed JSON lists (no event-loop blocking for large lists)', () => {
  for (const n of [0, 1, 255, 256, 257, 1000]) {
    it(`writes exactly JSON.stringify(list) for ${n} items`, async () => {
      const list = {
        apiVersion: 'v1',
        kind: 'ConfigMapList',
        metadata: { resourceVersion: '42', continue: 'x' },
        items: Array.from({ length: n }, (_, i) => ({ metadata: { name: `cm-${i}`, labels: { 'a"b': 'c\n' } }, data: { k: 'ü' } })),
      };
      expect(await text(jsonListStream(list))).to.equal(`${JSON.stringify(list)}\n`);
    });
  }

  it('handles a list with no other keys than items', async () => {
    const list = { items: [{ a: 1 }] };
    expect(await text(jsonListStream(list))).to.equal(`${JSON.stringify(list)}\n`);
  });
});
