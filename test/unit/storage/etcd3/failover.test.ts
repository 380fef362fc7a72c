import { expect } from 'chai';
import { BrokenCircuitError } from 'cockatiel';
import { GRPCUnavailableError } from 'etcd3';
import { retryable } from '../../../../lib/storage/etcd3/failover.js';

describe('storage/etcd3/failover retryable', function () {
  const refused = new GRPCUnavailableError('14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2379.');
  const dropped = new GRPCUnavailableError('14 UNAVAILABLE: Connection dropped');
  const cases: Array<[string, string, Error, boolean]> = [
    ['a read after a dropped connection', 'KV.range', dropped, true],
    ['a read during a leader election', 'KV.range', new Error('etcdserver: leader changed'), true],
    ['a read after a request timeout', 'KV.range', new Error('etcdserver: request timed out'), true],
    ['a write that never left (no connection)', 'KV.txn', refused, true],
    ['a write with every member skipped', 'KV.put', new BrokenCircuitError(), true],
    ['a write after a dropped connection (may have been applied)', 'KV.txn', dropped, false],
    ['a write during a leader election', 'KV.put', new Error('etcdserver: leader changed'), false],
    ['a read refused for a compacted revision', 'KV.range', new Error('etcdserver: mvcc: required revision has been compacted'), false],
  ];
  for (const [name, key, err, want] of cases) {
    it(`${want ? 'retries' : 'does not retry'} ${name}`, function () {
      expect(retryable(key, err)).to.equal(want);
    });
  }
});
