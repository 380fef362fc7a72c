/**
 * Streamed protobuf lists (issue #17 item 5): the chunks of protobufListChunks, concatenated, are
 * exactly the bytes of encoding the whole list in the envelope at once (spec 000 § Protobuf
 * envelope), for every shape of list, chunk size and from the per-item cache.
 */
import { expect } from 'chai';
import { encodeProtobuf, isMessageList, protobufListChunks, type ProtobufKind } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { configMap } from '../../../../../lib/apis/core/v1/config-map.js';
import { pod } from '../../../../../lib/apis/core/v1/pod.js';

type Obj = Record<string, unknown>;

const CM_LIST: ProtobufKind = { apiVersion: 'v1', kind: 'ConfigMapList', schema: configMap.listSchema };
const POD_LIST: ProtobufKind = { apiVersion: 'v1', kind: 'PodList', schema: pod.listSchema };

function configMaps(n: number, data: (i: number) => Record<string, string> = (i) => ({ k: 'v'.repeat(i % 300) })): Obj[] {
  return Array.from({ length: n }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'ns', resourceVersion: String(i + 1) }, data: data(i) }));
}

async function streamed(list: Obj & { items: unknown[] }, kind: ProtobufKind, chunkBytes?: number, pause: () => Promise<void> = async () => undefined): Promise<{ bytes: Buffer; chunks: Uint8Array[] }> {
  const chunks: Uint8Array[] = [];
  for await (const c of protobufListChunks(list, kind, pause, chunkBytes)) chunks.push(c);
  return { bytes: Buffer.concat(chunks), chunks };
}

describe('streamed protobuf lists (issue #17 item 5)', () => {
  const lists: [string, Obj & { items: Obj[] }][] = [
    ['an empty list', { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '42' }, items: [] }],
    ['one item', { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '42' }, items: configMaps(1) }],
    ['700 items', { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '42' }, items: configMaps(700) }],
    ['a page with continue and remainingItemCount', { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '42', continue: 'tok', remainingItemCount: 3 }, items: configMaps(256) }],
    ['items with unicode', { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '42' }, items: configMaps(300, (i) => ({ ü: 'grüße ✓ 日本語 🎉'.repeat(i % 7) })) }],
    ['a list without metadata', { apiVersion: 'v1', kind: 'ConfigMapList', items: configMaps(3) }],
  ];
  for (const [what, list] of lists) {
    it(`gives exactly the bytes of the whole-list envelope for ${what}, whatever the chunk size, and again from the item cache`, async () => {
      const whole = encodeProtobuf(list, CM_LIST);
      expect((await streamed(list, CM_LIST)).bytes.equals(whole)).to.equal(true);
      for (const size of [1, 1000, 100_000]) expect((await streamed(list, CM_LIST, size)).bytes.equals(whole), `chunks of ${size}`).to.equal(true);
      expect((await streamed(list, CM_LIST)).bytes.equals(whole), 'from the item cache').to.equal(true);
    });
  }

  it('encodes Pods as the whole-list encoder does', async () => {
    const pods = Array.from({ length: 50 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p-${i}`, namespace: 'ns', labels: { app: 'a' }, creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '100m' } }, ports: [{ containerPort: 80 }] }] },
      status: { phase: 'Pending' },
    }));
    const list = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '9', continue: 'c', remainingItemCount: 5 }, items: pods };
    expect((await streamed(list, POD_LIST, 512)).bytes.equals(encodeProtobuf(list, POD_LIST))).to.equal(true);
  });

  it('bounds the chunks and pauses while encoding the items', async () => {
    let pauses = 0;
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: configMaps(1000) };
    const { chunks } = await streamed(list, CM_LIST, 8192, async () => void pauses++);
    expect(pauses).to.equal(3);
    expect(chunks.length).to.be.greaterThan(10);
    for (const c of chunks.slice(0, -1)) expect(c.length).to.be.within(8192, 8192 + 1024);
  });

  it('knows list kinds from other kinds', () => {
    expect(isMessageList(CM_LIST)).to.equal(true);
    expect(isMessageList({ apiVersion: 'v1', kind: 'ConfigMap', schema: configMap.schema })).to.equal(false);
  });
});
