import { loadSync as protoLoaderLoadSync } from '@grpc/proto-loader';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DESCRIPTOR_SUFFIX, descriptorJSON, loadSync, type MethodDefinition } from '../../../../lib/storage/etcd3/grpc-package.js';

// What etcd3's connection pool passes (node_modules/etcd3/lib/connection-pool.js).
const ETCD3_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };
const RPC_PROTO = path.join(path.dirname(createRequire(import.meta.url).resolve('etcd3')), '..', 'proto', 'rpc.proto');

type Loaded = Record<string, Record<string, MethodDefinition & { format?: string }>>;

describe('storage/etcd3/grpc-package (the bundle\'s stand-in for @grpc/proto-loader)', function () {
  let dir: string;
  let ours: Loaded;
  let theirs: Loaded;

  before(function () {
    dir = mkdtempSync(path.join(os.tmpdir(), 'grpc-package-'));
    writeFileSync(path.join(dir, `rpc.proto${DESCRIPTOR_SUFFIX}`), JSON.stringify(descriptorJSON(RPC_PROTO)));
    ours = loadSync(path.join(dir, 'rpc.proto'), ETCD3_OPTIONS) as Loaded;
    theirs = protoLoaderLoadSync(RPC_PROTO, ETCD3_OPTIONS) as unknown as Loaded;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const services = (def: Loaded) => Object.keys(def).filter((k) => !('format' in def[k]!)).sort();
  const methodsOf = (def: Loaded, s: string) => Object.keys(def[s]!).sort();

  it('defines the same services and methods as proto-loader (six etcd services)', function () {
    expect(services(ours)).to.deep.equal(services(theirs));
    expect(services(ours)).to.include.members(['etcdserverpb.KV', 'etcdserverpb.Watch', 'etcdserverpb.Lease', 'etcdserverpb.Cluster', 'etcdserverpb.Maintenance', 'etcdserverpb.Auth']);
    for (const s of services(theirs)) expect(methodsOf(ours, s), s).to.deep.equal(methodsOf(theirs, s));
  });

  it('gives every method proto-loader\'s path, streaming flags and original name', function () {
    for (const s of services(theirs)) {
      for (const m of methodsOf(theirs, s)) {
        const [a, b] = [ours[s]![m]!, theirs[s]![m]!];
        expect({ path: a.path, requestStream: a.requestStream, responseStream: a.responseStream, originalName: a.originalName }, `${s}.${m}`)
          .to.deep.equal({ path: b.path, requestStream: b.requestStream, responseStream: b.responseStream, originalName: b.originalName });
      }
    }
    expect(ours['etcdserverpb.Watch']!.Watch!).to.include({ path: '/etcdserverpb.Watch/Watch', requestStream: true, responseStream: true });
  });

  it('decodes every method\'s empty request and response to the same defaults', function () {
    for (const s of services(theirs)) {
      for (const m of methodsOf(theirs, s)) {
        const [a, b] = [ours[s]![m]!, theirs[s]![m]!];
        expect(a.requestDeserialize(Buffer.alloc(0)), `${s}.${m} request`).to.deep.equal(b.requestDeserialize(Buffer.alloc(0)));
        expect(a.responseDeserialize(Buffer.alloc(0)), `${s}.${m} response`).to.deep.equal(b.responseDeserialize(Buffer.alloc(0)));
      }
    }
  });

  const requests: Array<[string, string, object]> = [
    ['etcdserverpb.KV', 'Range', { key: Buffer.from('/registry/pods/'), range_end: Buffer.from('/registry/pods0'), limit: '500', revision: 12, sort_order: 'DESCEND', keys_only: true, min_mod_revision: '7' }],
    ['etcdserverpb.KV', 'Txn', {
      compare: [{ key: Buffer.from('/registry/a'), target: 'MOD', result: 'EQUAL', mod_revision: '42' }, { key: Buffer.from('/registry/b'), target: 'CREATE', result: 'EQUAL', create_revision: 0 }],
      success: [{ request_put: { key: Buffer.from('/registry/a'), value: Buffer.from([0, 1, 255]), lease: '7587862402930042627', prev_kv: true } }],
      failure: [{ request_range: { key: Buffer.from('/registry/a') } }, { request_delete_range: { key: Buffer.from('/registry/b'), prev_kv: true } }],
    }],
    ['etcdserverpb.KV', 'Compact', { revision: '1000', physical: true }],
    ['etcdserverpb.Watch', 'Watch', { create_request: { key: Buffer.from('/registry/'), range_end: Buffer.from('/registry0'), start_revision: '99', progress_notify: true, prev_kv: true, filters: ['NOPUT'] } }],
    ['etcdserverpb.Watch', 'Watch', { cancel_request: { watch_id: '3' } }],
    ['etcdserverpb.Watch', 'Watch', { progress_request: {} }],
    ['etcdserverpb.Lease', 'LeaseGrant', { TTL: '3600', ID: 0 }],
  ];
  for (const [s, m, value] of requests) {
    it(`serializes a ${s}.${m} request to proto-loader's bytes`, function () {
      const bytes = ours[s]![m]!.requestSerialize(value);
      expect(Buffer.isBuffer(bytes)).to.equal(true);
      expect(bytes.toString('hex')).to.equal(theirs[s]![m]!.requestSerialize(value).toString('hex'));
    });
  }

  const header = { cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision: '1234', raft_term: '2' };
  const kv = { key: Buffer.from('/registry/configmaps/default/a'), create_revision: '10', mod_revision: '1234', version: '3', value: Buffer.from('{"kind":"ConfigMap"}'), lease: '0' };
  const responses: Array<[string, string, object]> = [
    ['etcdserverpb.KV', 'Range', { header, kvs: [kv, { ...kv, key: Buffer.from('/registry/configmaps/default/b') }], more: true, count: '2' }],
    ['etcdserverpb.KV', 'Txn', { header, succeeded: false, responses: [{ response_range: { header, kvs: [kv], count: '1' } }, { response_delete_range: { header, deleted: '1', prev_kvs: [kv] } }] }],
    ['etcdserverpb.Watch', 'Watch', { header, watch_id: '5', created: true, compact_revision: '0', events: [{ type: 'DELETE', kv, prev_kv: kv }, { type: 'PUT', kv }] }],
    ['etcdserverpb.Watch', 'Watch', { header, watch_id: '5', canceled: true, compact_revision: '77', cancel_reason: 'mvcc: required revision has been compacted' }],
    ['etcdserverpb.Lease', 'LeaseKeepAlive', { header, ID: '7587862402930042627', TTL: '60' }],
  ];
  for (const [s, m, value] of responses) {
    it(`deserializes a ${s}.${m} response to proto-loader's object`, function () {
      const bytes = theirs[s]![m]!.responseSerialize(value);
      expect(ours[s]![m]!.responseSerialize(value).toString('hex')).to.equal(bytes.toString('hex'));
      const decoded = ours[s]![m]!.responseDeserialize(bytes);
      expect(decoded).to.deep.equal(theirs[s]![m]!.responseDeserialize(bytes));
      expect(JSON.stringify(decoded)).to.include('"revision":"1234"');
    });
  }

  it('writes 64-bit values as proto-loader does at and past ±2^53, signed and unsigned', function () {
    const values = ['0', '1', '9007199254740991', '9007199254740992', '9007199254740993', '9223372036854775807', '-1', '-9007199254740991', '-9007199254740993', '-9223372036854775808', '4294967296', '4294967295'];
    for (const v of values) {
      // revision and compact_revision are int64, cluster_id and member_id uint64
      const unsigned = v.startsWith('-') ? '18446744073709551615' : v;
      const value = { header: { cluster_id: unsigned, member_id: '18446744073709551615', revision: v, raft_term: '4294967297' }, watch_id: v, compact_revision: v };
      const bytes = theirs['etcdserverpb.Watch']!.Watch!.responseSerialize(value);
      const decoded = ours['etcdserverpb.Watch']!.Watch!.responseDeserialize(bytes) as { header: Record<string, string>; compact_revision: string };
      expect(decoded, v).to.deep.equal(theirs['etcdserverpb.Watch']!.Watch!.responseDeserialize(bytes));
      expect(decoded.compact_revision).to.equal(v);
      expect(decoded.header).to.include({ cluster_id: unsigned, member_id: '18446744073709551615', revision: v, raft_term: '4294967297' });
    }
  });

  it('refuses an array where a message belongs, as proto-loader does', function () {
    expect(() => ours['etcdserverpb.KV']!.Range!.requestSerialize([] as unknown as object)).to.throw('expected object with RangeRequest structure, got array instead');
  });

  it('throws when the descriptor is missing beside the .proto path', function () {
    expect(() => loadSync(path.join(dir, 'absent.proto'), ETCD3_OPTIONS)).to.throw(/ENOENT/);
  });
});
