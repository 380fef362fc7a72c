/**
 * Bounded concurrency for start-up work made of many independent requests (issue #22 § Ready in
 * under a second): the default RBAC policy and the flow-control configuration are each ~100
 * reconciled objects, whose reads the storage layer batches into one etcd transaction when they
 * are in flight together.
 */

/**
 * Calls `fn` on every item, at most `limit` at once (a positive integer). Resolves when all have
 * finished. On the first rejection no further item is started, the calls in flight are waited
 * for, and the first error is thrown.
 */
export async function forEachConcurrently<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { err: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw failed.err;
}
