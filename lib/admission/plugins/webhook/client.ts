/**
 * The HTTPS client of admission webhooks (upstream v1.30 `webhook.ClientManager`; spec 001
 * § Admission control): one client per distinct client configuration (`url` or `service`, and
 * `caBundle`; the webhook's name is not part of the key), kept in a cache of 200 with pooled
 * keep-alive connections, HTTP/1.1. A call POSTs the review with `?timeout=<n>s` and fails with
 * Go's wording (`Post "<url>": context deadline exceeded`, `dial tcp <addr>: connect:
 * connection refused`, an error answer as upstream's client reports it) when the webhook is
 * unreachable, slow past its deadline, answers an error status, or answers more than 3 MiB.
 * Never retried, as upstream's admission webhook calls are not.
 */
import { Agent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { SERVER_NAME } from '../../../apis/vendor.js';
import { assertCAData } from '../../../client/ca-data.js';
import { dialAddress, errorResponseMessage, transportErrorMessage } from '../../../client/rest-errors.js';
import { type ServiceResolver, resolutionMessage } from './service-resolver.js';

/** A webhook's `clientConfig` (admissionregistration.<vendor>/v1 WebhookClientConfig). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of a PEM bundle (the JSON form of the `bytes` field). */
  caBundle?: string;
}

/** Largest answer read (bytes), as lib/client/webhook.ts. */
export const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;
/** Clients kept (upstream's cache size). */
const CACHE_SIZE = 200;
const USER_AGENT = `${SERVER_NAME}-admission`;

/**
 * A failed call; `message` is the reason upstream reports after `failed to call webhook: `
 * (`stage` 'call') or, for a client configuration that cannot make a client, after `could not
 * get REST client: ` (`stage` 'client').
 */
export class WebhookPostError extends Error {
  override readonly name = 'WebhookPostError';
  constructor(
    message: string,
    readonly stage: 'client' | 'call' = 'call',
  ) {
    super(message);
  }
}

interface Client {
  agent: Agent;
  /** The host name TLS verifies and the Host header names. */
  serverName: string;
  port: number;
  path: string;
  /** Where to connect (the service's endpoint is resolved per call). */
  target(): Promise<{ host: string; port: number }>;
}

/** Go's `time.Duration` text of whole seconds (`10s`, `1m0s`). */
function goSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h${m}m${s}s` : `${m}m${s}s`;
}

/** The clients of every webhook, cached by client configuration. */
export class WebhookClients {
  private readonly cache = new Map<string, Client>();

  constructor(private readonly resolver: ServiceResolver) {}

  /** Number of cached clients (for tests of the cache). */
  get size(): number {
    return this.cache.size;
  }

  /** Closes every pooled connection. */
  close(): void {
    for (const c of this.cache.values()) c.agent.destroy();
    this.cache.clear();
  }

  /**
   * POSTs `body` (JSON) to the webhook of `config`, waiting at most `timeoutSeconds` (and no
   * longer than `signal` allows), and returns the text of a 2xx answer.
   * @throws WebhookPostError with upstream's reason text.
   */
  async post(config: WebhookClientConfig, body: string, timeoutSeconds: number, signal: AbortSignal): Promise<string> {
    let client: Client;
    try {
      client = this.client(config);
    } catch (err) {
      throw new WebhookPostError((err as Error).message, 'client');
    }
    const pathWithTimeout = `${client.path}${client.path.includes('?') ? '&' : '?'}timeout=${goSeconds(timeoutSeconds)}`;
    const url = `https://${client.serverName.includes(':') ? `[${client.serverName}]` : client.serverName}:${client.port}${pathWithTimeout}`;
    const where = `Post ${JSON.stringify(url)}`;
    if (signal.aborted) throw new WebhookPostError(`${where}: context canceled`);
    const deadline = AbortSignal.timeout(timeoutSeconds * 1000);
    const combined = AbortSignal.any([signal, deadline]);
    let target: { host: string; port: number };
    try {
      target = await client.target();
    } catch (err) {
      throw new WebhookPostError(`${where}: ${resolutionMessage(err)}`);
    }
    const addr = dialAddress(target.host, target.port);
    const payload = Buffer.from(body);
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        combined.removeEventListener('abort', onAbort);
        fn();
      };
      const fail = (reason: string) => finish(() => reject(new WebhookPostError(`${where}: ${reason}`)));
      const onAbort = () => {
        req.destroy();
        fail(deadline.aborted ? 'context deadline exceeded' : 'context canceled');
      };
      const req = httpsRequest(
        {
          host: target.host,
          port: target.port,
          method: 'POST',
          path: pathWithTimeout,
          agent: client.agent,
          ...(isIP(client.serverName) ? {} : { servername: client.serverName }),
          headers: {
            Host: `${client.serverName}:${client.port}`,
            'Content-Type': 'application/json',
            Accept: 'application/json, */*',
            'Content-Length': String(payload.length),
            'User-Agent': USER_AGENT,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) {
              finish(() => reject(new WebhookPostError(`the response body is larger than ${MAX_RESPONSE_BYTES} bytes`)));
              req.destroy();
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const code = res.statusCode ?? 0;
            if (code < 200 || code > 206) finish(() => reject(new WebhookPostError(errorResponseMessage(code, res.headers['content-type'], text))));
            else finish(() => resolve(text));
          });
          res.on('error', (err) => fail(transportErrorMessage(err, addr)));
          res.on('aborted', () => fail('unexpected EOF'));
        },
      );
      combined.addEventListener('abort', onAbort);
      req.on('error', (err) => fail(transportErrorMessage(err, addr)));
      req.end(payload);
    });
  }

  /** The cached client of `config`, made on first use (the least recently used one is dropped past the cache size). */
  private client(config: WebhookClientConfig): Client {
    const key = JSON.stringify([config.url ?? null, config.service ?? null, config.caBundle ?? '']);
    let c = this.cache.get(key);
    if (c) {
      this.cache.delete(key);
      this.cache.set(key, c);
      return c;
    }
    c = this.build(config);
    this.cache.set(key, c);
    if (this.cache.size > CACHE_SIZE) {
      const [oldest, dropped] = this.cache.entries().next().value!;
      this.cache.delete(oldest);
      dropped.agent.destroy();
    }
    return c;
  }

  private build(config: WebhookClientConfig): Client {
    const ca = config.caBundle ? Buffer.from(config.caBundle, 'base64').toString('utf8') : undefined;
    // As upstream's REST client, which loads its CAs once the URL is known.
    if (config.service) {
      assertCAData(ca);
      const agent = new Agent({ keepAlive: true, ca, ALPNProtocols: ['http/1.1'] });
      const s = config.service;
      const port = s.port || 443;
      const serverName = `${s.name}.${s.namespace}.svc`;
      const path = s.path ?? '/';
      return { agent, serverName, port, path: path.startsWith('/') ? path : `/${path}`, target: () => this.resolver.resolve(s.namespace, s.name, port) };
    }
    if (config.url === undefined) throw new Error('webhook configuration must have either service or URL');
    let u: URL;
    try {
      u = new URL(config.url);
    } catch (err) {
      throw new Error(`Unparsable URL: ${(err as Error).message}`, { cause: err });
    }
    assertCAData(ca);
    const agent = new Agent({ keepAlive: true, ca, ALPNProtocols: ['http/1.1'] });
    const port = u.port ? Number(u.port) : 443;
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    const path = `${u.pathname || '/'}${u.search}`;
    return { agent, serverName: host, port, path, target: async () => ({ host, port }) };
  }
}
