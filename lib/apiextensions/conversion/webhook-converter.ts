/**
 * The `Webhook` conversion strategy (upstream apiextensions-apiserver conversion
 * `webhookConverter`): POSTs one ConversionReview with every object to convert to the CRD's
 * `spec.conversion.webhook.clientConfig` (a `url`, or a `service` whose URL the server gives),
 * trusting `caBundle`, with upstream's defaults for webhook clients: a 30 s timeout sent as
 * `?timeout=30s`, HTTP/1.1 keep-alive, no retries, no bound on the answer's size. The answer is checked by review.ts.
 */
import { randomUUID } from 'node:crypto';
import { SERVER_NAME } from '../../apis/vendor.js';
import { assertCAData } from '../../client/ca-data.js';
import { ClientConfig } from '../../client/kubeconfig.js';
import { DEFAULT_WEBHOOK_REQUEST_TIMEOUT_MS, GenericWebhook } from '../../client/webhook.js';
import type { CustomResourceDefinition } from '../types.js';
import type { ConversionStrategy } from './nop-converter.js';
import { conversionReviewVersion, convertedObject, decodeConversionResponse, encodeConversionReview } from './review.js';

/** A `clientConfig.service` reference, its port defaulted to 443. */
export interface ConversionServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

/** How the webhook strategy reaches webhooks. */
export interface WebhookConversionOptions {
  /**
   * The `https://` URL at which a Service's webhook answers (an endpoint address, `path`
   * included); asked before every call so that a moved endpoint is followed. The certificate is
   * verified against `<name>.<namespace>.svc` whatever host the URL names.
   */
  serviceURL?: (service: ConversionServiceReference) => string;
  /** Timeout of one call in milliseconds (default 30 000, upstream's). */
  timeoutMs?: number;
}

/** User agent of the server's webhook clients (upstream `kube-apiserver-admission`). */
const USER_AGENT = `${SERVER_NAME}-admission`;
/** A single attempt: upstream's conversion calls are not retried. */
const NO_RETRY = { initialMs: 0, factor: 1, jitter: 0, steps: 1 };
const NEVER = new AbortController().signal;
/**
 * Upstream reads a conversion answer whole: a list's objects may well exceed the 3 MiB other
 * webhook answers are held to.
 */
const UNLIMITED = Number.POSITIVE_INFINITY;

/** Go's `time.Duration` text of a whole number of milliseconds (`30s`, `250ms`, `1m30s`). */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds}s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h${m}m${s}s` : `${m}m${s}s`;
}

/** Where and how to call: a URL (with `?timeout=`) and the TLS name to verify. */
interface Target {
  url: string;
  servername?: string;
}

/**
 * The webhook strategy of `crd`. Configuration problems (no client configuration, a service
 * without a `serviceURL` option, an unparsable URL, a `caBundle` without a certificate:
 * lib/client/ca-data.ts) surface as failures of each call, as a webhook client upstream cannot
 * build fails every conversion of the CRD.
 */
export function newWebhookConversion(crd: CustomResourceDefinition, opts: WebhookConversionOptions = {}): ConversionStrategy {
  const webhook = crd.spec.conversion?.webhook;
  const clientConfig = webhook?.clientConfig;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WEBHOOK_REQUEST_TIMEOUT_MS;
  const ca = clientConfig?.caBundle ? Buffer.from(clientConfig.caBundle, 'base64').toString('utf8') : undefined;
  let client: { key: string; hook: GenericWebhook } | undefined;

  const target = (): Target => {
    if (clientConfig?.service) {
      const s = clientConfig.service;
      if (!opts.serviceURL) throw new Error(`no service resolver to reach service ${s.namespace}/${s.name}`);
      return { url: opts.serviceURL({ ...s, port: s.port || 443 }), servername: `${s.name}.${s.namespace}.svc` };
    }
    if (clientConfig?.url === undefined) throw new Error('webhook configuration must have either service or URL');
    return { url: clientConfig.url };
  };

  const hookFor = (t: Target): GenericWebhook => {
    const key = `${t.url}\n${t.servername ?? ''}`;
    if (client?.key === key) return client.hook;
    let u: URL;
    try {
      u = new URL(t.url);
    } catch (err) {
      throw new Error(`Unparsable URL: ${(err as Error).message}`, { cause: err });
    }
    assertCAData(ca);
    u.searchParams.set('timeout', goDuration(timeoutMs));
    const config = new ClientConfig(u, { ca, rejectUnauthorized: true, ...(t.servername && { servername: t.servername }) }, {});
    client?.hook.close();
    client = { key, hook: new GenericWebhook(config, { requestTimeoutMs: timeoutMs, retryBackoff: NO_RETRY, userAgent: USER_AGENT, maxResponseBytes: UNLIMITED }) };
    return client.hook;
  };

  return {
    async convert(objects, toAPIVersion, listGVK, signal) {
      const version = conversionReviewVersion(webhook?.conversionReviewVersions);
      const uid = randomUUID();
      const failed = (err: unknown) => new Error(`conversion webhook for ${listGVK} failed: ${(err as Error).message}`);
      let answer: unknown;
      try {
        answer = await hookFor(target()).post(encodeConversionReview(version, uid, toAPIVersion, objects), signal ?? NEVER);
      } catch (err) {
        throw failed(err);
      }
      let converted: unknown[];
      try {
        converted = decodeConversionResponse(version, uid, answer);
      } catch (err) {
        throw failed(err);
      }
      return converted.map(convertedObject);
    },
    close() {
      client?.hook.close();
      client = undefined;
    },
  };
}
