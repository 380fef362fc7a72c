/**
 * A small extension API server for the aggregation layer's tests (issue #20 capability 1): HTTPS
 * with a CA of its own and a serving certificate for `<service>.<namespace>.svc`, accepting only
 * clients whose certificate the front-proxy CA signed with an allowed common name (401 otherwise),
 * serving `wardle.example.com/v1alpha1` with one resource, `flunders` (namespaced, with a `status`
 * subresource): plain discovery (`/apis` as an APIGroupList, never the aggregated form, and the
 * version's APIResourceList), list, get and watch from a fixed set, and a POST that echoes its
 * body. It answers only JSON: a request that accepts nothing else without JSON is 406, a patch is
 * 415 unless it is a merge patch (as an extension server without strategic merge), and every
 * request is recorded (method, URL, headers, the client certificate's CN). An upgrade to the
 * `echo` protocol is answered 101 and echoes every byte.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import type { TLSSocket } from 'node:tls';
import { createCaCertificate, createSignedCertificate } from '../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../lib/server/pki/keys.js';
import { vendorGroup } from '../../lib/apis/vendor.js';
import type { TestClient } from './client.js';

/** The group and version served. */
export const WARDLE_GROUP = 'wardle.example.com';
export const WARDLE_VERSION = 'v1alpha1';
const GV = `${WARDLE_GROUP}/${WARDLE_VERSION}`;

/** One request the extension server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Header lines as sent, in order (repeated headers stay separate). */
  rawHeaders: string[];
  clientCN: string | undefined;
  body: string;
}

function flunder(name: string, namespace: string): Record<string, unknown> {
  return { apiVersion: GV, kind: 'Flunder', metadata: { name, namespace, resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: {} };
}

function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'Content-Type': contentType });
  res.end(JSON.stringify(body));
}

function status(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/**
 * An IPv4 address of this machine outside the loopback range: Endpoints may not name a loopback
 * address (upstream's validation), so the extension server listens on this one.
 * @throws Error when the machine has none.
 */
export function nonLoopbackIPv4(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'));
  if (!found) throw new Error('the aggregation tests need a non-loopback IPv4 address on this machine');
  return found.address;
}

/** Where the tests register the extension server: namespace, Service (and Endpoints) name, APIService name. */
export const WARDLE_NAMESPACE = 'wardle';
export const WARDLE_SERVICE = 'wardle-api';
export const WARDLE_APISERVICE = `${WARDLE_VERSION}.${WARDLE_GROUP}`;
/** The APIService collection path. */
export const APISERVICES_PATH = `/apis/${vendorGroup('apiregistration')}/v1/apiservices`;

/** The Endpoints of the extension server listening on `ip`:`port` (port name `https`). */
export function wardleEndpoints(ip: string, port: number): Record<string, unknown> {
  return { metadata: { name: WARDLE_SERVICE, namespace: WARDLE_NAMESPACE }, subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port }] }] };
}

/**
 * Creates, through `admin`, the namespace, the Service (port 443 named `https`, no selector), its
 * Endpoints (`ip` and the server's port) and the APIService (`caBundle` of the server, group
 * priority 1000) that put `ext` behind the aggregation layer.
 * @throws Error naming the object a create did not answer 201 for.
 */
export async function registerWardle(admin: TestClient, ext: ExtensionAPIServer, ip: string): Promise<void> {
  const creates: Array<[string, unknown]> = [
    ['/api/v1/namespaces', { metadata: { name: WARDLE_NAMESPACE } }],
    [`/api/v1/namespaces/${WARDLE_NAMESPACE}/services`, { metadata: { name: WARDLE_SERVICE }, spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } }],
    [`/api/v1/namespaces/${WARDLE_NAMESPACE}/endpoints`, wardleEndpoints(ip, ext.port)],
    [
      APISERVICES_PATH,
      {
        metadata: { name: WARDLE_APISERVICE },
        spec: { service: { namespace: WARDLE_NAMESPACE, name: WARDLE_SERVICE }, group: WARDLE_GROUP, version: WARDLE_VERSION, caBundle: ext.caBundle, groupPriorityMinimum: 1000, versionPriority: 15 },
      },
    ],
  ];
  for (const [path, body] of creates) {
    const res = await admin.post(path, body);
    if (res.status !== 201) throw new Error(`creating ${path}: ${res.status} ${res.text}`);
  }
}

/** The Available condition of APIService `name`, read through `admin`. */
export async function availableCondition(admin: TestClient, name: string): Promise<{ type: string; status: string; reason: string; message: string } | undefined> {
  const res = await admin.get(`${APISERVICES_PATH}/${name}`);
  return ((res.body?.status?.conditions ?? []) as Array<{ type: string; status: string; reason: string; message: string }>).find((c) => c.type === 'Available');
}

/** The running extension server. */
export class ExtensionAPIServer {
  readonly requests: RecordedRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    /** PEM of the CA of the serving certificate (the APIService's `caBundle`, decoded). */
    readonly caPem: string,
  ) {
    server.on('secureConnection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /**
   * Starts a server on `host` whose certificate names `serverName`, trusting clients that
   * `clientCAPem` signed with a common name in `allowedCNs`.
   */
  static async start(host: string, serverName: string, clientCAPem: string, allowedCNs: readonly string[]): Promise<ExtensionAPIServer> {
    const [caKey, key] = await Promise.all([generateRsaKey(), generateRsaKey()]);
    const caPem = createCaCertificate(caKey, 'wardle-ca', 1);
    const cert = createSignedCertificate({ certPem: caPem, key: caKey }, { key, commonName: serverName, usage: 'server', dnsNames: [serverName], validDays: 1 });
    const server = createServer({ cert, key: key.privateKeyPem, ca: clientCAPem, requestCert: true, rejectUnauthorized: false });
    const ext = new ExtensionAPIServer(server, caPem);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => ext.handle(req, res, Buffer.concat(chunks).toString('utf8'), allowedCNs));
    });
    server.on('upgrade', (req: IncomingMessage, socket: TLSSocket) => ext.upgrade(req, socket, allowedCNs));
    await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
    return ext;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `caBundle` of the APIService naming this server. */
  get caBundle(): string {
    return Buffer.from(this.caPem).toString('base64');
  }

  /** The last request whose path starts with `prefix`. */
  last(prefix: string): RecordedRequest | undefined {
    return this.requests.filter((r) => r.url.startsWith(prefix)).pop();
  }

  /** Sends a watch event to every open watch. */
  emit(type: string, name: string, namespace: string): void {
    for (const w of this.watches) w.write(`${JSON.stringify({ type, object: flunder(name, namespace) })}\n`);
  }

  /** Number of watches open now. */
  get openWatches(): number {
    return this.watches.size;
  }

  /** Records the request; true when it comes from an allowed proxy with a user. */
  private admit(req: IncomingMessage, body: string, allowedCNs: readonly string[]): boolean {
    const socket = req.socket as TLSSocket;
    const peer = socket.getPeerCertificate();
    const clientCN = peer && 'subject' in peer ? (peer.subject?.CN as string | undefined) : undefined;
    const url = new URL(req.url ?? '/', 'https://x');
    this.requests.push({ method: req.method ?? '', url: `${url.pathname}${url.search}`, headers: req.headers, rawHeaders: req.rawHeaders, clientCN, body });
    return socket.authorized && clientCN !== undefined && allowedCNs.includes(clientCN) && req.headers['x-remote-user'] !== undefined;
  }

  /** An upgrade to the `echo` protocol: 101, then every byte sent back. */
  private upgrade(req: IncomingMessage, socket: TLSSocket, allowedCNs: readonly string[]): void {
    if (!this.admit(req, '', allowedCNs) || req.headers.upgrade !== 'echo') {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string, allowedCNs: readonly string[]): void {
    if (!this.admit(req, body, allowedCNs)) {
      send(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    const accept = req.headers.accept ?? '';
    if (accept !== '' && !/application\/json|\*\/\*/.test(accept)) {
      send(res, 406, status(406, 'NotAcceptable', 'only application/json is served'));
      return;
    }
    this.route(req, res, new URL(req.url ?? '/', 'https://x'), body);
  }

  private route(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    const parts = url.pathname.split('/').filter((p) => p !== '');
    const method = req.method ?? 'GET';
    if (url.pathname === '/apis') {
      send(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: WARDLE_GROUP, versions: [{ groupVersion: GV, version: WARDLE_VERSION }], preferredVersion: { groupVersion: GV, version: WARDLE_VERSION } }] });
      return;
    }
    if (url.pathname === `/apis/${GV}`) {
      send(res, 200, {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: GV,
        resources: [
          { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['create', 'get', 'list', 'patch', 'watch'], shortNames: ['fl'] },
          { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get', 'patch', 'update'] },
        ],
      });
      return;
    }
    // /apis/<group>/<version>/namespaces/<ns>/flunders[/<name>]
    if (parts.length < 6 || parts[3] !== 'namespaces' || parts[5] !== 'flunders') {
      send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
      return;
    }
    const namespace = parts[4]!;
    const name = parts[6];
    if (method === 'PATCH') {
      if (req.headers['content-type'] !== 'application/merge-patch+json') {
        send(res, 415, status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/merge-patch+json`));
        return;
      }
      send(res, 200, flunder(name ?? '', namespace));
      return;
    }
    if (method === 'POST') {
      res.writeHead(201, { 'Content-Type': req.headers['content-type'] ?? 'application/json' });
      res.end(body);
      return;
    }
    if (name) {
      send(res, 200, flunder(name, namespace));
      return;
    }
    if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: flunder('first', namespace) })}\n`);
      this.watches.add(res);
      res.on('close', () => this.watches.delete(res));
      return;
    }
    send(res, 200, { apiVersion: GV, kind: 'FlunderList', metadata: { resourceVersion: '1' }, items: [flunder('first', namespace), flunder('second', namespace)] });
  }

  /** Stops listening and drops open connections. */
  async stop(): Promise<void> {
    for (const w of this.watches) w.destroy();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
