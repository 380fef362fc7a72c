/**
 * The HTTP side of the simulated cluster (issue #24 item 5): requests over a pool of keep-alive
 * connections, and watches, each on a connection of its own as a kubelet's or an informer's is,
 * read as newline-delimited JSON watch events. The target is a server started here (its admin
 * client certificate) or one given by URL and bearer token.
 */
import { Agent, request, type RequestOptions } from 'node:https';

/** Where requests go and how they authenticate. */
export interface Target {
  url: string;
  /** PEM CA bundle of the serving certificate; absent with `insecure`. */
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  /** Skip verifying the serving certificate. */
  insecure?: boolean;
}

/** The TLS options of requests to `t`. */
function tlsOptions(t: Target): Pick<RequestOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized'> {
  return { ...(t.ca && { ca: t.ca }), ...(t.cert && { cert: t.cert, key: t.key }), rejectUnauthorized: !t.insecure };
}

/** A completed request: status and parsed JSON body (the text when the body is not JSON). */
export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** ms from sending to getting one of the pool's connections (a wait when all were busy). */
  connectionWaitMs: number;
  /** Whether the request went over a connection kept open from an earlier one. */
  reusedConnection: boolean;
}

/** One watch event as the server writes it (`{"type":…,"object":…}`). */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
}

/** A running watch: `done` settles when the stream ends (server closed it, error, or `stop`). */
export interface WatchHandle {
  done: Promise<void>;
  stop(): void;
}

/** Requests and watches against one target. */
export class ClusterClient {
  private readonly base: URL;

  private readonly pool: Agent;
  /** The connections of the clients made by {@link as} (without a client certificate). */
  private tokenPool?: Agent;

  /**
   * `maxSockets`: connections of the request pool (watches have their own); `pool`: the pool of
   * the client this one was made from by {@link as}.
   */
  constructor(
    private readonly target: Target,
    private readonly maxSockets: number,
    pool?: Agent,
  ) {
    this.base = new URL(target.url);
    this.pool = pool ?? new Agent({ keepAlive: true, maxSockets, ...tlsOptions(target) });
  }

  /**
   * A client authenticating with `token` (another identity) and no client certificate (it would
   * win over the token); all such clients of this one share one pool of connections.
   */
  as(token: string): ClusterClient {
    const target: Target = { url: this.target.url, ca: this.target.ca, insecure: this.target.insecure, token };
    this.tokenPool ??= new Agent({ keepAlive: true, maxSockets: this.maxSockets, ...tlsOptions(target) });
    return new ClusterClient(target, this.maxSockets, this.tokenPool);
  }

  private options(method: string, path: string, body?: { contentType: string; length: number }): RequestOptions {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.target.token) headers.Authorization = `Bearer ${this.target.token}`;
    // Node sends a DELETE's body without a length unless told: the server would read it as the next request.
    if (body) Object.assign(headers, { 'Content-Type': body.contentType, 'Content-Length': String(body.length) });
    return { method, hostname: this.base.hostname, port: this.base.port, path, headers };
  }

  /**
   * One request with a JSON body (`contentType` for patches); resolves with any status (the
   * caller decides what counts as an error), rejects on a network error or after `timeoutMs`.
   */
  call(method: string, path: string, body?: unknown, contentType = 'application/json', timeoutMs = 120_000): Promise<Reply> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const sent = performance.now();
    let connectionWaitMs = 0;
    return new Promise((resolve, reject) => {
      const req = request({ ...this.options(method, path, payload && { contentType, length: payload.length }), agent: this.pool, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON (e.g. /metrics): the text itself
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, connectionWaitMs, reusedConnection: req.reusedSocket });
        });
        res.on('error', reject);
      });
      req.once('socket', () => (connectionWaitMs = performance.now() - sent));
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * One request whose answer is counted, not kept (a list of every Pod is hundreds of MB):
   * resolves with the status and the body's size in bytes.
   */
  drain(method: string, path: string, timeoutMs = 600_000): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      const req = request({ ...this.options(method, path), agent: this.pool, timeout: timeoutMs }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  }

  /**
   * Watches `path` (a watch URL with its query) on a connection of its own; `onEvent` gets each
   * event as it arrives. `done` rejects when the server answers anything but 200 (the error's
   * `status` is the answer's code).
   */
  watch(path: string, onEvent: (ev: WatchEvent) => void): WatchHandle {
    let req: ReturnType<typeof request> | undefined;
    let stopped = false;
    const done = new Promise<void>((resolve, reject) => {
      req = request({ ...this.options('GET', path), agent: false, ...tlsOptions(this.target) }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(Object.assign(new Error(`watch ${path}: ${res.statusCode}`), { status: res.statusCode }));
          return;
        }
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let nl: number;
          while ((nl = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, nl);
            pending = pending.slice(nl + 1);
            if (line) onEvent(JSON.parse(line) as WatchEvent);
          }
        });
        res.on('end', () => resolve());
        res.on('error', (err) => (stopped ? resolve() : reject(err)));
      });
      req.on('error', (err) => (stopped ? resolve() : reject(err)));
      req.end();
    });
    return {
      done,
      stop: () => {
        stopped = true;
        req?.destroy();
      },
    };
  }

  /** A client of the same target and identity over one keep-alive connection of its own. */
  ownConnection(): ClusterClient {
    return new ClusterClient(this.target, 1);
  }

  /** Closes the pooled connections (those of the clients made by {@link as} too). */
  close(): void {
    this.pool.destroy();
    this.tokenPool?.destroy();
  }
}
