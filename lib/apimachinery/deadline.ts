/**
 * A deadline on a promise, as a Go context with a timeout bounds a call: the result of `p`, or
 * the error `expired()` makes when `p` has not settled within `ms` milliseconds (its timer is
 * cleared as soon as `p` settles, so nothing is kept alive after).
 */
export function withDeadline<T>(p: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
