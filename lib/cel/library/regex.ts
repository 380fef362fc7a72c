/**
 * Regular expressions with RE2 semantics (linear time; no lookaround, no backreferences).
 * spec 000 § Expression language (CEL) in fields: `matches`, plus `find` and `findAll` (with an
 * optional limit). A pattern RE2 rejects is a compile error when it is a constant (see
 * compile.ts) and a runtime error otherwise.
 */

import type { RE2JS } from 're2js';
import { compileRE2 } from '../../apimachinery/re2.js';
import { LibraryError, PASS, toIndex, type FunctionDecl, type FunctionOverride } from './common.js';

const CACHE_LIMIT = 512;
const cache = new Map<string, RE2JS | LibraryError>();

/**
 * Compiles `pattern` with RE2 syntax. Returns the message RE2 gives (`error parsing regexp: …`)
 * instead of throwing when the pattern is invalid.
 */
export function compileRegex(pattern: string): RE2JS | LibraryError {
  let re = cache.get(pattern);
  if (re === undefined) {
    const compiled = compileRE2(pattern);
    re = typeof compiled === 'string' ? new LibraryError(compiled) : compiled;
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, re);
  }
  return re;
}

function regex(pattern: string, prefix: string): RE2JS {
  const re = compileRegex(pattern);
  if (re instanceof LibraryError) throw new LibraryError(`${prefix}${re.summary}`);
  return re;
}

/** True when `s` contains a match of `pattern` (unanchored, as RE2 MatchString). */
export function matches(s: string, pattern: string): boolean {
  return regex(pattern, '').test(s);
}

/** The leftmost match, or '' when there is none (Go FindString). */
function find(s: string, pattern: string): string {
  return regex(pattern, 'Illegal regex: ').re2().find(s) ?? '';
}

/** Up to `limit` successive matches (all when limit < 0), as Go FindAllString. */
function findAll(s: string, pattern: string, limit: number): string[] {
  return (regex(pattern, 'Illegal regex: ').re2().findAll(s, limit) as string[] | null) ?? [];
}

/** Library functions: `find` and `findAll`, and the global form of `matches`. */
export const REGEX_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'find', receiver: 'string', params: ['string'], result: 'string', handler: find },
  { name: 'findAll', receiver: 'string', params: ['string'], result: 'list<string>', handler: (s: string, p: string) => findAll(s, p, -1) },
  {
    name: 'findAll',
    receiver: 'string',
    params: ['string', 'int'],
    result: 'list<string>',
    handler: (s: string, p: string, n: bigint) => findAll(s, p, toIndex(n)),
  },
  { name: 'matches', params: ['string', 'string'], result: 'bool', handler: matches },
];

/** The engine's `matches` uses JavaScript regular expressions; this gives it RE2 semantics. */
export const REGEX_OVERRIDES: readonly FunctionOverride[] = [
  {
    name: 'matches',
    member: true,
    arity: 1,
    apply: ([s, p]) => (typeof s === 'string' && typeof p === 'string' ? matches(s, p) : PASS),
  },
];

/**
 * Position, among the call's arguments (the receiver excluded), of the pattern of a regex
 * function, or undefined when `name` is not one. Constant patterns are checked at compile time.
 */
export function patternArgument(name: string, member: boolean, arity: number): number | undefined {
  if (member) return name === 'matches' || name === 'find' || name === 'findAll' ? 0 : undefined;
  return name === 'matches' && arity === 2 ? 1 : undefined;
}
