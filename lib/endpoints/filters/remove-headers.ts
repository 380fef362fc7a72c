/**
 * Removing request headers once a filter has consumed them (the credentials after
 * authentication, the impersonation headers after impersonation), so that nothing downstream —
 * handlers, admission, audit, a proxied backend — can see or reuse them.
 */
import type { IncomingMessage } from 'node:http';

/**
 * Removes every header whose lower-case name satisfies `matches` from the three views Node
 * gives of them: `headers`, `headersDistinct` and `rawHeaders`. Node builds the first two
 * lazily from `rawHeaders` and the header count it parsed, so both are built before
 * `rawHeaders` shrinks.
 */
export function removeRequestHeaders(req: IncomingMessage, matches: (lowerName: string) => boolean): void {
  const headers = req.headers;
  const distinct = req.headersDistinct;
  for (const name of Object.keys(headers)) if (matches(name)) delete headers[name];
  for (const name of Object.keys(distinct)) if (matches(name)) delete distinct[name];
  const raw = req.rawHeaders;
  let kept = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (matches(raw[i]!.toLowerCase())) continue;
    raw[kept++] = raw[i]!;
    raw[kept++] = raw[i + 1]!;
  }
  raw.length = kept;
}
