/**
 * JSON Patch (RFC 6902; spec 000 § Patch content types: `application/json-patch+json`), applied
 * by the `fast-json-patch` package one operation at a time, with upstream's two bounds on what a
 * small patch may cost: at most {@link MAX_JSON_PATCH_OPERATIONS} operations, and `copy`
 * operations that together add at most {@link MAX_JSON_PATCH_COPY_BYTES} (upstream
 * `maxJSONPatchOperations` and `JSONPatchMaxCopyBytes`). Without the second, about twenty copies
 * of a part of the object into itself doubled it twenty times: a 1.5 KB patch kept the event loop
 * for 17 s and answered the runtime's "Invalid string length". Where RFC 6902 and upstream's
 * library (gopkg.in/evanphx/json-patch.v4 v4.12, for PATCH requests and webhook patches alike)
 * part, upstream's behaviour is kept, e.g. a `replace` of a key an object does not have adds it
 * (the list is {@link asUpstreamApplies}'s). An operation that does not apply is refused in that
 * library's words (json-patch-errors.ts), e.g. `error in remove for path: '/a': Unable to remove
 * nonexistent key: a: missing value`.
 */
import fastJsonPatch from 'fast-json-patch';
import { isObject } from '../managedfields/typeinfo.js';
import { upstreamPatchError } from './json-patch-errors.js';

/**
 * The operations fast-json-patch refuses exactly where upstream's library does, so that upstream's
 * words are looked for only once it has refused (the others are judged before it runs).
 */
const SAME_REFUSALS: ReadonlySet<string> = new Set(['add', 'remove', 'replace', 'test']);

/** The most operations one JSON patch may hold (upstream `maxJSONPatchOperations`). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/**
 * The most bytes (of compact JSON) that the `copy` operations of one patch may add together:
 * upstream's `JSONPatchMaxCopyBytes`, which defaults to the request body limit (3 MiB).
 */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

/**
 * A patch that cannot be applied. Its message is the error text of upstream's library
 * (gopkg.in/evanphx/json-patch.v4 v4.12) for the operation that does not apply, e.g.
 * `testing value /a failed: test failed` or `Unexpected kind: nope`; fast-json-patch's first
 * line where that library would apply it; or the copy bound's message. The patch handler does not
 * tell it to the client, as upstream; a webhook's patch error does (`500 Internal error occurred:
 * <message>`).
 */
export class JSONPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JSONPatchError';
  }
}

/**
 * Why a decoded JSON patch document is not a patch, in the words of Go's json.Unmarshal into
 * jsonpatch.Patch (`json: cannot unmarshal string into Go value of type jsonpatch.Operation`; a
 * 400 upstream), or undefined: an array whose elements are objects (or null), or null (no
 * operations). An operation's fields are checked when it applies.
 */
export function jsonPatchShapeError(doc: unknown): string | undefined {
  const isObject = (o: unknown) => o === null || (typeof o === 'object' && !Array.isArray(o));
  const bad = Array.isArray(doc) ? doc.find((o) => !isObject(o)) : doc === null ? undefined : doc;
  if (bad === undefined) return undefined;
  const type = Array.isArray(bad) ? 'array' : typeof bad === 'boolean' ? 'bool' : typeof bad;
  return `json: cannot unmarshal ${type} into Go value of type ${Array.isArray(doc) ? 'jsonpatch.Operation' : 'jsonpatch.Patch'}`;
}

/**
 * The message of a patch with more than {@link MAX_JSON_PATCH_OPERATIONS} operations (upstream
 * answers it 413 RequestEntityTooLarge), or undefined when `count` is within the bound.
 */
export function tooManyOperations(count: number): string | undefined {
  return count > MAX_JSON_PATCH_OPERATIONS ? `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${count}` : undefined;
}

/**
 * The length in UTF-8 bytes of `value` written as compact JSON. The value measured is a part of
 * an object that a patch is growing; the copy bound keeps that object within the stored object,
 * the body and {@link MAX_JSON_PATCH_COPY_BYTES}, so the walk is bounded too.
 */
export function jsonSize(value: unknown): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') size += Buffer.byteLength(JSON.stringify(v));
    else if (v === null || typeof v !== 'object') size += JSON.stringify(v)?.length ?? 4;
    else if (Array.isArray(v)) {
      size += 1 + Math.max(v.length, 1);
      for (const item of v) stack.push(item);
    } else {
      const keys = Object.keys(v);
      size += 1 + Math.max(keys.length, 1);
      for (const k of keys) {
        size += Buffer.byteLength(JSON.stringify(k)) + 1;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return size;
}

/**
 * Applies `operations` (of a document {@link jsonPatchShapeError} accepts) to `document` in turn,
 * mutating it, and returns the result (a new root when an operation replaced it).
 * When `walked` is given, every container an operation's `path` (or `from`) passes through to
 * reach its parent is added to it, as upstream's library parses those (patched-json.ts).
 * @throws JSONPatchError when an operation is malformed or does not apply, in the words of
 *   upstream's gopkg.in/evanphx/json-patch.v4 v4.12 for that operation on the document as it was
 *   before it (`add operation does not apply: doc is missing path: "/a/b": missing value`), or
 *   fast-json-patch's first line where that library would apply it; or when the copies would add
 *   more than `copyLimit` bytes (`Unable to complete the copy, the accumulated size increase of
 *   copy is <n>, exceeding the limit <limit>`, upstream's json-patch wording).
 */
export function applyJSONPatch(document: unknown, operations: readonly unknown[], copyLimit = MAX_JSON_PATCH_COPY_BYTES, walked?: Set<object>): unknown {
  let copied = 0;
  let doc = document;
  // The library checks each operation's fields as it applies it.
  (operations as readonly fastJsonPatch.Operation[]).forEach((op, index) => {
    // A null element is a patch's (Go decodes it as an operation of no kind): it fails below.
    if (op !== null && op.op === 'copy') {
      let from: unknown;
      try {
        from = fastJsonPatch.getValueByPointer(doc, op.from);
      } catch {
        from = undefined;
      }
      if (from !== undefined) {
        copied += jsonSize(from);
        if (copied > copyLimit) throw new JSONPatchError(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${copyLimit}`);
      }
    }
    const upstream = asUpstreamApplies(doc, op);
    if (walked && op !== null) {
      const read = upstream === PASSES ? op : upstream;
      addWalked(doc, read.path, walked);
      if (op.op === 'move' || op.op === 'copy') addWalked(doc, (read as { from?: string }).from ?? op.from, walked);
    }
    if (upstream === PASSES) return;
    // Judged before fast-json-patch runs: a move, which takes the value out of `from` before it
    // can fail at `path`; a copy or move to an index past an array's end, which fast-json-patch
    // appends and upstream refuses; an operation upstream does not know (fast-json-patch's `_get`).
    const judgedFirst = op === null || !SAME_REFUSALS.has(op.op) || op.op === 'move' || op.op === 'copy';
    const refused = judgedFirst ? upstreamPatchError(doc, op) : undefined;
    if (refused !== undefined) throw new JSONPatchError(refused);
    try {
      doc = fastJsonPatch.applyOperation(doc, upstream, true, true, false, index).newDocument;
    } catch (err) {
      const message = judgedFirst ? undefined : upstreamPatchError(doc, op);
      throw new JSONPatchError(message ?? (err as Error).message.split('\n')[0] ?? 'invalid patch');
    }
  });
  return doc;
}

/** Adds to `walked` the containers of `doc` that the JSON pointer `path` passes through before its last token. */
function addWalked(doc: unknown, path: unknown, walked: Set<object>): void {
  if (typeof path !== 'string') return;
  const tokens = path.split('/').slice(1, -1);
  let at = doc;
  for (const token of tokens) {
    if (at === null || typeof at !== 'object') return;
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    at = Object.prototype.hasOwnProperty.call(at, key) ? (at as Record<string, unknown>)[key] : undefined;
    if (at !== null && typeof at === 'object') walked.add(at);
  }
}

/** An operation upstream's library lets pass without a change (see {@link asUpstreamApplies}). */
const PASSES = Symbol('passes');

/** The parent of the JSON pointer `path` in `doc` and the path's last token (unescaped), or undefined when the parent does not exist. */
function parentOf(doc: unknown, path: string): { parent: unknown; parentPath: string; token: string } | undefined {
  const cut = path.lastIndexOf('/');
  if (cut < 0) return undefined;
  const parentPath = path.slice(0, cut);
  try {
    return { parent: fastJsonPatch.getValueByPointer(doc, parentPath), parentPath, token: path.slice(cut + 1).replace(/~1/g, '/').replace(/~0/g, '~') };
  } catch {
    return undefined;
  }
}

/**
 * `op` as upstream's library (evanphx/json-patch v4) applies it to `doc`, where it parts from the
 * RFC and from fast-json-patch:
 * - it reads a missing key of an object as present and null (its `partialDoc.get` never fails):
 *   a `replace` of a key the object lacks sets it, as an `add` would
 *   (`[{"op":"replace","path":"/metadata/labels/new","value":"v"}]` succeeds upstream when
 *   `labels` exists), a `copy` from such a key writes null, and a `test` of such a key, or of a
 *   null value, for `null` passes ({@link PASSES}); one without a `value` makes that library
 *   dereference nil (upstream's request panics: 500), which is refused here as fast-json-patch
 *   refuses it;
 * - an `add` or `replace` without a `value` writes null;
 * - it reads an array index as Go's `strconv.Atoi` does, a negative one counting from the end
 *   (its `SupportNegativeIndices`), in every operation and at every step of a path:
 *   `remove /list/-1` removes the last item, `add /list/-1` inserts before the end of the list it
 *   makes one longer, `replace /list/01` replaces the second item (see {@link canonicalPointer}).
 * A missing parent, an index out of range and every other operation are left to the RFC's checks.
 */
function asUpstreamApplies(doc: unknown, op: fastJsonPatch.Operation): fastJsonPatch.Operation | typeof PASSES {
  if (op === null || typeof op.path !== 'string') return op;
  const kind = op.op as string;
  if ((kind === 'add' || kind === 'replace') && !('value' in op)) op = { ...op, value: null } as unknown as fastJsonPatch.Operation;
  if (!UPSTREAM_KINDS.has(kind)) return op;
  const moved = kind === 'move' || kind === 'copy';
  const from = moved && typeof (op as { from?: unknown }).from === 'string' ? canonicalPointer(doc, (op as { from: string }).from, 0) : undefined;
  const source = from !== undefined ? parentOf(doc, from) : undefined;
  // A move takes its value out before it adds it: an index into that array counts one item fewer.
  const shorter = kind === 'move' && Array.isArray(source?.parent) ? source.parent : undefined;
  const path = canonicalPointer(doc, op.path, kind === 'add' || moved ? 1 : 0, shorter);
  if (path !== op.path || (from !== undefined && from !== (op as { from: string }).from)) op = { ...op, path, ...(from !== undefined && { from }) } as fastJsonPatch.Operation;
  if (kind === 'copy' && source && isObject(source.parent) && !Object.hasOwn(source.parent, source.token)) return { op: 'add', path, value: null };
  if (kind !== 'replace' && kind !== 'test') return op;
  const at = parentOf(doc, path);
  if (!at) return op;
  let actual: unknown;
  if (isObject(at.parent)) {
    if (!Object.hasOwn(at.parent, at.token)) {
      if (kind === 'replace') return { ...op, op: 'add' } as fastJsonPatch.Operation;
    } else actual = at.parent[at.token];
  } else if (Array.isArray(at.parent) && /^(0|[1-9]\d*)$/.test(at.token) && Number(at.token) < at.parent.length) actual = at.parent[Number(at.token)];
  else return op;
  if (kind === 'test' && (actual === undefined || actual === null) && (op as { value?: unknown }).value === null) return PASSES;
  return op;
}

/** The operations upstream's library knows. */
const UPSTREAM_KINDS: ReadonlySet<string> = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * The JSON pointer `pointer` into `doc` with each array index written as fast-json-patch reads
 * one (`0`, `12`), where upstream's library reads another form as a valid index: Go's
 * `strconv.Atoi` (`01`, `+1`), negative counting from the end. The last token may name one past
 * the end when `extra` is 1 (where an `add` inserts); `shorter` is an array a move takes an item
 * out of first. A form that names no item, or a path that leaves the document, is left as it is
 * (upstream refuses it, and so does fast-json-patch).
 */
function canonicalPointer(doc: unknown, pointer: string, extra: 0 | 1, shorter?: unknown[]): string {
  const tokens = pointer.split('/');
  let at = doc;
  let changed = false;
  for (let i = 1; i < tokens.length; i++) {
    const last = i === tokens.length - 1;
    const token = tokens[i]!;
    if (Array.isArray(at)) {
      if (/^[+-]?\d+$/.test(token) && !/^(0|[1-9]\d*)$/.test(token)) {
        const length = at.length + (last ? extra : 0) - (at === shorter ? 1 : 0);
        const n = Number(token);
        const index = n < 0 ? n + length : n;
        if (!(index >= 0 && index < length)) return pointer;
        tokens[i] = String(index);
        changed = true;
      }
      if (last) break;
      at = at[Number(tokens[i])];
    } else if (isObject(at)) {
      if (last) break;
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      at = Object.hasOwn(at, key) ? at[key] : undefined;
    } else break;
  }
  return changed ? tokens.join('/') : pointer;
}
