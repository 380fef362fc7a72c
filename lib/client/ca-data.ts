/**
 * The CA data of a client configuration (`caBundle` of a webhook's `clientConfig`) as upstream's
 * REST client loads it (client-go transport `rootCertPool`): the PEM `CERTIFICATE` blocks without
 * headers are the only trusted CAs, and data in which none parses makes no client at all. Node's
 * TLS takes such data silently and fails each handshake later (`x509: certificate signed by
 * unknown authority` in Go's words), where upstream refuses the configuration at once.
 */
import { X509Certificate } from 'node:crypto';

/** A PEM block as Go's `pem.Decode` finds one: type, whether it has headers, its bytes, and what follows it. */
interface PEMBlock {
  type: string;
  hasHeaders: boolean;
  bytes: Buffer;
  rest: string;
}

const BEGIN = '-----BEGIN ';
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The first well-formed PEM block of `data` (anything before it skipped), or undefined: a
 * `-----BEGIN <type>-----` line at the start of a line, optional `Key: value` header lines, a
 * standard base64 body, and `-----END <type>-----` on a line of its own; a candidate that is not
 * one is passed over, as Go's `pem.Decode` passes it over.
 */
function decodePEM(data: string): PEMBlock | undefined {
  let from = 0;
  for (;;) {
    const start = data.indexOf(BEGIN, from);
    if (start < 0) return undefined;
    from = start + BEGIN.length;
    if (start > 0 && data[start - 1] !== '\n') continue;
    const lineEnd = data.indexOf('\n', start);
    const header = (lineEnd < 0 ? data.slice(start) : data.slice(start, lineEnd)).replace(/\r$/, '');
    const type = /^-----BEGIN (.*)-----$/.exec(header)?.[1];
    if (type === undefined || lineEnd < 0) continue;
    const end = `-----END ${type}-----`;
    const endAt = data.indexOf(end, lineEnd);
    if (endAt < 0 || (endAt > 0 && data[endAt - 1] !== '\n')) continue;
    const afterEnd = data.indexOf('\n', endAt);
    const trailer = afterEnd < 0 ? data.slice(endAt + end.length) : data.slice(endAt + end.length, afterEnd);
    if (trailer.trim() !== '') continue;
    const lines = data.slice(lineEnd + 1, endAt).split('\n');
    // Headers are the lines with a colon at the top of the block.
    let headers = 0;
    while (headers < lines.length && lines[headers]!.includes(':')) headers++;
    const base64 = lines.slice(headers).join('').replace(/[ \t\r]/g, '');
    if (!STRICT_BASE64.test(base64)) continue;
    return { type, hasHeaders: headers > 0, bytes: Buffer.from(base64, 'base64'), rest: afterEnd < 0 ? '' : data.slice(afterEnd + 1) };
  }
}

function parsesAsCertificate(der: Buffer): boolean {
  try {
    new X509Certificate(der);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why upstream's REST client makes no client of the CA data `pem`, in its words, or undefined
 * when it would (empty data: the system's CAs; at least one certificate that parses):
 * `unable to load root certificates: unable to parse bytes as PEM block` (data, or data after a
 * block, that holds no PEM block), `… failed to parse certificate: x509: malformed certificate`
 * (a `CERTIFICATE` block that is not one; Go's x509 parser has finer words for some defects) or
 * `… no valid certificate authority data seen` (blocks of other types only).
 */
export function caDataError(pem: string): string | undefined {
  if (pem === '') return undefined;
  const certificates: Buffer[] = [];
  let rest = pem;
  let reason: string | undefined;
  while (rest.length > 0) {
    const block = decodePEM(rest);
    if (!block) {
      reason = 'unable to parse bytes as PEM block';
      break;
    }
    if (block.type === 'CERTIFICATE' && !block.hasHeaders) certificates.push(block.bytes);
    rest = block.rest;
  }
  if (certificates.some(parsesAsCertificate)) return undefined;
  // client-go reports the first failure it meets walking the data again: a certificate block
  // (none parses) comes before any data left without a block.
  if (certificates.length > 0) reason = 'failed to parse certificate: x509: malformed certificate';
  return `unable to load root certificates: ${reason ?? 'no valid certificate authority data seen'}`;
}

/**
 * Throws what {@link caDataError} finds in the CA data `pem` (none given: the system's CAs), as
 * upstream's REST client refuses to build. @throws Error with client-go's words.
 */
export function assertCAData(pem: string | undefined): void {
  const refused = pem === undefined ? undefined : caDataError(pem);
  if (refused !== undefined) throw new Error(refused);
}
