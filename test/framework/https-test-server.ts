/**
 * The common part of the test webhook servers (admission-webhook.ts, conversion-webhook.ts): an
 * HTTPS server on a free port with a certificate of its own CA (naming 127.0.0.1 and the given
 * DNS names), responders by path, the `caBundle` a configuration names it with, and a stop that
 * drops open connections.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createCaCertificate, createSignedCertificate } from '../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../lib/server/pki/keys.js';

/** Options of a test HTTPS server. */
export interface TestHTTPSServerOptions {
  /** Names of the serving certificate besides 127.0.0.1. */
  dnsNames?: string[];
  /** Listen on every IPv4 address instead of 127.0.0.1. */
  everyInterface?: boolean;
  /** Common names of the CA and of the serving certificate. */
  caName: string;
  commonName: string;
}

/** An HTTPS test server answering each path with the responder registered for it (`R`). */
export abstract class TestHTTPSServer<R> {
  protected readonly responders = new Map<string, R>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  /** PEM of the server's CA. */
  caPem = '';

  /** Creates the certificate and listens; `onConnection` is told of each TLS connection. */
  protected async listen(opts: TestHTTPSServerOptions, onConnection: () => void = () => undefined): Promise<void> {
    const [caKey, key] = await Promise.all([generateRsaKey(), generateRsaKey()]);
    this.caPem = createCaCertificate(caKey, opts.caName, 1);
    const cert = createSignedCertificate({ certPem: this.caPem, key: caKey }, { key, commonName: opts.commonName, usage: 'server', dnsNames: opts.dnsNames ?? [], ips: ['127.0.0.1'], validDays: 1 });
    const server = createServer({ cert, key: key.privateKeyPem, keepAliveTimeout: 30_000 });
    this.server = server;
    server.on('secureConnection', (socket: Socket) => {
      onConnection();
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, opts.everyInterface ? '0.0.0.0' : '127.0.0.1', () => resolve()));
  }

  /** Reads a request's body as JSON (undefined when it is not JSON), then answers it with `answer`. */
  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://x');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      this.answer(req, res, url, body);
    });
  }

  /** Answers one request whose JSON body is `body` (undefined when the body is not JSON). */
  protected abstract answer(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void;

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** `caBundle` of a configuration naming this server: the CA, base64. */
  get caBundle(): string {
    return Buffer.from(this.caPem).toString('base64');
  }

  /** `https://127.0.0.1:<port><path>`. */
  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  /** Answers requests to `path` with `responder` (replacing any earlier one). */
  on(path: string, responder: R): void {
    this.responders.set(path, responder);
  }

  /** Closes the server and every open connection. */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
