/**
 * URL parsing with the semantics of Go's net/url (Parse and ParseRequestURI), which the upstream
 * URL library is defined by: same accepted inputs, same components, same error messages.
 */

import { goQuote } from '../../apimachinery/go-quote.js';

/** A parse failure; `message` is Go's `parse "<url>": <reason>`. */
export class URLParseError extends Error {
  override readonly name = 'URLParseError';
}

/** The components of a parsed URL, as Go's url.URL holds them. */
export interface ParsedURL {
  readonly scheme: string;
  readonly opaque: string;
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const ALNUM = /[A-Za-z0-9]/;

/** Go shouldEscape. */
function shouldEscape(c: string, mode: Mode): boolean {
  if (ALNUM.test(c)) return false;
  if ((mode === 'host' || mode === 'zone') && "!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path':
        return c === '?';
      case 'userPassword':
        return c === '@' || c === '/' || c === '?' || c === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** Go unescape: validates %-escapes (and host characters) and decodes them as UTF-8 bytes. */
function unescape(s: string, mode: Mode): string {
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw new Error(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      const v = parseInt(s.slice(i + 1, i + 3), 16);
      if (mode === 'host' && v < 0x80 && s.slice(i, i + 3) !== '%25') throw new Error(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      if (mode === 'zone' && s.slice(i, i + 3) !== '%25' && v !== 0x20 && v < 0x80 && shouldEscape(String.fromCharCode(v), 'host')) {
        throw new Error(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new Error(`invalid character ${goQuote(c)} in host name`);
      }
      i++;
    }
  }
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    if (s[i] === '%') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else if (s[i] === '+' && mode === 'queryComponent') {
      bytes.push(0x20);
      i++;
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Go escape: %-encodes (upper-case hex, per UTF-8 byte) every character `mode` must escape. */
export function escape(s: string, mode: Mode): string {
  let out = '';
  for (const ch of s) {
    if (ch.length === 1 && ch.charCodeAt(0) < 0x80 && !shouldEscape(ch, mode)) {
      out += ch;
    } else if (ch === ' ' && mode === 'queryComponent') {
      out += '+';
    } else {
      for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function getScheme(raw: string): { scheme: string; rest: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new Error('missing protocol scheme');
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new Error("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${goQuote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, i), 'zone') + unescape(host.slice(i), 'host');
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function parseAuthority(authority: string): string {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) throw new Error('net/url: invalid userinfo');
    const colon = userinfo.indexOf(':');
    unescape(colon < 0 ? userinfo : userinfo.slice(0, colon), 'userPassword');
    if (colon >= 0) unescape(userinfo.slice(colon + 1), 'userPassword');
  }
  return host;
}

function parseInternal(raw: string, viaRequest: boolean): ParsedURL {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new Error('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new Error('empty url');
  const empty = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '', fragment: '' };
  if (raw === '*') return { ...empty, path: '*' };
  const { scheme: rawScheme, rest: afterScheme } = getScheme(raw);
  const scheme = rawScheme.toLowerCase();
  let rest = afterScheme;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { ...empty, scheme, opaque: rest, rawQuery };
    if (viaRequest) throw new Error('invalid URI for request');
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) throw new Error('first path segment in URL cannot contain colon');
  }
  let host = '';
  if ((scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    host = parseAuthority(authority);
  }
  const path = unescape(rest, 'path');
  const rawPath = escape(path, 'path') === rest ? '' : rest;
  return { ...empty, scheme, host, path, rawPath, rawQuery };
}

function wrap<T>(raw: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new URLParseError(`parse ${goQuote(raw)}: ${(err as Error).message}`);
  }
}

/** Go url.Parse: any URL reference, with an optional `#fragment`. */
export function parseURL(raw: string): ParsedURL {
  const hash = raw.indexOf('#');
  const base = hash < 0 ? raw : raw.slice(0, hash);
  const u = wrap(base, () => parseInternal(base, false));
  if (hash < 0) return u;
  return { ...u, fragment: wrap(raw, () => unescape(raw.slice(hash + 1), 'fragment')) };
}

/** Go url.ParseRequestURI: an absolute URI or an absolute path, no fragment handling. */
export function parseRequestURI(raw: string): ParsedURL {
  return wrap(raw, () => parseInternal(raw, true));
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host, port };
}

/** Go URL.Hostname: the host without port, IPv6 brackets removed. */
export function hostname(u: ParsedURL): string {
  return splitHostPort(u.host).host;
}

/** Go URL.Port: the port digits, or ''. */
export function port(u: ParsedURL): string {
  return splitHostPort(u.host).port;
}

/** Go URL.EscapedPath. */
export function escapedPath(u: ParsedURL): string {
  if (u.rawPath !== '') {
    try {
      if (unescape(u.rawPath, 'path') === u.path && validEncoded(u.rawPath)) return u.rawPath;
    } catch {
      // fall through to escaping the decoded path, as Go does
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

function validEncoded(s: string): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]".includes(c) || c === '%') continue;
    if (c.length > 1 || c.charCodeAt(0) >= 0x80 || shouldEscape(c, 'path')) return false;
  }
  return true;
}

/** Go URL.Query: `&`-separated pairs, '+' as space, malformed pairs skipped, keys repeat. */
export function queryValues(rawQuery: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const key = unescape(eq < 0 ? pair : pair.slice(0, eq), 'queryComponent');
      const value = unescape(eq < 0 ? '' : pair.slice(eq + 1), 'queryComponent');
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch {
      // Go skips pairs that do not unescape
    }
  }
  return out;
}
