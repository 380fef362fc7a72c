/**
 * A kubelet stand-in for the connect subresources' tests (issue #20): an HTTPS server with a
 * serving certificate of its own CA that requires a client certificate of another CA (the
 * server's `--kubelet-client-certificate`) and serves
 *   - `GET /containerLogs/<ns>/<pod>/<container>`: plain-text lines (`tailLines` of them, default
 *     3); with `follow=true` the first line is written at once and the rest only after
 *     `releaseFollow()`, so a test sees the stream before its end; containers `missing`,
 *     `broken`, `refused` and `busy` answer 404, 500, 400 and 503;
 *   - `/exec/<ns>/<pod>/<container>?command=echo&command=…` and `/attach/…` over WebSocket
 *     (`v5.channel.<domain>` or `v4.channel.<domain>`, either domain): `echo` writes its
 *     arguments on stdout, attach writes `attached`; then the Success status on channel 3;
 *   - `/portForward/<ns>/<pod>` over SPDY/3.1 (spdy-stand-in.ts): each data stream is echoed;
 *     `/exec/…` over SPDY/3.1 (kubectl's fallback): `echo` as above, on the stdout stream;
 *   - any other path (the `nodes/proxy` target): JSON `{path, query}`.
 * Every request is recorded with the client certificate's common name.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { UPSTREAM_DOMAIN, VENDOR_DOMAIN, channelProtocol } from '../../../lib/apis/vendor.js';
import { createCaCertificate, createSignedCertificate } from '../../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../../lib/server/pki/keys.js';
import { serveSpdy } from './spdy-stand-in.js';

/** One request the stand-in saw. */
export interface KubeletRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Common name of the client certificate presented. */
  clientCN: string;
}

/** The PEMs the API server's `--kubelet-*` flags name, and the stand-in's own. */
export interface KubeletPKI {
  /** CA of the stand-in's serving certificate (`--kubelet-certificate-authority`). */
  servingCAPem: string;
  /** Client certificate and key the server presents (`--kubelet-client-certificate`, `--kubelet-client-key`). */
  clientCertPem: string;
  clientKeyPem: string;
}

/** The output of an exec: `echo`'s arguments, nothing for another command. */
function execOutput(r: KubeletRequest): string {
  const command = r.query.getAll('command');
  return command[0] === 'echo' ? `${command.slice(1).join(' ')}\n` : '';
}

/** The streams a SPDY exec opens (error, then stdin, stdout, stderr as asked) and which is stdout. */
function execStreams(r: KubeletRequest): { streams: number; stdoutIndex: number; output: string } {
  const input = r.query.get('input') === '1' ? 1 : 0;
  const error = r.query.get('error') === '1' && r.query.get('tty') !== '1' ? 1 : 0;
  return { streams: 2 + input + error, stdoutIndex: 1 + input, output: execOutput(r) };
}

/** Containers whose log the stand-in refuses: status and body. */
const FAILING_CONTAINERS: Record<string, [number, string]> = { missing: [404, 'container not found'], broken: [500, 'runtime failure'], refused: [400, 'bad log request'], busy: [503, 'try later'] };

/** The protocols the stand-in speaks over WebSocket, most preferred first. */
const WS_PROTOCOLS = [5, 4].flatMap((v) => [channelProtocol(v, VENDOR_DOMAIN), channelProtocol(v, UPSTREAM_DOMAIN)]);

/** The kubelet stand-in. */
export class KubeletStandIn {
  readonly requests: KubeletRequest[] = [];
  readonly pki: KubeletPKI;
  private readonly sockets = new Set<Duplex>();
  private readonly wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => WS_PROTOCOLS.find((p) => offered.has(p)) ?? false });
  private release: (() => void) | undefined;
  private released: Promise<void>;

  private constructor(
    private readonly server: Server,
    pki: KubeletPKI,
  ) {
    this.pki = pki;
    this.released = new Promise((resolve) => (this.release = resolve));
  }

  /** Starts a stand-in on 127.0.0.1 with fresh certificates. */
  static async start(): Promise<KubeletStandIn> {
    const [servingCAKey, clientCAKey, servingKey, clientKey] = await Promise.all([generateRsaKey(), generateRsaKey(), generateRsaKey(), generateRsaKey()]);
    const servingCAPem = createCaCertificate(servingCAKey, 'kubelet-serving-ca', 1);
    const clientCAPem = createCaCertificate(clientCAKey, 'kubelet-client-ca', 1);
    const servingCert = createSignedCertificate({ certPem: servingCAPem, key: servingCAKey }, { key: servingKey, commonName: 'kubelet', usage: 'server', ips: ['127.0.0.1'], validDays: 1 });
    const clientCertPem = createSignedCertificate({ certPem: clientCAPem, key: clientCAKey }, { key: clientKey, commonName: 'apiserver-kubelet-client', usage: 'client', validDays: 1 });
    const server = createServer({ cert: servingCert, key: servingKey.privateKeyPem, ca: clientCAPem, requestCert: true, rejectUnauthorized: true });
    const k = new KubeletStandIn(server, { servingCAPem, clientCertPem, clientKeyPem: clientKey.privateKeyPem });
    server.on('secureConnection', (s: Socket) => {
      k.sockets.add(s);
      s.on('close', () => k.sockets.delete(s));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => k.answer(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => k.upgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return k;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Lets a following log stream write its remaining lines and end. */
  releaseFollow(): void {
    this.release?.();
  }

  /** The requests whose path starts with `prefix`. */
  seen(prefix: string): KubeletRequest[] {
    return this.requests.filter((r) => r.path.startsWith(prefix));
  }

  private record(req: IncomingMessage): KubeletRequest {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    const r: KubeletRequest = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, clientCN: String(peer?.subject?.CN ?? '') };
    this.requests.push(r);
    return r;
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const r = this.record(req);
    const logs = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(r.path);
    if (logs) {
      const failure = FAILING_CONTAINERS[logs[3]!];
      if (failure) {
        res.writeHead(failure[0], { 'content-type': 'text/plain' }).end(failure[1]);
        return;
      }
      const n = Number(r.query.get('tailLines') ?? '3');
      const lines = Array.from({ length: n }, (_, i) => `${logs[2]}/${logs[3]} line ${i + 1}\n`);
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (r.query.get('follow') !== 'true') {
        res.end(lines.join(''));
        return;
      }
      res.write(lines[0] ?? '');
      void this.released.then(() => res.end(lines.slice(1).join('')));
      return;
    }
    if (r.path.startsWith('/exec/') || r.path.startsWith('/attach/') || r.path.startsWith('/portForward/')) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Upgrade request required');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: r.path, query: r.query.toString() }));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const r = this.record(req);
    if ((req.headers.upgrade ?? '').toLowerCase() === 'spdy/3.1') {
      if (r.path.startsWith('/portForward/')) serveSpdy(req, socket, head, { echo: true });
      else if (r.path.startsWith('/exec/')) serveSpdy(req, socket, head, { exec: execStreams(r) });
      else socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    if (!/^\/(exec|attach)\//.test(r.path) || (req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.runStream(ws, r));
  }

  /** Answers one exec or attach session: output on stdout (channel 1), then the Success status (channel 3), then close. */
  private runStream(ws: WebSocket, r: KubeletRequest): void {
    const out = r.path.startsWith('/exec/') ? execOutput(r) : 'attached\n';
    if (r.query.get('output') === '1') ws.send(Buffer.concat([Buffer.from([1]), Buffer.from(out)]));
    ws.send(Buffer.concat([Buffer.from([3]), Buffer.from(JSON.stringify({ metadata: {}, status: 'Success' }))]));
    ws.close(1000);
  }

  /** Closes the server and every open connection. */
  async stop(): Promise<void> {
    this.release?.();
    for (const s of this.sockets) s.destroy();
    this.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
