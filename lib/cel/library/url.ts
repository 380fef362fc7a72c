/**
 * URL library. spec 000 § Expression language (CEL) in fields: `isURL(string)` (the URL must be
 * absolute: an absolute URI or an absolute path), `url(string)` (error if invalid) and the
 * accessors `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`,
 * with Go net/url semantics. Error: `URL parse error during conversion from string: parse …`.
 */

import { VENDOR } from '../../apis/vendor.js';
import type { Equatable } from '../equality.js';
import { LibraryError, type FunctionDecl } from './common.js';
import { escapedPath, hostname, parseRequestURI, parseURL, port, queryValues, URLParseError, type ParsedURL } from './url-parse.js';

/** Name of the URL type in expressions. */
export const URL_TYPE = `${VENDOR}.URL`;

/** A parsed URL value. */
export class CelURL implements Equatable {
  constructor(
    /** The text the URL was parsed from. */
    readonly text: string,
    readonly parts: ParsedURL,
  ) {}

  /** URLs are equal when parsed from the same text. */
  isEqualTo(other: unknown): boolean {
    return other instanceof CelURL && other.text === this.text;
  }
}

function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch (err) {
    if (err instanceof URLParseError) return false;
    throw err;
  }
}

function toURL(s: string): CelURL {
  try {
    // ParseRequestURI checks the URL is absolute; Parse then splits off a fragment correctly.
    parseRequestURI(s);
    return new CelURL(s, parseURL(s));
  } catch (err) {
    if (err instanceof URLParseError) throw new LibraryError(`URL parse error during conversion from string: ${err.message}`);
    throw err;
  }
}

const getter = (name: string, get: (u: ParsedURL) => string): FunctionDecl => ({
  name,
  receiver: URL_TYPE,
  params: [],
  result: 'string',
  handler: (u: CelURL) => get(u.parts),
});

/** The URL library's functions. */
export const URL_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'url', params: ['string'], result: URL_TYPE, handler: toURL },
  { name: 'isURL', params: ['string'], result: 'bool', handler: isURL },
  getter('getScheme', (u) => u.scheme),
  getter('getHost', (u) => u.host),
  getter('getHostname', hostname),
  getter('getPort', port),
  getter('getEscapedPath', escapedPath),
  {
    name: 'getQuery',
    receiver: URL_TYPE,
    params: [],
    result: 'map<string, list<string>>',
    handler: (u: CelURL) => queryValues(u.parts.rawQuery),
  },
];
