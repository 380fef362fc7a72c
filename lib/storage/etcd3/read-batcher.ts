/**
 * Quorum reads of single keys, batched (spec 000 § Resource versions: a get without a
 * resourceVersion returns the most recent state). A read waits in a queue until no batch is in
 * flight, then goes out with every other waiting read as the ranges of one read-only etcd
 * transaction. Each read is answered by a transaction sent after the read was asked for, so it
 * observes every write acknowledged before it: the answer is as linearizable as a range of its
 * own, and N concurrent gets cost one etcd round trip instead of N.
 */
import type { Etcd3, IKeyValue, ITxnResponse } from 'etcd3';

/** etcd's default `--max-txn-ops` is 128; half of it leaves room for a server configured lower. */
export const MAX_BATCH_READS = 64;

/** One key's answer: its key-value (undefined when absent) and the revision the batch was read at. */
export interface BatchedRead {
  kv: IKeyValue | undefined;
  revision: string;
}

interface Pending {
  key: Buffer;
  resolve(r: BatchedRead): void;
  reject(err: unknown): void;
}

/**
 * The batching queue of one etcd client. Errors: a failed transaction rejects every read of its
 * batch with the client's error, which the caller wraps (lib/storage/etcd3/client.ts
 * wrapEtcdError) as for a range of its own.
 */
export class QuorumReadBatcher {
  private queue: Pending[] = [];
  private inFlight = false;

  constructor(
    private readonly client: Etcd3,
    private readonly maxBatch = MAX_BATCH_READS,
  ) {}

  /** Reads `key` at the current revision. */
  read(key: string): Promise<BatchedRead> {
    return new Promise<BatchedRead>((resolve, reject) => {
      this.queue.push({ key: Buffer.from(key), resolve, reject });
      if (!this.inFlight) this.send();
    });
  }

  /** Sends the waiting reads (up to the batch limit) as one transaction; the rest go when it returns. */
  private send(): void {
    const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
    this.queue = batch === this.queue ? [] : this.queue.slice(this.maxBatch);
    this.inFlight = true;
    this.client.kv
      .txn({ compare: [], success: batch.map((p) => ({ request_range: { key: p.key } })), failure: [] })
      .then(
        (res: ITxnResponse) => {
          const revision = res.header.revision;
          for (let i = 0; i < batch.length; i++) batch[i]!.resolve({ kv: res.responses[i]?.response_range.kvs[0], revision });
        },
        (err: unknown) => {
          for (const p of batch) p.reject(err);
        },
      )
      .finally(() => {
        this.inFlight = false;
        if (this.queue.length > 0) this.send();
      });
  }
}

const batchers = new WeakMap<Etcd3, QuorumReadBatcher>();

/** The one batcher of `client`, so that gets of every resource over one client share batches. */
export function quorumReadBatcher(client: Etcd3): QuorumReadBatcher {
  let b = batchers.get(client);
  if (!b) {
    b = new QuorumReadBatcher(client);
    batchers.set(client, b);
  }
  return b;
}
