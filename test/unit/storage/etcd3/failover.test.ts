import { expect } from 'chai';
import { BrokenCircuitError } from 'cockatiel';
import { Etcd3, GRPCDeadlineExceededError, GRPCInvalidArgumentError, GRPCResourceExhastedError, GRPCUnavailableError, GRPCUnknownError } from 'etcd3';
import { alarmRefusal, connectionFailure, outcomeUnknown, readOnly, refusedAsTooLarge, responseTooLarge, retryable, withFailover, writeNotApplied } from '../../../../lib/storage/etcd3/failover.js';
import { wrapEtcdError } from '../../../../lib/storage/etcd3/client.js';
import { StorageError } from '../../../../lib/storage/errors.js';
import { interpretStorageError } from '../../../../lib/registry/generic/storage-errors.js';
import type { StatusError } from '../../../../lib/apimachinery/errors.js';

const refused = new GRPCUnavailableError('14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2379.');
const dropped = new GRPCUnavailableError('14 UNAVAILABLE: Connection dropped');
const leaderChanged = new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: leader changed');
const noLeader = new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: no leader');
const timedOut = new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: request timed out, possibly due to previous leader failure');
const proposalDropped = new GRPCUnknownError('2 UNKNOWN: raft proposal dropped');
const deadline = new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded');
const tooLarge = new GRPCInvalidArgumentError('3 INVALID_ARGUMENT: etcdserver: request is too large');
// etcd's gRPC server refuses a message past --max-request-bytes + 512 KiB before etcd sees it.
const tooLargeForGrpc = new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: grpc: received message larger than max (2097736 vs. 2097152)');
// This client refuses an answer past grpc.max_receive_message_length; before sending, a request past its send bound.
const answerTooLarge = new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: Received message larger than max (300110680 vs 268435456)');
const sendTooLarge = new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: Attempted to send message with a size larger than 8388608');
const noSpace = new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: etcdserver: mvcc: database space exceeded');
const compactedErr = new Error('etcdserver: mvcc: required revision has been compacted');
const putTxn = { compare: [], success: [{ request_put: { key: Buffer.from('k'), value: Buffer.from('v') } }], failure: [{ request_range: { key: Buffer.from('k') } }] };
const rangeTxn = { compare: [], success: [{ request_range: { key: Buffer.from('a') } }, { request_range: { key: Buffer.from('b') } }], failure: [] };

describe('storage/etcd3/failover retryable', function () {
  const cases: Array<[string, string, Error, boolean, unknown?]> = [
    ['a read after a dropped connection', 'KV.range', dropped, true],
    ['a read during a leader election', 'KV.range', leaderChanged, true],
    ['a read answered "no leader"', 'KV.range', noLeader, true],
    ['a read after a request timeout', 'KV.range', timedOut, true],
    ['a read past its gRPC deadline on one member', 'KV.range', deadline, true],
    ['a transaction of ranges only after a leader change', 'KV.txn', leaderChanged, true, rangeTxn],
    ['a write that never left (no connection)', 'KV.txn', refused, true, putTxn],
    ['a write with every member skipped', 'KV.put', new BrokenCircuitError(), true],
    ['a write whose proposal a leaderless follower dropped', 'KV.txn', proposalDropped, true, putTxn],
    ['a write refused for want of a leader', 'KV.put', noLeader, true],
    ['a write after a dropped connection (may have been applied)', 'KV.txn', dropped, false, putTxn],
    ['a write during a leader election', 'KV.put', leaderChanged, false],
    ['a write that timed out in etcd', 'KV.txn', timedOut, false, putTxn],
    ['a write past its deadline', 'KV.put', deadline, false],
    ['a read refused for a compacted revision', 'KV.range', compactedErr, false],
    ['a write refused for its size by etcd', 'KV.txn', tooLarge, false, putTxn],
    ['a write refused for its size by etcd\'s gRPC server', 'KV.txn', tooLargeForGrpc, false, putTxn],
    ['a read refused for its size', 'KV.range', tooLargeForGrpc, false],
    ['a read whose answer is larger than the client reads (the same answer would come again)', 'KV.range', answerTooLarge, false],
    ['a write larger than the client sends', 'KV.txn', sendTooLarge, false, putTxn],
    ['a write answered "database space exceeded" (the same answer until the alarm is cleared)', 'KV.txn', noSpace, false, putTxn],
  ];
  for (const [name, key, err, want, payload] of cases) {
    it(`${want ? 'retries' : 'does not retry'} ${name}`, function () {
      expect(retryable(key, err, payload)).to.equal(want);
    });
  }

  it('tells reads from writes, a transaction by its operations', function () {
    expect(readOnly('KV.range')).to.equal(true);
    expect(readOnly('KV.txn', rangeTxn)).to.equal(true);
    expect(readOnly('KV.txn', putTxn)).to.equal(false);
    expect(readOnly('KV.put')).to.equal(false);
    expect(readOnly('KV.compact')).to.equal(false);
  });

  it('opens a member breaker on connection failures only, not on an election answer', function () {
    expect(connectionFailure(dropped)).to.equal(true);
    expect(connectionFailure(refused)).to.equal(true);
    expect(connectionFailure(leaderChanged)).to.equal(false);
    expect(connectionFailure(timedOut)).to.equal(false);
    expect(connectionFailure(tooLarge)).to.equal(false);
    expect(connectionFailure(tooLargeForGrpc)).to.equal(false);
    expect(connectionFailure(answerTooLarge)).to.equal(false);
    expect(connectionFailure(sendTooLarge)).to.equal(false);
  });

  it('knows which write failures prove nothing was applied', function () {
    expect([refused, new BrokenCircuitError(), proposalDropped, noLeader].map(writeNotApplied)).to.deep.equal([true, true, true, true]);
    expect([dropped, leaderChanged, timedOut, deadline].map(writeNotApplied)).to.deep.equal([false, false, false, false]);
  });
});

/** The StorageError wrapEtcdError throws for `err` about `key`. */
function wrapped(key: string, err: unknown): StorageError {
  try {
    wrapEtcdError(key, err);
  } catch (e) {
    return e as StorageError;
  }
  throw new Error('wrapEtcdError returned');
}

describe('storage/etcd3/failover withFailover', function () {
  /** A client whose pool's exec answers with `answers` in turn (an Error is thrown). */
  function fakeClient(answers: Array<unknown>): { client: Etcd3; calls: () => number } {
    const client = new Etcd3({ hosts: ['http://127.0.0.1:1'] });
    let n = 0;
    (client as unknown as { pool: { exec: () => Promise<unknown> } }).pool.exec = async () => {
      const a = answers[Math.min(n++, answers.length - 1)];
      if (a instanceof Error) throw a;
      return a;
    };
    return { client: withFailover(client), calls: () => n };
  }
  const exec = (client: Etcd3, key: string, payload: unknown = {}, options?: unknown) => {
    const [service, method] = key.split('.');
    return (client as unknown as { pool: { exec: (s: string, m: string, p: unknown, o?: unknown) => Promise<unknown> } }).pool.exec(service!, method!, payload, options);
  };

  it('retries a read through an election until a member answers', async function () {
    const { client, calls } = fakeClient([leaderChanged, new BrokenCircuitError(), noLeader, { ok: true }]);
    expect(await exec(client, 'KV.range')).to.deep.equal({ ok: true });
    expect(calls()).to.equal(4);
    client.close();
  });

  it('does not retry past the call deadline', async function () {
    const { client, calls } = fakeClient([leaderChanged]);
    const err = await exec(client, 'KV.range', {}, { deadline: Date.now() + 50 }).catch((e: unknown) => e);
    expect(err).to.equal(leaderChanged);
    expect(calls()).to.equal(1);
    client.close();
  });

  it('marks a write whose outcome is unknown, and it becomes a 504 Timeout with Retry-After', async function () {
    const { client, calls } = fakeClient([timedOut]);
    const err = await exec(client, 'KV.txn', putTxn).catch((e: unknown) => e);
    expect(calls()).to.equal(1);
    expect(outcomeUnknown(err)).to.equal(true);
    const storageErr = wrapped('/registry/core/configmaps/default/a', err);
    expect(storageErr.code).to.equal('Timeout');
    const status = interpretStorageError(storageErr, { group: '', resource: 'configmaps' }, 'a', 'create') as StatusError;
    expect(status.status.code).to.equal(504);
    expect(status.status.reason).to.equal('Timeout');
    expect(status.status.message).to.equal(
      'Timeout: The create operation against configmaps "a" was sent to etcd but not confirmed; it may have succeeded: read it before retrying',
    );
    expect(status.status.details?.retryAfterSeconds).to.equal(2);
    expect(status.headers).to.deep.include({ 'Retry-After': '2' });
    client.close();
  });

  it('retries a write refused before proposing, then answers it', async function () {
    const { client, calls } = fakeClient([proposalDropped, refused, { succeeded: true }]);
    expect(await exec(client, 'KV.txn', putTxn)).to.deep.equal({ succeeded: true });
    expect(calls()).to.equal(3);
    client.close();
  });

  it('answers a write refused for its size, by etcd, its gRPC server or this client, with 413 RequestEntityTooLarge, unmarked and not retried', async function () {
    expect(responseTooLarge(answerTooLarge)).to.equal(true);
    expect([tooLarge, tooLargeForGrpc, sendTooLarge, dropped].map(responseTooLarge)).to.deep.equal([false, false, false, false]);
    expect(refusedAsTooLarge(answerTooLarge)).to.equal(false);
    for (const refusal of [tooLarge, tooLargeForGrpc, sendTooLarge]) {
      expect(refusedAsTooLarge(refusal)).to.equal(true);
      const { client, calls } = fakeClient([refusal, { succeeded: true }]);
      const err = await exec(client, 'KV.txn', putTxn).catch((e: unknown) => e);
      expect(calls()).to.equal(1);
      expect(outcomeUnknown(err)).to.equal(false);
      const storageErr = wrapped('k', err);
      expect(storageErr.code).to.equal('RequestTooLarge');
      const status = interpretStorageError(storageErr, { group: '', resource: 'configmaps' }, 'a', 'update') as StatusError;
      expect([status.status.code, status.status.reason, status.status.message]).to.deep.equal([
        413,
        'RequestEntityTooLarge',
        'Request entity too large: configmaps "a" is larger than storage accepts (etcdserver: request is too large)',
      ]);
      client.close();
    }
    expect(refusedAsTooLarge(dropped)).to.equal(false);
  });

  it('answers an alarm\'s error as upstream: 500, etcd\'s message, no reason, not retried', async function () {
    expect(alarmRefusal(noSpace)).to.equal('etcdserver: mvcc: database space exceeded');
    expect([tooLarge, dropped, leaderChanged].map(alarmRefusal)).to.deep.equal([undefined, undefined, undefined]);
    expect(connectionFailure(noSpace)).to.equal(false);
    const { client, calls } = fakeClient([noSpace, { succeeded: true }]);
    const err = await exec(client, 'KV.txn', putTxn).catch((e: unknown) => e);
    expect(calls()).to.equal(1);
    const storageErr = wrapped('k', err);
    expect(storageErr.code).to.equal('Alarm');
    const status = interpretStorageError(storageErr, { group: '', resource: 'configmaps' }, 'a', 'create') as StatusError;
    expect(status.status).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: mvcc: database space exceeded', code: 500 });
    client.close();
  });

  it('leaves definite refusals and read failures unmarked: 500 ServerTimeout with Retry-After', async function () {
    const { client } = fakeClient([tooLarge]);
    const err = await exec(client, 'KV.put').catch((e: unknown) => e);
    expect(outcomeUnknown(err)).to.equal(false);
    const storageErr = wrapped('k', leaderChanged);
    expect(storageErr.code).to.equal('Unreachable');
    const status = interpretStorageError(storageErr, { group: '', resource: 'configmaps' }, 'a', 'get') as StatusError;
    expect([status.status.code, status.status.reason, status.headers?.['Retry-After']]).to.deep.equal([500, 'ServerTimeout', '2']);
    client.close();
  });
});
