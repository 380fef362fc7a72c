/**
 * A real admission webhook for tests (spec 001 § Admission control): an HTTPS server on
 * `127.0.0.1:0` with a CA of its own (its `caBundle`) and a serving certificate for 127.0.0.1
 * and the DNS names asked (`<service>.<namespace>.svc`), which records every AdmissionReview and
 * answers per path with what the test's responder says: a response (allowed, denied, a JSONPatch,
 * warnings), after a delay if asked, arbitrary text, an oversized body, a reset connection, or
 * nothing until the caller gives up.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { TestHTTPSServer } from './https-test-server.js';

/** One AdmissionReview received. */
export interface ReceivedAdmissionReview {
  path: string;
  /** The query string as sent (`timeout=10s`). */
  query: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** When the request was complete (ms, performance.now()). */
  at: number;
}

/** What the webhook does with one review. */
export type AdmissionReply =
  /** `response` fields besides `uid` (which echoes the request's unless given); the review's apiVersion is echoed unless `apiVersion` is given. */
  | { response: Record<string, unknown>; delayMs?: number; apiVersion?: string }
  | { text: string; status?: number; contentType?: string; delayMs?: number }
  /** A JSON body of more than `oversize` bytes. */
  | { oversize: number }
  | { reset: true }
  | { hang: true };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AdmissionResponder = (review: any) => AdmissionReply;

/** `allowed: true`. */
export const allow = (): AdmissionReply => ({ response: { allowed: true } });
/** `allowed: false` with a Status of `message` and `code` (omitted when undefined). */
export const deny = (message: string, code?: number): AdmissionReply => ({ response: { allowed: false, status: { message, ...(code === undefined ? {} : { code }) } } });
/** `allowed: true` with a JSONPatch of `ops`. */
export const patch = (ops: unknown[]): AdmissionReply => ({
  response: { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') },
});

/** A running webhook server. */
export class AdmissionWebhookServer extends TestHTTPSServer<AdmissionResponder> {
  /** Every review received, in order. */
  readonly reviews: ReceivedAdmissionReview[] = [];
  /** TLS connections accepted so far. */
  connections = 0;
  /** Connections the server saw closed by the caller while it was still answering (hang / delay). */
  abandoned = 0;

  /**
   * Starts a webhook whose certificate names 127.0.0.1 and `dnsNames`, listening on 127.0.0.1
   * or, with `everyInterface`, on every IPv4 address (to be reached as an Endpoints address,
   * which may not be a loopback one).
   */
  static async start(dnsNames: string[] = [], everyInterface = false): Promise<AdmissionWebhookServer> {
    const hook = new AdmissionWebhookServer();
    await hook.listen({ dnsNames, everyInterface, caName: 'webhook-ca', commonName: 'webhook' }, () => hook.connections++);
    return hook;
  }

  /** An IPv4 address of this machine other than a loopback one, or undefined when it has none. */
  static externalAddress(): string | undefined {
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
    }
    return undefined;
  }

  /** The reviews posted to `path`. */
  reviewsAt(path: string): ReceivedAdmissionReview[] {
    return this.reviews.filter((r) => r.path === path);
  }

  protected answer(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    this.reviews.push({ path: url.pathname, query: url.search.slice(1), body, at: performance.now() });
    const responder = this.responders.get(url.pathname) ?? allow;
    void this.reply(req, res, responder(body), body);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async reply(req: IncomingMessage, res: ServerResponse, r: AdmissionReply, review: any): Promise<void> {
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        gone = true;
        this.abandoned++;
      }
    });
    if ('hang' in r) return;
    if ('reset' in r) {
      req.socket.destroy();
      return;
    }
    if ('oversize' in r) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(Buffer.concat([Buffer.from('{"padding":"'), Buffer.alloc(r.oversize, 'a'), Buffer.from('"}')]));
      return;
    }
    if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
    if (gone) return;
    if ('text' in r) {
      res.writeHead(r.status ?? 200, { 'Content-Type': r.contentType ?? 'text/plain' });
      res.end(r.text);
      return;
    }
    const answer = {
      apiVersion: r.apiVersion ?? review?.apiVersion,
      kind: 'AdmissionReview',
      response: { uid: review?.request?.uid, ...r.response },
    };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer));
  }
}

/** A ValidatingWebhookConfiguration or MutatingWebhookConfiguration of webhooks with sensible defaults (pods, CREATE). */
export function webhookConfiguration(kind: 'Validating' | 'Mutating', name: string, webhooks: Array<Record<string, unknown>>, group: string): Record<string, unknown> {
  return {
    apiVersion: `${group}/v1`,
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: webhooks.map((w) => ({
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      ...w,
    })),
  };
}
