/**
 * Sending generated requests byte for byte over a few keep-alive HTTPS connections (issue #19
 * item 6): the request line carries the path as given (a latin1 string, so each character is one
 * byte on the wire: UTF-8 and invalid UTF-8 sequences are spelled byte by byte), the body is sent
 * as given with its exact Content-Length. Streams that stay open (watches) are read for a short
 * while and then closed by the client.
 */
import { Agent, request } from 'node:https';

/** One generated request, exactly as it goes on the wire. */
export interface WireRequest {
  method: string;
  /** Path and query; every character must be in U+0021–U+00FF (written as one latin1 byte each). */
  path: string;
  /** Header values in U+0020–U+00FF. */
  headers: Record<string, string>;
  body?: Buffer;
}

/** An answer: status, lower-case headers, the body (possibly cut short for open streams). */
export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  /** The body parsed as JSON, or undefined. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** True when the client closed a stream that was still open after `streamMs`. */
  cutShort: boolean;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
}

/** Options of a {@link WireSender}. */
export interface WireSenderOptions {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  ca: string;
  cert: string;
  key: string;
  /** Keep-alive connections (default 4). */
  connections?: number;
  /** How long a 2xx stream is read before the client closes it, ms (default 1500). */
  streamMs?: number;
  /** How long to wait for the status line before the request counts as unanswered, ms (default 20 000). */
  answerMs?: number;
}

/** Sends {@link WireRequest}s over a keep-alive agent with the given client certificate. */
export class WireSender {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(private readonly opts: WireSenderOptions) {
    const u = new URL(opts.url);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.agent = new Agent({ keepAlive: true, maxSockets: opts.connections ?? 4, ca: opts.ca, cert: opts.cert, key: opts.key });
  }

  /**
   * Sends `r` and reads its answer. Rejects when the server resets the connection or gives no
   * status line within `answerMs` (a crash or a hang), with the request's method and path.
   */
  send(r: WireRequest): Promise<WireResponse> {
    const streamMs = this.opts.streamMs ?? 1500;
    const answerMs = this.opts.answerMs ?? 20_000;
    const headers: Record<string, string> = { ...r.headers };
    if (r.body) headers['Content-Length'] = String(r.body.length);
    const started = Date.now();
    return new Promise((resolve, reject) => {
      let answered = false;
      const req = request({ host: this.host, port: this.port, method: r.method, path: r.path, headers, agent: this.agent }, (res) => {
        answered = true;
        clearTimeout(noAnswer);
        const chunks: Buffer[] = [];
        let cutShort = false;
        const done = (): void => {
          clearTimeout(cut);
          const bytes = Buffer.concat(chunks);
          let json: unknown;
          try {
            json = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, json, cutShort, ms: Date.now() - started });
        };
        const cut = setTimeout(() => {
          cutShort = true;
          res.destroy();
          done();
        }, streamMs);
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', done);
        res.on('error', () => (cutShort ? undefined : done()));
      });
      const noAnswer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${answerMs} ms`));
      }, answerMs);
      req.on('error', (err) => {
        if (answered) return;
        clearTimeout(noAnswer);
        reject(new Error(`${r.method} ${r.path}: ${err.message}`));
      });
      req.end(r.body);
    });
  }

  /** Closes the idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
