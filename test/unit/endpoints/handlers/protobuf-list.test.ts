import { expect } from 'chai';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { encodeProtobuf } from '../../../../lib/apimachinery/serializers/protobuf/index.js';
import { encodeProtobufList } from '../../../../lib/endpoints/handlers/protobuf.js';

describe('large protobuf lists assembled from cached item messages (issue #6 item 4)', () => {
  for (const n of [0, 1, 256, 700]) {
    it(`gives exactly the bytes of encoding the whole ${n}-item list at once`, async () => {
      const list = {
        apiVersion: 'v1',
        kind: 'ConfigMapList',
        metadata: { resourceVersion: '42', continue: 'tok', remainingItemCount: 3 },
        items: Array.from({ length: n }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'ns', resourceVersion: String(i) }, data: { k: 'v'.repeat(i % 300) } })),
      };
      const whole = encodeProtobuf(list, { apiVersion: 'v1', kind: 'ConfigMapList', schema: configMap.listSchema });
      expect((await encodeProtobufList(configMap, list)).equals(whole)).to.equal(true);
      expect((await encodeProtobufList(configMap, list)).equals(whole), 'from the item cache').to.equal(true);
    });
  }
});
