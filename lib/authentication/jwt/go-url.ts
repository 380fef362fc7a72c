/**
 * The parts of an issuer or discovery URL that the configuration rules look at, split as Go's
 * `net/url.Parse` splits them, with its error texts (`parse "https://h:x": invalid port ":x"
 * after host`) — the WHATWG parser of `URL` normalizes and accepts other inputs.
 */

/** What `parseGoURL` found: scheme (lower-cased), whether user info is present, raw query and fragment. */
export interface GoURL {
  scheme: string;
  hasUser: boolean;
  rawQuery: string;
  fragment: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * Splits `raw` as `url.Parse` does.
 * @throws Error `parse "<raw>": <reason>` for a control character, a missing scheme before `:`,
 *   or a port that is not all digits.
 */
export function parseGoURL(raw: string): GoURL {
  const fail = (reason: string): never => {
    throw new Error(`parse ${JSON.stringify(raw)}: ${reason}`);
  };
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) fail('net/url: invalid control character in URL');
  const hash = raw.indexOf('#');
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  let rest = hash < 0 ? raw : raw.slice(0, hash);
  if (rest.startsWith(':')) fail('missing protocol scheme');
  const scheme = SCHEME.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  const q = rest.indexOf('?');
  const rawQuery = q < 0 ? '' : rest.slice(q + 1);
  if (q >= 0) rest = rest.slice(0, q);
  let hasUser = false;
  if (scheme && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    const at = authority.lastIndexOf('@');
    hasUser = at >= 0;
    const host = at < 0 ? authority : authority.slice(at + 1);
    const colon = host.startsWith('[') ? host.indexOf(':', host.indexOf(']')) : host.lastIndexOf(':');
    if (colon >= 0) {
      const port = host.slice(colon);
      if (!/^:[0-9]*$/.test(port)) fail(`invalid port ${JSON.stringify(port)} after host`);
    }
  } else if (!scheme && /^[^/]*:/.test(rest)) {
    fail('first path segment in URL cannot contain colon');
  }
  return { scheme: scheme ? scheme[1]!.toLowerCase() : '', hasUser, rawQuery, fragment };
}
