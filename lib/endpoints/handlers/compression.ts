/**
 * Response compression (spec 000 § Content negotiation and encoding: `Accept-Encoding: gzip`,
 * feature gate APIResponseCompression): get and list responses larger than 128 KiB are gzipped
 * (upstream's `len > defaultGzipThresholdBytes`: a body of exactly 128 KiB is sent as it is) —
 * asynchronously, so compression never blocks the event loop.
 */
import type { Context } from 'koa';
import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';

/** Responses of at most this many bytes are sent as they are (upstream threshold). */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

const gzipAsync = promisify(gzip);

/** True when the client accepts gzip (`gzip` with a non-zero quality, or `*`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    const name = coding!.trim().toLowerCase();
    if (name !== 'gzip' && name !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Sets the response body, gzipped when `compress` and the body is a stream (a large list: see
 * streamed-body.ts, which streams only bodies past the threshold) or a buffer larger than the
 * threshold. Call with the body already encoded. A streamed body and its compressor form one
 * pipeline: when Koa destroys the compressor (the client went away) the body is destroyed too.
 */
export async function setBody(koa: Context, body: Buffer | Readable, compress: boolean): Promise<void> {
  if (compress) koa.vary('Accept-Encoding');
  if (compress && body instanceof Readable) {
    koa.set('Content-Encoding', 'gzip');
    koa.body = pipeline(body, createGzip(), () => undefined);
    return;
  }
  if (compress && Buffer.isBuffer(body) && body.length > GZIP_THRESHOLD_BYTES) {
    koa.set('Content-Encoding', 'gzip');
    koa.body = await gzipAsync(body);
    return;
  }
  koa.body = body;
}
