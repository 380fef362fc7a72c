/**
 * Hand-over of the objects an audit event records at level Request and above: the handlers note
 * the raw request body they read (body.ts `readBody`) and the object they answer with
 * (scope.ts `writeRepresented`), but only for requests the audit filter asked for; anything
 * else costs one WeakMap lookup.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';

const requestBodies = new WeakMap<IncomingMessage, { body?: Buffer }>();
const responseObjects = new WeakMap<Context, { obj?: unknown }>();

/** Asks for `req`'s body to be kept when a handler reads it. */
export function wantRequestBody(req: IncomingMessage): void {
  requestBodies.set(req, {});
}

/** Called by `readBody`: keeps `body` when it was asked for. */
export function recordRequestBody(req: IncomingMessage, body: Buffer): void {
  const slot = requestBodies.get(req);
  if (slot) slot.body = body;
}

/** The kept request body, if one was read. */
export function requestBodyOf(req: IncomingMessage): Buffer | undefined {
  return requestBodies.get(req)?.body;
}

/** Asks for the response object of `koa` to be kept. */
export function wantResponseObject(koa: Context): void {
  responseObjects.set(koa, {});
}

/** Called by the response writer: keeps `obj` (not copied; objects written are not mutated afterwards) when asked for. */
export function recordResponseObject(koa: Context, obj: unknown): void {
  const slot = responseObjects.get(koa);
  if (slot) slot.obj = obj;
}

/** The kept response object, if one was written. */
export function responseObjectOf(koa: Context): unknown {
  return responseObjects.get(koa)?.obj;
}
