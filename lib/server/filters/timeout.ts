/**
 * Request timeout for short requests (not watches): after the deadline the client gets 504 Timeout
 * and the request context is aborted (upstream `--request-timeout`, default 60s).
 */
import type { Context, Next } from 'koa';
import { newTimeout } from '../../apimachinery/errors.js';

/** Koa middleware bounding non-long-running requests by `timeoutMs`. */
export function withTimeout(timeoutMs: number, isLongRunning: (koa: Context) => boolean) {
  return async (koa: Context, next: Next): Promise<void> => {
    if (timeoutMs <= 0 || isLongRunning(koa)) return next();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(newTimeout('request did not complete within requested timeout - context deadline exceeded', 0)), timeoutMs);
    });
    try {
      await Promise.race([next(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
