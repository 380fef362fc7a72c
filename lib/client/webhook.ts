/**
 * A client for the webhooks the server calls (token review, later authorization and admission):
 * POSTs a JSON document to the URL of a kubeconfig's current context with its credentials, and
 * retries transient failures with exponential backoff, as the upstream generic webhook does:
 * connection resets, HTTP 500, 504 and 429, and any error answer carrying `Retry-After`.
 * Every attempt has a hard timeout (upstream 30 s); nothing here blocks the event loop.
 */

import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientConfig } from './kubeconfig.js';
import { decodeJSONAnswer, errorResponseMessage, transportErrorMessage, type TransportError, urlDialAddress } from './rest-errors.js';

/** Exponential backoff between attempts (upstream `wait.Backoff`). */
export interface RetryBackoff {
  /** Wait before the second attempt, in milliseconds; each later wait is `factor` times longer. */
  initialMs: number;
  factor: number;
  /** Each wait is lengthened by a random fraction up to this (0.2 → up to +20%). */
  jitter: number;
  /** Attempts in all (the first one included); at least 1. */
  steps: number;
}

/** Upstream's default webhook backoff: 500 ms, ×1.5, 20% jitter, 5 attempts (≈ 4 s of waits at most). */
export const DEFAULT_RETRY_BACKOFF: Readonly<RetryBackoff> = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };
/** Upstream's absolute timeout of one webhook request, response body included (milliseconds). */
export const DEFAULT_WEBHOOK_REQUEST_TIMEOUT_MS = 30_000;
/** Largest response body read (bytes); a longer answer fails the call. */
export const MAX_WEBHOOK_RESPONSE_BYTES = 3 * 1024 * 1024;

/** A failed webhook call: unreachable, timed out, an error status, or a body that is not JSON. */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
  constructor(
    message: string,
    /** Whether the failure is transient (retried with backoff). */
    readonly retryable: boolean,
    /** The HTTP status of an error answer. */
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

/** Options of a {@link GenericWebhook}. */
export interface GenericWebhookOptions {
  /** Absolute timeout of one attempt in milliseconds (default {@link DEFAULT_WEBHOOK_REQUEST_TIMEOUT_MS}). */
  requestTimeoutMs?: number;
  /** Backoff between attempts (default {@link DEFAULT_RETRY_BACKOFF}). */
  retryBackoff?: RetryBackoff;
  /** `User-Agent` sent with each request. */
  userAgent?: string;
  /** Largest response body read, in bytes (default {@link MAX_WEBHOOK_RESPONSE_BYTES}); a longer answer fails the call. */
  maxResponseBytes?: number;
}

/** POSTs JSON to one webhook, keeping connections alive between calls. */
export class GenericWebhook {
  private readonly agent: HttpAgent;
  private readonly requestTimeoutMs: number;
  private readonly backoff: RetryBackoff;

  constructor(
    private readonly config: ClientConfig,
    private readonly opts: GenericWebhookOptions = {},
  ) {
    this.agent = config.server.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_WEBHOOK_REQUEST_TIMEOUT_MS;
    this.backoff = opts.retryBackoff ?? DEFAULT_RETRY_BACKOFF;
  }

  /** The webhook URL, for messages. */
  get url(): string {
    return this.config.server.href;
  }

  /**
   * POSTs `body` (JSON text) and returns the parsed JSON answer of a 2xx response, retrying
   * transient failures with the backoff until the attempts run out or `signal` aborts.
   * @throws WebhookCallError with the last attempt's failure in upstream's REST client words
   *   (rest-errors.ts): `Post "<url>": dial tcp …` for a transport failure, the generic message
   *   of an error status, a decode error.
   */
  async post(body: string, signal: AbortSignal): Promise<unknown> {
    let wait = this.backoff.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(body, signal);
      } catch (err) {
        if (!(err instanceof WebhookCallError) || !err.retryable || attempt >= this.backoff.steps || signal.aborted) throw err;
        const delay = wait * (1 + Math.random() * this.backoff.jitter);
        wait *= this.backoff.factor;
        try {
          await sleep(delay, undefined, { signal });
        } catch {
          throw err;
        }
      }
    }
  }

  /** Releases pooled connections. */
  close(): void {
    this.agent.destroy();
  }

  private async attempt(body: string, outer: AbortSignal): Promise<unknown> {
    const where = `Post "${this.url}"`;
    let options;
    try {
      options = await this.config.requestOptions('POST');
    } catch (err) {
      throw new WebhookCallError(`${where}: ${(err as Error).message}`, false);
    }
    const payload = Buffer.from(body);
    options.headers['Content-Type'] = 'application/json';
    options.headers.Accept = 'application/json, */*';
    options.headers['Content-Length'] = String(payload.length);
    if (this.opts.userAgent) options.headers['User-Agent'] = this.opts.userAgent;
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const signal = AbortSignal.any([outer, timeout]);
    const send = options.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<unknown>((resolve, reject) => {
      const fail = (err: unknown) => {
        if (timeout.aborted && !outer.aborted) {
          reject(new WebhookCallError(`${where}: net/http: request canceled (Client.Timeout of ${this.requestTimeoutMs / 1000}s exceeded)`, false));
        } else if (outer.aborted) {
          reject(new WebhookCallError(`${where}: context canceled`, false));
        } else {
          const e = err as TransportError;
          reject(new WebhookCallError(`${where}: ${transportErrorMessage(e, urlDialAddress(this.config.server))}`, e.code === 'ECONNRESET'));
        }
      };
      const req = send({ ...options, agent: this.agent, signal }, (res) => {
        readBody(res, this.opts.maxResponseBytes ?? MAX_WEBHOOK_RESPONSE_BYTES)
          .then((text) => resolve(interpret(res, text)))
          .catch((err: unknown) => (err instanceof WebhookCallError ? reject(err) : fail(err)));
      });
      req.on('error', fail);
      req.end(payload);
    });
  }
}

/** Reads a response body of at most `maxBytes` bytes. */
function readBody(res: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new WebhookCallError(`response body larger than ${maxBytes} bytes`, false));
        return;
      }
      chunks.push(c);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('aborted', () => reject(Object.assign(new Error('connection reset by peer'), { code: 'ECONNRESET' })));
  });
}

/**
 * A 2xx answer's parsed JSON; otherwise the error the upstream client reports, in its words
 * (rest-errors.ts; as upstream, without the URL, which only a transport failure names): status
 * 500, 504 and 429, or any `Retry-After: <seconds>`, are transient.
 */
function interpret(res: IncomingMessage, text: string): unknown {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 206) {
    const retryAfter = Number(res.headers['retry-after']);
    const retryable = status === 500 || status === 504 || status === 429 || (Number.isInteger(retryAfter) && retryAfter > 0);
    throw new WebhookCallError(errorResponseMessage(status, res.headers['content-type'], text), retryable, status);
  }
  try {
    return decodeJSONAnswer(status, res.headers['content-type'], text);
  } catch (err) {
    throw new WebhookCallError((err as Error).message, false, status);
  }
}
