/**
 * Removing request headers once a filter has consumed them (the credentials after
 * authentication, the impersonation headers after impersonation), so that nothing downstream —
 * handlers, admission, audit, a proxied backend — can see or reuse them.
 */
import type { IncomingMessage } from 'node:http';

/**
 * `headersDistinct` of a request whose headers were removed, built at its first read from the
 * remaining `rawHeaders` as Node builds it (lower-case names, every value in a list), then kept.
 */
function distinctOfRemaining(this: IncomingMessage): NodeJS.Dict<string[]> {
  const distinct: NodeJS.Dict<string[]> = {};
  const raw = this.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const values = distinct[name];
    if (values) values.push(raw[i + 1]!);
    else distinct[name] = [raw[i + 1]!];
  }
  Object.defineProperty(this, 'headersDistinct', { value: distinct, writable: true, configurable: true, enumerable: true });
  return distinct;
}

/**
 * Removes every header whose lower-case name satisfies `matches` from the three views Node
 * gives of them: `headers`, `headersDistinct` and `rawHeaders`. `headers` is replaced by a copy
 * without them (deleting properties would turn the object into a slow dictionary for every later
 * header read), and `headersDistinct`, which Node would build lazily from `rawHeaders` and the
 * header count it parsed, is built from the shortened `rawHeaders` when first read: about 1 µs
 * a request instead of 5 (issue #17 item 1).
 */
export function removeRequestHeaders(req: IncomingMessage, matches: (lowerName: string) => boolean): void {
  const headers = req.headers;
  const kept: IncomingMessage['headers'] = {};
  for (const name in headers) if (!matches(name)) kept[name] = headers[name];
  const raw = req.rawHeaders;
  let n = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (matches(raw[i]!.toLowerCase())) continue;
    raw[n++] = raw[i]!;
    raw[n++] = raw[i + 1]!;
  }
  raw.length = n;
  req.headers = kept;
  Object.defineProperty(req, 'headersDistinct', { get: distinctOfRemaining, configurable: true, enumerable: true });
}
