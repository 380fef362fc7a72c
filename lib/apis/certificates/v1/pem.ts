/**
 * PEM decoding with the rules of Go's `encoding/pem.Decode`, which upstream validation uses: the
 * first well-formed block wins, text before and after blocks is skipped, a malformed block
 * (no matching END line, bad base64) is skipped too, and `Key: value` header lines after the
 * BEGIN line are collected as headers.
 */

/** One PEM block. */
export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const BEGIN = '\n-----BEGIN ';
const END = '\n-----END ';
const DASHES = '-----';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A line without its `\n` and trailing spaces, tabs and `\r`, and the text after it. */
function getLine(text: string): [string, string] {
  const i = text.indexOf('\n');
  const line = i < 0 ? text : text.slice(0, i);
  const rest = i < 0 ? '' : text.slice(i + 1);
  return [line.replace(/[ \t\r]+$/, ''), rest];
}

/** Go's StdEncoding (padded) decoding of a PEM body; undefined when it is not valid base64. */
function decodeBase64(body: string): Buffer | undefined {
  const text = body.replace(/[ \t\r\n]/g, '');
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

/** Decodes the next block of `data` (binary text); undefined when none. Returns the rest too. */
export function decodePem(data: string): { block: PemBlock; rest: string } | undefined {
  let rest = data;
  for (;;) {
    if (rest.startsWith(BEGIN.slice(1))) rest = rest.slice(BEGIN.length - 1);
    else {
      const at = rest.indexOf(BEGIN);
      if (at < 0) return undefined;
      rest = rest.slice(at + BEGIN.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(DASHES)) continue;
    const type = typeLine.slice(0, -DASHES.length);
    const headers: Record<string, string> = {};
    let truncated = false;
    for (;;) {
      if (rest === '') {
        truncated = true;
        break;
      }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      rest = next;
    }
    if (truncated) return undefined;
    let endIndex: number;
    let trailerIndex: number;
    if (Object.keys(headers).length === 0 && rest.startsWith(END.slice(1))) {
      endIndex = 0;
      trailerIndex = END.length - 1;
    } else {
      endIndex = rest.indexOf(END);
      trailerIndex = endIndex + END.length;
    }
    if (endIndex < 0) continue;
    const trailer = rest.slice(trailerIndex, trailerIndex + type.length + DASHES.length);
    if (trailer !== type + DASHES || getLine(rest.slice(trailerIndex + trailer.length))[0] !== '') continue;
    const bytes = decodeBase64(rest.slice(0, endIndex));
    if (!bytes) continue;
    return { block: { type, headers, bytes }, rest: getLine(rest.slice(endIndex + END.length - 1))[1] };
  }
}

/** Every block of `data`, in order (Go's repeated `pem.Decode` until none is left). */
export function decodeAllPem(data: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let rest = data;
  for (let next = decodePem(rest); next; next = decodePem(rest)) {
    blocks.push(next.block);
    rest = next.rest;
  }
  return blocks;
}
