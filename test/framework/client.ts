/**
 * A small HTTPS client for tests: requests with the admin client certificate (or a bearer
 * token, or nothing), JSON in and out, and watch streams read as events.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';

/** Credentials of a test request. */
export interface Credentials {
  cert?: string;
  key?: string;
  token?: string;
}

/** A response, its body as text and (when JSON) parsed. */
export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body bytes as received (still compressed when Content-Encoding says so). */
  bytes: Buffer;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** Options of one request. */
export interface RequestOpts {
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  creds?: Credentials;
  /** Aborting it destroys the request (a client that goes away). */
  signal?: AbortSignal;
}

/** Performs HTTPS requests against one server. */
export class TestClient {
  constructor(
    readonly baseURL: string,
    readonly ca: string,
    readonly creds: Credentials,
  ) {}

  /** A client of the same server with other credentials. */
  as(creds: Credentials): TestClient {
    return new TestClient(this.baseURL, this.ca, creds);
  }

  private options(method: string, path: string, opts: RequestOpts): RequestOptions & { headers: Record<string, string> } {
    const url = new URL(path, this.baseURL);
    const creds = opts.creds ?? this.creds;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (creds.token) headers.Authorization = `Bearer ${creds.token}`;
    return {
      method,
      hostname: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      ca: this.ca,
      cert: creds.cert,
      key: creds.key,
      headers,
      agent: false,
      signal: opts.signal,
    };
  }

  /** Sends a request and reads the whole response. */
  request(method: string, path: string, opts: RequestOpts = {}): Promise<TestResponse> {
    const o = this.options(method, path, opts);
    let payload: Buffer | undefined;
    if (opts.raw !== undefined) payload = Buffer.from(opts.raw);
    else if (opts.body !== undefined) payload = Buffer.from(JSON.stringify(opts.body));
    if (payload) {
      o.headers['Content-Type'] ??= opts.contentType ?? 'application/json';
      o.headers['Content-Length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      const req = httpsRequest(o, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text, body });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  get(path: string, opts: RequestOpts = {}) {
    return this.request('GET', path, opts);
  }
  post(path: string, body: unknown, opts: RequestOpts = {}) {
    return this.request('POST', path, { ...opts, body });
  }
  put(path: string, body: unknown, opts: RequestOpts = {}) {
    return this.request('PUT', path, { ...opts, body });
  }
  patch(path: string, body: unknown, contentType: string, opts: RequestOpts = {}) {
    return this.request('PATCH', path, { ...opts, body, contentType });
  }
  delete(path: string, opts: RequestOpts = {}) {
    return this.request('DELETE', path, opts);
  }

  /** Opens a streaming GET and hands back the raw response (for binary streams). */
  rawStream(path: string, opts: RequestOpts = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: NodeJS.ReadableStream; close(): void }> {
    const o = this.options('GET', path, opts);
    return new Promise((resolve, reject) => {
      const req = httpsRequest(o, (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, close: () => req.destroy() }));
      req.on('error', reject);
      req.end();
    });
  }

  /**
   * Opens a watch and returns its status, headers and an event reader; `next()` resolves with the
   * next event or null when the stream ended, rejecting after `timeoutMs`.
   */
  watch(path: string, opts: RequestOpts = {}): Promise<WatchStream> {
    const o = this.options('GET', path, opts);
    return new Promise((resolve, reject) => {
      const req = httpsRequest(o, (res) => resolve(new WatchStream(res.statusCode ?? 0, res.headers, res, () => req.destroy())));
      req.on('error', reject);
      req.end();
    });
  }
}

/** Watch events read from a streaming response. */
export class WatchStream {
  private buffer = '';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly events: any[] = [];
  private ended = false;
  private waiter: (() => void) | null = null;

  constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    res: NodeJS.ReadableStream,
    private readonly abort: () => void,
  ) {
    res.on('data', (c: Buffer) => {
      this.buffer += c.toString('utf8');
      let i: number;
      while ((i = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 1);
        if (line.trim()) this.events.push(JSON.parse(line));
      }
      this.waiter?.();
    });
    const end = () => {
      this.ended = true;
      this.waiter?.();
    };
    res.on('end', end);
    res.on('error', end);
    res.on('close', end);
  }

  /** The next event, or null at the end of the stream. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async next(timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length === 0 && !this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no watch event within ${timeoutMs}ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.waiter = null;
    }
    return this.events.shift() ?? null;
  }

  /** Reads events until `pred` holds for one; returns it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async until(pred: (ev: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ev = await this.next(Math.max(1, deadline - Date.now()));
      if (ev === null) throw new Error('watch ended before the expected event');
      if (pred(ev)) return ev;
    }
  }

  /** True once the server ended the stream. */
  get isEnded(): boolean {
    return this.ended && this.events.length === 0;
  }

  close(): void {
    this.abort();
  }
}
