/**
 * Construction of the etcd client. Fault handling never retries a call that may have reached
 * etcd: a retried create-if-absent that had succeeded would report a false conflict
 * (LIBRARIES.md § etcd client); failover.ts retries only what is safe. This folder is the only
 * importer of the `etcd3` package.
 */
import { noop } from 'cockatiel';
import { Etcd3 } from 'etcd3';
import { alarmRaised, requestTooLarge, StorageError, unreachable, writeTimeout } from '../errors.js';
import { alarmRefusal, memberPolicy, outcomeUnknown, refusedAsTooLarge, withFailover } from './failover.js';

/** Client TLS towards etcd (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`), PEM bytes. */
export interface EtcdTLS {
  /** CAs that verify the members' serving certificates; absent: the system's roots. */
  ca?: Buffer;
  /** Client certificate (chain) and its key; both or neither. */
  cert?: Buffer;
  key?: Buffer;
}

/**
 * The HTTP/2 flow-control window of the connection to an etcd member and of each of its streams,
 * bytes: what etcd may send before this process acknowledges it. Every watch and every call shares
 * one connection, and Node acknowledges data only as its event loop reads it. With HTTP/2's
 * default of 64 KiB, the Pod watch cache of a busy worker fell up to 4,000 revisions (12 s)
 * behind etcd at 1,500 simulated nodes, and a kubelet saw its Pod's change 15–55 s after the write
 * (p99); with this window it kept up with etcd (issue #24; README § Scale). Upstream's client
 * (grpc-go) grows its window up to 16 MiB as it measures the link; this is that size from the start.
 */
export const ETCD_FLOW_CONTROL_WINDOW = 16 * 1024 * 1024;

/**
 * The largest answer from etcd this client reads, bytes. A range of many large objects can pass
 * it; the storage then asks for fewer keys at a time (store.ts `getList`).
 */
export const MAX_RECEIVE_MESSAGE_BYTES = 256 * 1024 * 1024;

/**
 * Opens a client to the etcd cluster at `endpoints` (`http://127.0.0.1:2379`, `https://…`; any
 * number of members), over TLS when `tls` is given. Calls go to a live member: a failed member
 * is skipped for a while and safe calls are retried elsewhere (failover.ts). Answers larger than
 * `maxReceiveMessageBytes` are refused (tests pass a small bound).
 * @throws Error from the package when `endpoints` is empty or mixes http and https without `tls`.
 */
export function newEtcdClient(endpoints: string[], tls?: EtcdTLS, maxReceiveMessageBytes = MAX_RECEIVE_MESSAGE_BYTES): Etcd3 {
  return withFailover(new Etcd3({
    hosts: endpoints,
    dialTimeout: 5_000,
    // grpc's createSsl takes null for "the system's roots"; the package's type wants a Buffer.
    ...(tls ? { credentials: { rootCertificate: tls.ca ?? (null as unknown as Buffer), privateKey: tls.key, certChain: tls.cert } } : {}),
    faultHandling: { global: noop, host: () => memberPolicy() },
    grpcOptions: {
      'grpc.max_receive_message_length': maxReceiveMessageBytes,
      'grpc.max_send_message_length': 8 * 1024 * 1024,
      'grpc-node.flow_control_window': ETCD_FLOW_CONTROL_WINDOW,
    },
  }));
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

/**
 * Rethrows a failure of an etcd call about `key`: StorageErrors as they are, a write that may
 * have been applied (failover.ts `outcomeUnknown`) as Timeout, a request past etcd's size limit
 * as RequestTooLarge (a definite refusal), an etcd alarm's answer (the database full) as Alarm,
 * anything else as Unreachable
 * (etcd did not do it: no member reachable, no leader, or a read that kept failing).
 */
export function wrapEtcdError(key: string, err: unknown): never {
  if (err instanceof StorageError) throw err;
  const detail = err instanceof Error ? err.message : String(err);
  if (refusedAsTooLarge(err)) throw requestTooLarge(key, 'etcdserver: request is too large');
  const alarm = alarmRefusal(err);
  if (alarm) throw alarmRaised(key, alarm);
  throw outcomeUnknown(err) ? writeTimeout(key, detail) : unreachable(key, detail);
}

/** True when an etcd error says the requested revision was compacted. */
export function isCompactedError(err: unknown): boolean {
  return err instanceof Error && err.message.includes('required revision has been compacted');
}

/** True when an etcd error says the requested revision is in the future. */
export function isFutureRevisionError(err: unknown): boolean {
  return err instanceof Error && err.message.includes('required revision is a future revision');
}
