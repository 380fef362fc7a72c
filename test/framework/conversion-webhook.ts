/**
 * A real conversion webhook for tests (upstream CRD `spec.conversion.strategy: Webhook`): an
 * HTTPS server on `127.0.0.1:0` with a CA of its own (its `caBundle`) and a serving certificate
 * for 127.0.0.1 and the DNS names asked (`<service>.<namespace>.svc`). It records every
 * ConversionReview and answers per path with what the test's responder says: a response (by
 * default each object converted by a function, `Success`), a whole review document, arbitrary
 * text with a status, or nothing until the caller gives up.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TestHTTPSServer } from './https-test-server.js';

type Obj = Record<string, unknown>;

/** One ConversionReview received. */
export interface ReceivedConversionReview {
  path: string;
  /** The query string as sent (`timeout=30s`). */
  query: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The request's User-Agent. */
  userAgent: string;
}

/** What the webhook does with one review. */
export type ConversionReply =
  /** `response` fields besides `uid` (which echoes the request's unless given); the review's apiVersion is echoed unless `apiVersion` is given. */
  | { response: Obj; apiVersion?: string; delayMs?: number }
  /** This document as the whole answer. */
  | { document: unknown }
  | { text: string; status?: number; contentType?: string }
  | { hang: true };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ConversionResponder = (review: any) => ConversionReply;

/**
 * A responder converting every object with `fn` (default: only `apiVersion` set to the desired
 * one) and answering `Success`.
 */
export function convertWith(fn: (obj: Obj, desiredAPIVersion: string) => Obj = (o, v) => ({ ...o, apiVersion: v })): ConversionResponder {
  return (review) => ({
    response: {
      convertedObjects: (review.request.objects as Obj[]).map((o) => fn(o, review.request.desiredAPIVersion as string)),
      result: { status: 'Success' },
    },
  });
}

/** A responder answering `Failure` with `message`. */
export const failWith =
  (message: string): ConversionResponder =>
  () => ({ response: { result: { status: 'Failure', message } } });

/** A running conversion webhook server. */
export class ConversionWebhookServer extends TestHTTPSServer<ConversionResponder> {
  /** Every review received, in order. */
  readonly reviews: ReceivedConversionReview[] = [];

  /** Starts a webhook whose certificate names 127.0.0.1 and `dnsNames`. */
  static async start(dnsNames: string[] = []): Promise<ConversionWebhookServer> {
    const hook = new ConversionWebhookServer();
    await hook.listen({ dnsNames, caName: 'conversion-webhook-ca', commonName: 'conversion-webhook' });
    return hook;
  }

  protected answer(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    this.reviews.push({ path: url.pathname, query: url.search.slice(1), body, userAgent: req.headers['user-agent'] ?? '' });
    const responder = this.responders.get(url.pathname) ?? convertWith();
    void this.reply(res, responder(body), body);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async reply(res: ServerResponse, r: ConversionReply, review: any): Promise<void> {
    if ('hang' in r) return;
    if ('text' in r) {
      res.writeHead(r.status ?? 200, { 'Content-Type': r.contentType ?? 'text/plain' });
      res.end(r.text);
      return;
    }
    if ('document' in r) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(r.document));
      return;
    }
    if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
    if (res.destroyed) return;
    const answer = { apiVersion: r.apiVersion ?? review?.apiVersion, kind: 'ConversionReview', response: { uid: review?.request?.uid, ...r.response } };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer));
  }
}
