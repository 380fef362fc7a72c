/**
 * Construction of the etcd client. Fault handling never retries: a retried create-if-absent
 * that had succeeded would report a false conflict (LIBRARIES.md § etcd client). This folder is
 * the only importer of the `etcd3` package.
 */
import { noop } from 'cockatiel';
import { Etcd3 } from 'etcd3';
import { StorageError, unreachable } from '../errors.js';

/** Opens a client to the etcd cluster at `endpoints` (`http://127.0.0.1:2379`, …). */
export function newEtcdClient(endpoints: string[]): Etcd3 {
  return new Etcd3({
    hosts: endpoints,
    dialTimeout: 5_000,
    faultHandling: { global: noop, host: () => noop },
    grpcOptions: { 'grpc.max_receive_message_length': 256 * 1024 * 1024, 'grpc.max_send_message_length': 8 * 1024 * 1024 },
  });
}

/** The key that ends the range of all keys starting with `prefix` (prefix + 1). */
export function prefixEnd(prefix: string): Buffer {
  const b = Buffer.from(prefix);
  for (let i = b.length - 1; i >= 0; i--) {
    if (b[i]! < 0xff) {
      const end = Buffer.from(b.subarray(0, i + 1));
      end[i] = b[i]! + 1;
      return end;
    }
  }
  return Buffer.from([0]);
}

/** Rethrows a failure of an etcd call about `key`: StorageErrors as they are, anything else as Unreachable. */
export function wrapEtcdError(key: string, err: unknown): never {
  if (err instanceof StorageError) throw err;
  throw unreachable(key, err instanceof Error ? err.message : String(err));
}

/** True when an etcd error says the requested revision was compacted. */
export function isCompactedError(err: unknown): boolean {
  return err instanceof Error && err.message.includes('required revision has been compacted');
}

/** True when an etcd error says the requested revision is in the future. */
export function isFutureRevisionError(err: unknown): boolean {
  return err instanceof Error && err.message.includes('required revision is a future revision');
}
