/**
 * Small value formats with the upstream messages (apimachinery util/validation): environment
 * variable names, ConfigMap/Secret keys, HTTP header names, percentages, user and group ids, and
 * the non-negative integer rule. The `is*` functions return the problems (empty = valid).
 */
import { type FieldError, type FieldPath, invalid } from '../field-errors.js';
import { regexError } from './names.js';

/** `must be between <lo> and <hi>, inclusive`. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Names must not be `.`, `..` or start with `..` (upstream `hasChDirPrefix`). */
function chDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const ENV_VAR_NAME = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const reEnvVarName = new RegExp(`^${ENV_VAR_NAME}$`);

/** An environment variable name (or envFrom prefix). */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!reEnvVarName.test(value))
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        ENV_VAR_NAME,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  return [...errs, ...chDirPrefix(value)];
}

const CONFIG_MAP_KEY = '[-._a-zA-Z0-9]+';
const reConfigMapKey = new RegExp(`^${CONFIG_MAP_KEY}$`);

/** A key of a ConfigMap or Secret (≤ 253 characters). */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!reConfigMapKey.test(value))
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY, 'key.name', 'KEY_NAME', 'key-name'));
  return [...errs, ...chDirPrefix(value)];
}

const HTTP_HEADER_NAME = '[-A-Za-z0-9]+';
const reHttpHeaderName = new RegExp(`^${HTTP_HEADER_NAME}$`);

/** An HTTP header field name. */
export function isHTTPHeaderName(value: string): string[] {
  return reHttpHeaderName.test(value)
    ? []
    : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME, 'X-Header-Name')];
}

const PERCENT = '[0-9]+%';
const rePercent = new RegExp(`^${PERCENT}$`);

/** A percentage string such as `25%`. */
export function isValidPercent(value: string): string[] {
  return rePercent.test(value) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT, '1%', '93%')];
}

const MAX_ID = 2147483647;

/** A Linux user id: 0–2147483647. */
export function isValidUserID(uid: number): string[] {
  return uid >= 0 && uid <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** A Linux group id: 0–2147483647. */
export function isValidGroupID(gid: number): string[] {
  return gid >= 0 && gid <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** `Invalid value: <n>: must be greater than or equal to 0` for a negative number (upstream ValidateNonnegativeField). */
export function validateNonnegative(value: unknown, path: FieldPath): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}
