/**
 * A real TokenReview webhook for tests (spec 001 § Webhook token authentication): an HTTPS
 * server on `127.0.0.1:0` with the run's serving certificate, which checks the caller's
 * credentials (a client certificate of the run's CA, or a bearer token), records every request
 * and answers with what the test's responder says (a TokenReview, an error status, garbage, a
 * reset connection, or nothing until released).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { stringify } from 'yaml';
import { usePKI } from './test-server.js';

/** One request the webhook received. */
export interface ReceivedReview {
  /** The body exactly as sent. */
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: IncomingHttpHeaders;
  path: string;
  /** CN of the verified client certificate, if any. */
  clientCN?: string;
}

/** What the webhook does with one request. */
export type WebhookReply =
  | { status?: number; body: unknown; headers?: Record<string, string> }
  | { status?: number; text: string; headers?: Record<string, string> }
  | { reset: true }
  | { hang: true };

/** Decides the answer to a review (`token` is `spec.token`). */
export type Responder = (review: ReceivedReview, token: string) => WebhookReply;

/** How the server's kubeconfig authenticates to the webhook. */
export type WebhookCredentials = { kind: 'certificate' } | { kind: 'token'; token: string };

/** A running webhook. */
export class TokenReviewWebhook {
  /** Every request received, in order. */
  readonly calls: ReceivedReview[] = [];
  /** What the next requests get; replace it between tests. */
  respond: Responder = () => ({ body: { status: { authenticated: false } } });
  private readonly hanging = new Set<ServerResponse>();
  private written = 0;

  private constructor(
    private readonly server: Server,
    /** PEM of the CA that signed the webhook's serving certificate. */
    readonly caPem: string,
    private readonly credentials: WebhookCredentials,
    private readonly client: { certPem: string; keyPem: string },
    private readonly dir: string,
  ) {}

  /**
   * Starts a webhook on `127.0.0.1:0` at path `/authenticate` that accepts only callers with
   * `credentials` (401 otherwise).
   */
  static async start(credentials: WebhookCredentials = { kind: 'certificate' }): Promise<TokenReviewWebhook> {
    const { pki } = await usePKI();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-token-webhook-'));
    const server = createServer({ cert: pki.servingCertPem, key: pki.servingKeyPem, ca: pki.caCertPem, requestCert: true, rejectUnauthorized: false });
    const hook = new TokenReviewWebhook(server, pki.caCertPem, credentials, { certPem: pki.adminCertPem, keyPem: pki.adminKeyPem }, dir);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => hook.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return hook;
  }

  /** `https://127.0.0.1:<port>/authenticate`. */
  get url(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/authenticate`;
  }

  /**
   * Writes a kubeconfig naming this webhook (its CA embedded, or `caPem`; `server` instead of its URL)
   * and the credentials it expects; the client certificate and key are files beside it, named by
   * relative paths. `file` defaults to a file in the webhook's temporary directory.
   */
  async writeKubeconfig(opts: { file?: string; server?: string; caPem?: string } = {}): Promise<string> {
    const file = opts.file ?? path.join(this.dir, `webhook-${this.written++}.kubeconfig`);
    const dir = path.dirname(file);
    const user: Record<string, string> =
      this.credentials.kind === 'token' ? { token: this.credentials.token } : { 'client-certificate': 'client.crt', 'client-key': 'client.key' };
    await writeFile(path.join(dir, 'client.crt'), this.client.certPem);
    await writeFile(path.join(dir, 'client.key'), this.client.keyPem);
    await writeFile(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'token-webhook', cluster: { server: opts.server ?? this.url, 'certificate-authority-data': Buffer.from(opts.caPem ?? this.caPem).toString('base64') } }],
        users: [{ name: 'apiserver', user }],
        contexts: [{ name: 'webhook', context: { cluster: 'token-webhook', user: 'apiserver' } }],
        'current-context': 'webhook',
      }),
    );
    return file;
  }

  /** Calls whose `spec.token` is `token`. */
  callsFor(token: string): ReceivedReview[] {
    return this.calls.filter((c) => c.body?.spec?.token === token);
  }

  /** Answers every hanging request with `reply`. */
  release(reply: WebhookReply): void {
    for (const res of this.hanging) this.answer(res, reply);
    this.hanging.clear();
  }

  /** Stops the webhook (hanging requests are dropped). */
  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.dir, { recursive: true, force: true });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const socket = req.socket as TLSSocket;
      const cert = socket.getPeerCertificate();
      const clientCN = socket.authorized && cert?.subject ? [cert.subject.CN].flat()[0] : undefined;
      const allowed = this.credentials.kind === 'token' ? req.headers.authorization === `Bearer ${this.credentials.token}` : clientCN !== undefined;
      if (!allowed) {
        res.writeHead(401, { 'Content-Type': 'text/plain' }).end('who are you?');
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const review: ReceivedReview = { raw, body, headers: req.headers, path: req.url ?? '', ...(clientCN && { clientCN }) };
      this.calls.push(review);
      const token = (body as { spec?: { token?: string } } | undefined)?.spec?.token ?? '';
      const reply = this.respond(review, token);
      if ('hang' in reply) this.hanging.add(res);
      else this.answer(res, reply);
    });
  }

  private answer(res: ServerResponse, reply: WebhookReply): void {
    if ('hang' in reply) return;
    if ('reset' in reply) {
      res.socket?.destroy();
      return;
    }
    const text = 'text' in reply ? reply.text : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...reply.headers }).end(text);
  }
}

/** A TokenReview answer of `apiVersion` authenticating `user` (or not, with `error`). */
export function reviewAnswer(
  apiVersion: string,
  status: { authenticated: boolean; user?: Record<string, unknown>; audiences?: string[]; error?: string },
): { body: unknown } {
  return { body: { apiVersion, kind: 'TokenReview', status } };
}
