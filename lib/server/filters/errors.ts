/**
 * The outermost filter: every thrown error becomes a Status response (ARCHITECTURE.md § Errors);
 * unexpected errors are logged and answered 500 without leaking internals. Also turns a request
 * nothing handled into a 404 Status.
 */
import type { Context, Next } from 'koa';
import { StatusError, newInternalError } from '../../apimachinery/errors.js';
import { encodeJSON } from '../../apimachinery/serializers/json.js';
import { writeWarnings } from '../../endpoints/handlers/scope.js';
import type { RequestContext } from '../../request/context.js';
import { protobufMediaTypes } from '../../endpoints/handlers/protobuf.js';
import { newResourceNotFound } from '../../endpoints/installer.js';
import { essence, parseAccept } from '../../endpoints/negotiation/media-type.js';
import { STATUS_KIND, encodeProtobuf } from '../../apimachinery/serializers/protobuf/index.js';

/** Logger of unexpected errors. */
export type ErrorLogger = (err: unknown, koa: Context) => void;

/**
 * The media type of an error body: protobuf (a spelling the server accepts: `protobufTypes`)
 * when the client asks for it before JSON, else JSON.
 */
function statusMediaType(accept: string | undefined, protobufTypes: readonly string[]): string {
  for (const r of parseAccept(accept)) {
    const mt = essence(r);
    if (protobufTypes.includes(mt)) return mt;
    if (mt === 'application/json' || r.type === '*' || (r.type === 'application' && r.subtype === '*')) return 'application/json';
  }
  return 'application/json';
}

/** Writes a StatusError as the response (JSON, or protobuf in a spelling of `protobufTypes` for clients that ask for it first). */
function writeStatusError(koa: Context, err: StatusError, protobufTypes: readonly string[]): void {
  koa.status = err.status.code;
  const mediaType = statusMediaType(koa.get('Accept'), protobufTypes);
  koa.set('Content-Type', mediaType);
  for (const [k, v] of Object.entries(err.headers)) koa.set(k, v);
  const req = (koa.state as { requestContext?: RequestContext }).requestContext;
  if (req) writeWarnings(koa, req);
  koa.body = protobufTypes.includes(mediaType) ? encodeProtobuf(err.status as unknown as Record<string, unknown>, STATUS_KIND) : encodeJSON(err.status);
}

/**
 * Koa middleware converting errors to Status bodies; `upstreamAliases` (`--upstream-aliases`)
 * decides whether the upstream spelling of the protobuf media type may encode them.
 */
export function withStatusErrors(log: ErrorLogger, upstreamAliases = true) {
  const protobufTypes = protobufMediaTypes(upstreamAliases);
  return async (koa: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (koa.status === 404 && (koa.body === undefined || koa.body === null)) writeStatusError(koa, newResourceNotFound(), protobufTypes);
    } catch (err) {
      if (err instanceof StatusError) {
        writeStatusError(koa, err, protobufTypes);
        return;
      }
      log(err, koa);
      if (koa.headerSent) return;
      writeStatusError(koa, newInternalError('an unexpected error occurred'), protobufTypes);
    }
  };
}
