/**
 * Continue tokens of chunked lists: base64 of `{"v":"<meta group>/v1","rv":<revision>,"start":"<key>"}`
 * where `start` is the next key relative to the listed prefix (spec 000 § Chunked list parameters).
 */
import { META_GROUP } from '../apis/vendor.js';
import { invalidContinue } from './errors.js';

const TOKEN_VERSION = `${META_GROUP}/v1`;

/**
 * Encodes a token that resumes listing `prefix` at `nextKey` (absolute) at revision `rv`;
 * `rv = -1` makes an "inconsistent" token that continues at the newest revision (handed out
 * when the original revision was compacted).
 */
export function encodeContinue(nextKey: string, prefix: string, rv: number): string {
  if (!nextKey.startsWith(prefix)) throw new Error(`continue key ${nextKey} is outside ${prefix}`);
  const start = nextKey.slice(prefix.length);
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv, start })).toString('base64url');
}

/**
 * Decodes a token into the absolute start key and the revision of the first chunk (-1: newest).
 * Throws StorageError InvalidContinue with the upstream wording on any malformed token.
 */
export function decodeContinue(token: string, prefix: string): { startKey: string; rv: number } {
  let parsed: unknown;
  try {
    const b64 = token.replace(/\+/g, '-').replace(/\//g, '_');
    // Node's decoder skips characters outside the alphabet; upstream's does not.
    if (!/^[A-Za-z0-9_-]*$/.test(b64) || b64.length % 4 === 1) throw new Error('illegal base64 data');
    parsed = JSON.parse(Buffer.from(b64, 'base64url').toString('utf8'));
  } catch {
    throw invalidContinue('continue key is not valid: illegal base64 data or JSON');
  }
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (!t || typeof t !== 'object' || t.v !== TOKEN_VERSION) {
    throw invalidContinue(`continue key is not valid: server does not recognize this encoded version`);
  }
  if (typeof t.rv !== 'number' || !Number.isInteger(t.rv) || t.rv === 0 || t.rv < -1) {
    throw invalidContinue(`continue key is not valid: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  }
  if (typeof t.start !== 'string' || t.start.length === 0) {
    throw invalidContinue('continue key is not valid: encoded start key empty');
  }
  if (t.start.split('/').some((seg) => seg === '..' || seg === '.') || t.start.startsWith('/')) {
    throw invalidContinue('continue key is not valid: the start key may not contain path traversal');
  }
  return { startKey: prefix + t.start, rv: t.rv };
}
