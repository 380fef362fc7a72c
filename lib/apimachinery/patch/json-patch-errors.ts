/**
 * Why upstream's JSON patch library, gopkg.in/evanphx/json-patch.v4 (v4.12), refuses an
 * operation, in its words: the message a mutating webhook's patch that does not apply answers
 * (`500 Internal error occurred: <message>`). The library's errors wrap a cause as
 * `<context>: <cause>`, the causes being `missing value`, `invalid index referenced`,
 * `test failed` and Go's strconv errors. The operation is played against the document as the
 * library reads it (a missing or null value is nil, a negative array index counts from the end);
 * nothing is changed.
 */
import { goQuote } from '../go-quote.js';
import { isObject } from '../managedfields/typeinfo.js';
import { goJSONTypeName } from '../serializers/go-json-errors.js';

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';
const TEST_FAILED = 'test failed';

/** The smallest and largest Go `int` (64 bits), the range of `strconv.Atoi`. */
const GO_INT_MIN = -(2n ** 63n);
const GO_INT_MAX = 2n ** 63n - 1n;

type Container = Record<string, unknown> | unknown[];
type Operation = Record<string, unknown>;

/** The entry (resolved array index or object key) a move took out of `container` before it looks for its destination. */
interface Removed {
  container: Container;
  key: number | string;
}

/** Where an operation acts: the container its path's parent names, and the last token (unescaped). */
interface Location {
  container: Container;
  key: string;
}

/** An operation the library refuses; the message is its error text. */
class Refused extends Error {}

function refuse(message: string): never {
  throw new Refused(message);
}

/** Runs `step`, giving a refusal the library's `context` (`<context>: <cause>`). */
function within<T>(context: string, step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof Refused) refuse(`${context}: ${err.message}`);
    throw err;
  }
}

/** What `step` returns, or undefined when it is refused. */
function unlessRefused<T>(step: () => T): T | undefined {
  try {
    return step();
  } catch (err) {
    if (err instanceof Refused) return undefined;
    throw err;
  }
}

function isContainer(v: unknown): v is Container {
  return Array.isArray(v) || isObject(v);
}

/** A JSON pointer token unescaped in one pass (`~1` → `/`, `~0` → `~`). */
function unescapeToken(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Go's `strconv.Atoi(s)`, refused with its error text. */
function atoi(s: string): bigint {
  if (!/^[+-]?\d+$/.test(s)) refuse(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n < GO_INT_MIN || n > GO_INT_MAX) refuse(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return n;
}

function invalidIndex(index: bigint): never {
  refuse(`Unable to access invalid index: ${index}: ${INVALID_INDEX}`);
}

/** The length of `array` as the operation sees it (less a removed item). */
function lengthOf(array: unknown[], removed?: Removed): number {
  return removed?.container === array ? array.length - 1 : array.length;
}

/** The item at `index` of `array` as the operation sees it (after a removed item, the next one). */
function itemAt(array: unknown[], index: number, removed?: Removed): unknown {
  return removed?.container === array && index >= (removed.key as number) ? array[index + 1] : array[index];
}

/** Whether `object` has `key` as the operation sees it (a removed key it has not). */
function hasKey(object: Record<string, unknown>, key: string, removed?: Removed): boolean {
  return Object.hasOwn(object, key) && !(removed?.container === object && removed.key === key);
}

/** The library's `get`: an object's value or undefined (never refused); an array's item, by an index that may count from the end. */
function getAt({ container, key }: Location, removed?: Removed): unknown {
  if (!Array.isArray(container)) return hasKey(container, key, removed) ? container[key] : undefined;
  const length = BigInt(lengthOf(container, removed));
  let index = atoi(key);
  if (index < -length) invalidIndex(index);
  if (index < 0n) index += length;
  if (index >= length) invalidIndex(index);
  return itemAt(container, Number(index), removed);
}

/** The library's `add`: always into an object; into an array at `-` or an index up to its length (or from the end). */
function addAt({ container, key }: Location, removed?: Removed): void {
  if (!Array.isArray(container) || key === '-') return;
  const index = within(`value was not a proper array index: '${key}'`, () => atoi(key));
  const length = BigInt(lengthOf(container, removed)) + 1n;
  if (index >= length || index < -length) invalidIndex(index);
}

/** The library's `remove`, which refuses a key an object lacks or an index out of range; what it takes out. */
function removeAt({ container, key }: Location): Removed {
  if (!Array.isArray(container)) {
    if (!Object.hasOwn(container, key)) refuse(`Unable to remove nonexistent key: ${key}: ${MISSING}`);
    return { container, key };
  }
  const index = atoi(key);
  const length = BigInt(container.length);
  if (index >= length || index < -length) invalidIndex(index);
  return { container, key: Number(index < 0n ? index + length : index) };
}

/**
 * The library's `findObject`: the container that `path` names all but the last token of, walked
 * with `get`, or undefined when a step is refused, missing, null or a scalar, or the path has no
 * `/`. The first token is never read (the library takes `x/a` as `/a`).
 */
function findObject(doc: Container, path: string, removed?: Removed): Location | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2) return undefined;
  let container = doc;
  for (const token of tokens.slice(1, -1)) {
    const next = unlessRefused(() => getAt({ container, key: unescapeToken(token) }, removed));
    if (!isContainer(next)) return undefined;
    container = next;
  }
  return { container, key: unescapeToken(tokens[tokens.length - 1]!) };
}

/**
 * The operation's `path` or `from`, as the library reads it. A missing or null field is refused
 * as `<context>: operation missing path field: missing value` (`operation, missing from field`
 * for `from`), another type with Go's unmarshal error; with `missingOnly`, either is refused as
 * `<context>: missing value`, as `add`, `remove` and `copy` word their `path`.
 */
function pointerField(op: Operation, name: 'path' | 'from', context: string, missingOnly = false): string {
  const value = op[name];
  if (typeof value === 'string') return value;
  if (missingOnly) refuse(`${context}: ${MISSING}`);
  if (value === undefined || value === null) refuse(`${context}: ${name === 'path' ? 'operation missing path field' : 'operation, missing from field'}: ${MISSING}`);
  refuse(`${context}: json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type string`);
}

function add(doc: Container, op: Operation): void {
  const path = pointerField(op, 'path', 'add operation failed to decode path', true);
  const at = findObject(doc, path) ?? refuse(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
  within(`error in add for path: '${path}'`, () => addAt(at));
}

function remove(doc: Container, op: Operation): void {
  const path = pointerField(op, 'path', 'remove operation failed to decode path', true);
  const at = findObject(doc, path) ?? refuse(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
  within(`error in remove for path: '${path}'`, () => removeAt(at));
}

/** A `replace`; one of the whole document (path "") is not judged. */
function replace(doc: Container, op: Operation): void {
  const path = pointerField(op, 'path', 'replace operation failed to decode path');
  if (path === '') return;
  const at = findObject(doc, path) ?? refuse(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
  const found = unlessRefused(() => {
    getAt(at);
    return true;
  });
  if (!found) refuse(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
}

/** A `move`: it takes the value out of `from`, then looks for `path` in what is left. */
function move(doc: Container, op: Operation): void {
  const from = pointerField(op, 'from', 'move operation failed to decode from');
  const source = findObject(doc, from) ?? refuse(`move operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
  const removed = within(`error in move for path: '${source.key}'`, () => {
    getAt(source);
    return removeAt(source);
  });
  const path = pointerField(op, 'path', 'move operation failed to decode path');
  const target = findObject(doc, path, removed) ?? refuse(`move operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
  within(`error in move for path: '${path}'`, () => addAt(target, removed));
}

/** A `copy` (its size bound is the caller's). */
function copy(doc: Container, op: Operation): void {
  const from = pointerField(op, 'from', 'copy operation failed to decode from');
  const source = findObject(doc, from) ?? refuse(`copy operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
  within(`error in copy for from: '${from}'`, () => getAt(source));
  const path = pointerField(op, 'path', 'copy operation failed to decode path', true);
  const target = findObject(doc, path) ?? refuse(`copy operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
  within('error while adding value during copy', () => addAt(target));
}

/**
 * A `test`; one of the whole document (path "") is not judged. A missing or null value passes
 * for a test of null, and one without a value is not judged (the library dereferences nil there:
 * upstream's request panics); otherwise the values are compared as {@link upstreamEqual} does,
 * and a comparison the library cannot finish is not judged.
 */
function test(doc: Container, op: Operation): void {
  const path = pointerField(op, 'path', 'test operation failed to decode path');
  if (path === '') return;
  const at = findObject(doc, path) ?? refuse(`test operation does not apply: is missing path: ${path}: ${MISSING}`);
  const actual = within(`error in test for path: '${path}'`, () => getAt(at));
  const hasValue = Object.hasOwn(op, 'value');
  const passes = actual === null || actual === undefined ? !hasValue || op.value === null : hasValue && upstreamEqual(actual, op.value) !== false;
  if (!passes) refuse(`testing value ${path} failed: ${TEST_FAILED}`);
}

/**
 * The library's comparison of a document's (non-null) value with a test's: scalars by their JSON
 * text, objects key by key (null only equal to null), arrays item by item. Undefined when the
 * library would stop on a null array item (a Go nil dereference), or may, as it visits an
 * object's keys in random order.
 */
export function upstreamEqual(actual: unknown, expected: unknown): boolean | undefined {
  if (Array.isArray(actual)) return Array.isArray(expected) && actual.length === expected.length ? itemsEqual(actual, expected) : false;
  if (isObject(actual)) return isObject(expected) && Object.keys(actual).length === Object.keys(expected).length ? membersEqual(actual, expected) : false;
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** {@link upstreamEqual} of two arrays of one length, visited in order. */
function itemsEqual(actual: unknown[], expected: unknown[]): boolean | undefined {
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] === null || expected[i] === null) return undefined;
    const equal = upstreamEqual(actual[i], expected[i]);
    if (equal !== true) return equal;
  }
  return true;
}

/** {@link upstreamEqual} of two objects with as many keys, visited in any order. */
function membersEqual(actual: Record<string, unknown>, expected: Record<string, unknown>): boolean | undefined {
  let result: boolean | undefined = true;
  for (const [key, value] of Object.entries(actual)) {
    const other = expected[key];
    let equal: boolean | undefined;
    if (!Object.hasOwn(expected, key)) equal = false;
    else if (value === null || other === null) equal = value === other;
    else equal = upstreamEqual(value, other);
    if (equal === undefined) return undefined;
    if (!equal) result = false;
  }
  return result;
}

const OPERATIONS: ReadonlyMap<string, (doc: Container, op: Operation) => void> = new Map([
  ['add', add],
  ['remove', remove],
  ['replace', replace],
  ['move', move],
  ['test', test],
  ['copy', copy],
]);

/**
 * The error text of upstream's library (gopkg.in/evanphx/json-patch.v4, v4.12) for `op`, an
 * element of a decoded JSON patch, applied to `doc`: e.g. `Unexpected kind: nope`, `error in
 * remove for path: '/a': Unable to remove nonexistent key: a: missing value` or `testing value /a
 * failed: test failed`. Undefined when the library applies the operation, when `doc` is not an
 * object or array, and for what is not judged (`replace` or `test` of the whole document, a
 * comparison the library cannot finish). `doc` is left as it was.
 */
export function upstreamPatchError(doc: unknown, op: unknown): string | undefined {
  const operation: Operation = isObject(op) ? op : {};
  const kind = typeof operation.op === 'string' ? operation.op : 'unknown';
  const apply = OPERATIONS.get(kind);
  if (!apply) return `Unexpected kind: ${kind}`;
  if (!isContainer(doc)) return undefined;
  try {
    apply(doc, operation);
    return undefined;
  } catch (err) {
    if (err instanceof Refused) return err.message;
    throw err;
  }
}
