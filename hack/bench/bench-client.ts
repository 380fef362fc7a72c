/**
 * The HTTPS client of the benchmarks: keep-alive connections with the admin certificate to a
 * server started by the test framework, one call per request, non-2xx answers as errors.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess, type ServerProcess } from '../../test/framework/server-process.js';

/** A response as the benchmarks need it: status, size, and (when asked) the text. */
export interface BenchResponse {
  status: number;
  bytes: number;
  text: string;
}

/** Options of one call. */
export interface CallOptions {
  /** A JSON value (sent as application/json) or raw bytes (with `headers['Content-Type']`). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Keep the body text (for responses the benchmark reads). */
  keepText?: boolean;
}

/** A client over `maxSockets` keep-alive connections. */
export class BenchClient {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(server: ServerProcess, maxSockets: number) {
    this.url = new URL(server.url);
    this.agent = new Agent({ keepAlive: true, maxSockets, ca: server.admin.ca, cert: server.admin.creds.cert, key: server.admin.creds.key });
  }

  /** One request; rejects on a non-2xx status. */
  call(method: string, path: string, opts: CallOptions = {}): Promise<BenchResponse> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let payload: Buffer | undefined;
    if (Buffer.isBuffer(opts.body)) payload = opts.body;
    else if (opts.body !== undefined) {
      payload = Buffer.from(JSON.stringify(opts.body));
      headers['Content-Type'] ??= 'application/json';
    }
    if (payload) headers['Content-Length'] = String(payload.length);
    return new Promise((resolve, reject) => {
      const req = request({ method, hostname: this.url.hostname, port: this.url.port, path, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (opts.keepText) chunks.push(c);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString();
          if (status >= 300) reject(new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`));
          else resolve({ status, bytes, text });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Closes the connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** What a benchmark body gets from {@link runBench}: the server it measures and a client of it. */
export interface BenchContext {
  server: ServerProcess;
  client: BenchClient;
}

/**
 * Runs one benchmark as a script: a server process on a fresh temporary directory, a client of
 * `maxSockets` connections, `body`, then the cleanup (client, server, directory) whatever the
 * outcome; an error is printed and exits the process with 1.
 */
export function runBench(name: string, maxSockets: number, body: (ctx: BenchContext) => Promise<void>): void {
  const run = async (): Promise<void> => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `orch-bench-${name}-`));
    const server = await startServerProcess([], dir);
    const client = new BenchClient(server, maxSockets);
    try {
      await body({ server, client });
    } finally {
      client.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  };
  run().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
