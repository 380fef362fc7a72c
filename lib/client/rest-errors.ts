/**
 * The texts upstream's REST client (client-go `rest`, v1.30) gives its caller when a call to
 * another server fails, for every client of ours that calls out over HTTP (admission, conversion,
 * authentication and authorization webhooks, the aggregation layer's availability check, the
 * kubelet's connect subresources): a transport failure in Go's `net` words, an error status as
 * `transformUnstructuredResponseError` describes it, and an answer its decoder cannot read. A
 * message of the Node runtime (`connect ECONNREFUSED 127.0.0.1:9443`, `Unexpected token`) never
 * reaches a client through them (issue #23 item 4).
 */
import { genericServerResponse } from '../apimachinery/errors.js';
import { goJSONSyntaxError } from '../apimachinery/serializers/go-json-errors.js';

/** A Node socket, DNS or TLS error, with the fields Node sets on the ones this module words. */
export type TransportError = NodeJS.ErrnoException & {
  address?: string;
  port?: number;
  hostname?: string;
  host?: string;
  cert?: { subjectaltname?: string };
};

/** `host:port` as Go prints a dial address (an IPv6 address in brackets). */
export function dialAddress(host: string, port: number | string): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The `host:port` a URL is dialled at (its scheme's port when it names none), as Go prints it. */
export function urlDialAddress(u: URL): string {
  return dialAddress(u.hostname.replace(/^\[(.*)\]$/, '$1'), u.port || (u.protocol === 'https:' ? 443 : 80));
}

/**
 * Go's reason for a failed connection to `addr` (`host:port` of the target; the address Node
 * dialled is preferred when the error names it), e.g. `dial tcp 127.0.0.1:9443: connect:
 * connection refused`, `dial tcp: lookup svc.example: no such host`, `tls: failed to verify
 * certificate: x509: certificate signed by unknown authority`, `EOF` for a connection closed
 * before an answer. An error of another kind keeps its own message.
 */
export function transportErrorMessage(err: TransportError, addr: string): string {
  const dialled = err.address !== undefined && err.port !== undefined ? dialAddress(err.address, err.port) : addr;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${dialled}: connect: connection refused`;
    case 'ETIMEDOUT':
      return `dial tcp ${dialled}: i/o timeout`;
    case 'EHOSTUNREACH':
      return `dial tcp ${dialled}: connect: no route to host`;
    case 'ECONNRESET':
      return 'EOF';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${err.hostname ?? addr.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1')}: no such host`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return 'http: server gave HTTP response to HTTPS client';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      const names = (err.cert?.subjectaltname ?? '').split(', ').map((n) => n.replace(/^(DNS|IP Address):/, '')).filter(Boolean);
      return `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${err.host ?? addr}`;
    }
    default:
      return err.message;
  }
}

/** The most of an error answer's text upstream's client puts in its message (bytes; `maxUnstructuredResponseTextBytes`). */
const MAX_QUOTED_BYTES = 2048;

/** Whether a Content-Type is text (`text/…`), whose body upstream's client quotes in its message. */
function isText(contentType: string | undefined): boolean {
  return /^text\//i.test(contentType ?? '');
}

/**
 * The message of an error answer (`status` outside 200–206): the `message` of a Failure Status
 * the body carries, else upstream `NewGenericServerResponse`'s for the code, quoting the body
 * (its first 2 KiB, trimmed) where that message carries the server's words and the body is text
 * (else `unknown`), e.g. 500 with `broken` → `an error on the server ("broken") has prevented the
 * request from succeeding`.
 */
export function errorResponseMessage(status: number, contentType: string | undefined, text: string): string {
  try {
    const body = JSON.parse(text) as { kind?: unknown; status?: unknown; message?: unknown } | null;
    if (body && body.kind === 'Status' && body.status === 'Failure' && typeof body.message === 'string') return body.message;
  } catch {
    // not a Status: described by its code
  }
  return genericServerResponse(status, isText(contentType) ? Buffer.from(text).subarray(0, MAX_QUOTED_BYTES).toString('utf8').trim() : 'unknown').message;
}

/** The media types a JSON decoder reads (`application/json` and types ending in `+json`). */
function isJSONMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * The JSON value of a successful answer, as upstream's client decodes it into an object.
 * @param contentType the answer's Content-Type; without one, JSON is assumed (the client's own type).
 * @throws Error with upstream's text: `0-length response with status code: <code> and content
 *   type: <type>`, `serializer for <Content-Type> doesn't exist` (an answer that is not JSON by its
 *   type), or `couldn't get version/kind; json parse error: <Go's message>`.
 */
export function decodeJSONAnswer(status: number, contentType: string | undefined, text: string): unknown {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== '' && !isJSONMediaType(mediaType)) throw new Error(`serializer for ${contentType!} doesn't exist`);
  if (text.length === 0) throw new Error(`0-length response with status code: ${status} and content type: ${contentType ?? 'application/json'}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`couldn't get version/kind; json parse error: ${goJSONSyntaxError(text) ?? 'unexpected end of JSON input'}`);
  }
}
