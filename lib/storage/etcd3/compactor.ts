/**
 * Periodic etcd compaction, safe with several API server replicas: each interval a transaction
 * on a shared key (compare its version with the one seen last) elects one replica to compact to
 * the revision recorded one interval earlier, so at least one interval of history (default 5m)
 * is always kept. That bounds watch history and continue tokens (spec 001 § Limits).
 */
import type { Etcd3 } from 'etcd3';
import { isCompactedError } from './client.js';

/** The shared key whose version counts compaction rounds across replicas. */
export const COMPACT_REV_KEY = 'compact_rev_key';

/** Result of one round: the key version now, and the store revision observed. */
interface Round {
  version: number;
  revision: number;
}

/**
 * One compaction round. `version` is the key version this replica last saw; `revision` the store
 * revision it saw then (0 on the first round: nothing is compacted at bootstrap).
 */
export async function compactOnce(client: Etcd3, version: number, revision: number): Promise<Round> {
  const key = Buffer.from(COMPACT_REV_KEY);
  const res = await client.kv.txn({
    compare: [{ key, target: 'Version', result: 'Equal', version }],
    success: [{ request_put: { key, value: Buffer.from(String(revision)) } }],
    failure: [{ request_range: { key } }],
  });
  const current = Number(res.header.revision);
  if (!res.succeeded) {
    const kv = res.responses[0]?.response_range?.kvs[0];
    return { version: kv ? Number(kv.version) : 0, revision: current };
  }
  if (revision > 0) {
    try {
      await client.kv.compact({ revision, physical: false });
    } catch (err) {
      if (!isCompactedError(err)) throw err;
    }
  }
  return { version: version + 1, revision: current };
}

/** A running compactor; `stop()` ends it. */
export interface Compactor {
  stop(): void;
}

/**
 * Starts compacting every `intervalMs` (0 disables). Failures are reported to `onError` and the
 * loop continues.
 */
export function startCompactor(client: Etcd3, intervalMs: number, onError: (err: unknown) => void): Compactor {
  if (intervalMs <= 0) return { stop: () => undefined };
  let state: Round = { version: 0, revision: 0 };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    compactOnce(client, state.version, state.revision)
      .then((next) => {
        state = next;
      })
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
