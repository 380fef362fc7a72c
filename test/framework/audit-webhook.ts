/**
 * A local HTTPS audit webhook for tests (issue #16 item 4): records every `EventList` POSTed to
 * `/audit`, answering after `delayMs` (a slow sink) or never while `hang` is set.
 */
import { writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { stringify } from 'yaml';
import type { AuditEvent } from '../../lib/audit/types.js';
import { TestHTTPSServer } from './https-test-server.js';

/** What the sink does with the next requests. */
export interface AuditSinkBehaviour {
  /** Wait this long before answering 200 (ms). */
  delayMs: number;
  /** Never answer (until stop). */
  hang: boolean;
}

/** The webhook; `batches` holds each EventList's items in arrival order. */
export class AuditWebhookServer extends TestHTTPSServer<AuditSinkBehaviour> {
  readonly batches: AuditEvent[][] = [];
  /** The EventList envelopes received (kind, apiVersion). */
  readonly envelopes: Array<{ kind: unknown; apiVersion: unknown }> = [];
  behaviour: AuditSinkBehaviour = { delayMs: 0, hang: false };

  /** Starts a webhook on 127.0.0.1. */
  static async start(): Promise<AuditWebhookServer> {
    const s = new AuditWebhookServer();
    await s.listen({ caName: 'audit-webhook-ca', commonName: 'audit-webhook' });
    return s;
  }

  /** Every event received. */
  get events(): AuditEvent[] {
    return this.batches.flat();
  }

  /** Writes a kubeconfig naming `/audit` with this server's CA into `dir`; returns its path. */
  async writeKubeconfig(dir: string): Promise<string> {
    const file = path.join(dir, 'audit-webhook.kubeconfig');
    await writeFile(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'audit', cluster: { server: this.url('/audit'), 'certificate-authority-data': this.caBundle } }],
        users: [{ name: 'apiserver', user: {} }],
        contexts: [{ name: 'audit', context: { cluster: 'audit', user: 'apiserver' } }],
        'current-context': 'audit',
      }),
    );
    return file;
  }

  protected answer(_req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    if (url.pathname !== '/audit') {
      res.writeHead(404).end();
      return;
    }
    const list = body as { kind?: unknown; apiVersion?: unknown; items?: AuditEvent[] } | undefined;
    this.envelopes.push({ kind: list?.kind, apiVersion: list?.apiVersion });
    this.batches.push(list?.items ?? []);
    if (this.behaviour.hang) return;
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'), this.behaviour.delayMs);
  }
}
