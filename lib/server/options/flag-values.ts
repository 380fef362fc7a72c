/**
 * Parsers of flag values with the semantics and error texts of Go's `strconv` and pflag, so
 * that a bad value reads as upstream (`strconv.ParseInt: parsing "x": invalid syntax`).
 * Each throws an Error whose message is the reason; the caller adds the flag name.
 */

import { isIP } from 'node:net';

const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go's `strconv.ParseBool`: 1, t, T, TRUE, true, True and their false counterparts. */
export function parseGoBool(text: string): boolean {
  if (TRUE_WORDS.has(text)) return true;
  if (FALSE_WORDS.has(text)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
}

/**
 * Go's `strconv.ParseInt(text, 10, bits)` for decimal text with an optional sign, limited to
 * `bits` (32 or 53: JS numbers are exact up to 2^53).
 */
export function parseGoInt(text: string, bits: 32 | 53): number {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  }
  const value = Number(text);
  const limit = bits === 32 ? 2 ** 31 : Number.MAX_SAFE_INTEGER;
  if (value >= limit || value < -limit) {
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return value;
}

/** pflag's IP value: an IPv4 or IPv6 address (surrounding blanks ignored); returns it trimmed. */
export function parseIP(text: string): string {
  const ip = text.trim();
  if (isIP(ip) === 0) throw new Error(`failed to parse IP: ${JSON.stringify(text)}`);
  return ip;
}

/** pflag's string slice value: comma-separated items; the empty string is the empty list. */
export function parseStringSlice(text: string): string[] {
  return text === '' ? [] : text.split(',');
}

/** A flag's non-empty path value, or undefined for the empty string (unset). */
export function optionalPath(value: string): string | undefined {
  return value === '' ? undefined : value;
}
