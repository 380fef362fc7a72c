/**
 * Byte-exact HTTPS requests for tests of malformed input: the request head is written as given
 * (duplicate headers, non-ASCII bytes, oversized headers — things Node's HTTP client refuses or
 * normalises), over a fresh TLS connection that asks the server to close it after the answer.
 */
import { connect } from 'node:tls';

/** A parsed answer: status code, lower-case headers (repeated ones joined by ', '), body text and JSON. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** Options of one raw request. */
export interface RawRequestOptions {
  /** CA of the server certificate. */
  ca: string;
  /** Client certificate and key (optional). */
  cert?: string;
  key?: string;
}

/**
 * Sends `GET <path>` with `headerLines` (each `Name: value`, written as latin1 bytes, in order)
 * plus `Host` and `Connection: close`, and reads the answer until the server closes. An answer
 * the server never sends (a reset connection) rejects.
 */
export function rawGet(url: string, path: string, headerLines: readonly string[], opts: RawRequestOptions): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port), ca: opts.ca, cert: opts.cert, key: opts.key }, () => {
      const head = [`GET ${path} HTTP/1.1`, `Host: ${u.host}`, ...headerLines, 'Connection: close', '', ''].join('\r\n');
      socket.write(Buffer.from(head, 'latin1'));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => (chunks.length > 0 ? finish() : reject(err)));
    socket.on('end', () => finish());
    let done = false;
    function finish(): void {
      if (done) return;
      done = true;
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    }
  });
}

function parse(raw: Buffer): RawResponse {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || end < 0) throw new Error(`not an HTTP/1.1 answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    const name = l.slice(0, i).toLowerCase();
    const value = l.slice(i + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  const bodyText = body.toString('utf8');
  let json: unknown;
  try {
    json = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, text: bodyText, body: json };
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < b.length) {
    const eol = b.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(b.subarray(i, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(b.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
