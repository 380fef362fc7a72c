/**
 * fast-check arbitraries of request bodies for the bad-input suite (issue #19 item 6): objects of
 * several kinds (from their definitions, through fuzz.ts) with fields of the wrong type, numbers
 * no decoder holds (1e400, 2^64, -0, a thousand digits), duplicate keys, invalid UTF-8, truncated
 * text, nesting 100 to 100 000 levels deep, YAML alias bombs, JSON patch copy bombs, patch
 * documents with broken operations, protobuf garbage, and bodies past the server's 3 MiB limit. Each body says which
 * class it belongs to, so the test can expect a status where the input alone decides it.
 */
import fc from 'fast-check';
import { stringify as toYAML } from 'yaml';
import type { KindDefinition, Obj } from '../../../lib/apis/define.js';
import { MAX_OBJECT_DEPTH } from '../../../lib/apimachinery/serializers/nesting.js';
import { MAX_REQUEST_BODY_BYTES } from '../../../lib/endpoints/handlers/body.js';
import { fuzzObject } from '../fuzz.js';

/**
 * What a body is: `object` (well-formed text of an object, maybe invalid for its kind),
 * `malformed` (text no JSON decoder accepts: truncated, invalid UTF-8 or a bad token), `deep`
 * (nested past the server's limit, MAX_OBJECT_DEPTH levels), `oversized` (past 3 MiB), `binary` (bytes in no
 * text format), `empty`.
 */
export type BodyClass = 'object' | 'malformed' | 'deep' | 'oversized' | 'binary' | 'empty';

/** A generated body: its bytes, its class and a short description for failure reports. */
export interface FuzzBody {
  bytes: Buffer;
  cls: BodyClass;
  /** How it was made (`configmap+wrong-type at data`, `deep-json 10000`). */
  label: string;
}

/** Values of the wrong type (or no type at all) for any field. */
const WRONG_VALUES: readonly unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', 'ü\u0000', [], [1, 'a', null], {}, { a: { b: [] } }, '9'.repeat(40), -1e308];

/** Number literals no JSON decoder of a typed field holds exactly, spliced into the text raw. */
const RAW_NUMBERS: readonly string[] = ['1e400', '-1e400', '18446744073709551616', '-9223372036854775809', '9223372036854775808', '-0', '0.0000001e-400', '1e-400', '9'.repeat(1000), '1.' + '0'.repeat(500) + '1', '1E+999999999', '0x10', '01', '+1', '.5', 'NaN', 'Infinity', '1_000'];

/** Byte sequences that are not UTF-8 (a lone continuation byte, an overlong form, a surrogate, past U+10FFFF). */
const BAD_UTF8: readonly number[][] = [[0xff], [0x80], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]];

/** Every path (list of keys and indices) into `v`, the root included. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v as Obj)) paths(x, [...at, k], out);
  return out;
}

/** `obj` with the value at `path` replaced by `value` (the root path replaces nothing). */
function setAt(obj: Obj, path: (string | number)[], value: unknown): Obj {
  if (path.length === 0) return obj;
  const copy = structuredClone(obj);
  let cur = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
  return copy;
}

/** An object of one of `kinds`, named from `names`, with up to 3 fields given a wrong value. */
function mutatedObject(kinds: readonly KindDefinition[], names: readonly string[]): fc.Arbitrary<{ obj: Obj; label: string }> {
  return fc
    .tuple(fc.constantFrom(...kinds), fc.nat(), fc.constantFrom(...names), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...WRONG_VALUES)), { maxLength: 3 }))
    .map(([kind, seed, name, mutations]) => {
      let obj = fuzzObject(kind, seed);
      (obj.metadata as Obj).name = name;
      const done: string[] = [];
      for (const [at, value] of mutations) {
        const all = paths(obj).filter((p) => p.length > 0);
        const p = all[at % all.length]!;
        obj = setAt(obj, p, value);
        done.push(p.join('.'));
      }
      return { obj, label: `${kind.kind}${done.length ? ` wrong-type at ${done.join(', ')}` : ''}` };
    });
}

/** The text of `obj` with `"__N__"` placeholders replaced by `raw` (a raw number token). */
function withRawNumber(obj: Obj, raw: string, at: (string | number)[]): string {
  return JSON.stringify(setAt(obj, at, '__N__')).replace('"__N__"', raw);
}

/** JSON nested `n` levels deep inside a ConfigMap's data (objects or arrays). */
function deepJSON(n: number, arrays: boolean): string {
  const inner = arrays ? `${'['.repeat(n)}1${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":${inner}}`;
}

/** A YAML billion-laughs document: `levels` anchors each aliasing the previous one 9 times. */
function yamlBomb(levels: number): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n${lines.join('\n')}\n`;
}

/** A JSON patch copying the object's metadata to `/x`, then `/x` into itself `n` times: it doubles `n` times. */
function copyBomb(n: number): unknown[] {
  return [{ op: 'copy', from: '/metadata', path: '/x' }, ...Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '/x', path: `/x/y${i}` }))];
}

/** JSON Patch operations: some valid, some with broken ops, paths, indices or values. */
const jsonPatchOps = fc.array(
  fc.record({
    op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'nope', '', 'ADD'),
    path: fc.constantFrom('/metadata/labels/x', '/metadata/labels', '/data/k', '/spec/replicas', '/metadata/name', '', '/', '/-', '~2', '/metadata/labels/a~1b', '/spec/template/spec/containers/99999999999999999999', '/data/-/x', '/a/b/c/d/e', 'no-slash'),
    from: fc.option(fc.constantFrom('/metadata', '/data/k', '/nope', ''), { nil: undefined }),
    value: fc.option(fc.constantFrom(...WRONG_VALUES), { nil: undefined }),
  }),
  { maxLength: 4 },
);

/** A JSON body that is not decodable: truncated, with a bad token or invalid UTF-8. */
function malformed(obj: Obj, how: 'truncate' | 'bad-utf8' | 'bad-token', at: number, bytes: number[]): FuzzBody {
  const text = Buffer.from(JSON.stringify(obj));
  const i = 1 + (at % Math.max(text.length - 2, 1));
  if (how === 'truncate') return { bytes: text.subarray(0, i), cls: 'malformed', label: `truncated at ${i}` };
  if (how === 'bad-utf8') {
    // Inside the first string value, so that the bytes are read as string content.
    const q = text.indexOf(':"');
    const p = q >= 0 ? q + 2 : i;
    return { bytes: Buffer.concat([text.subarray(0, p), Buffer.from(bytes), text.subarray(p)]), cls: 'malformed', label: `invalid UTF-8 ${Buffer.from(bytes).toString('hex')} at ${p}` };
  }
  return { bytes: Buffer.concat([text.subarray(0, i), Buffer.from('@}'), text.subarray(i)]), cls: 'malformed', label: `bad token at ${i}` };
}

/**
 * Bodies for requests against `kinds`, objects named from `names`. Oversized bodies (3 MiB + up
 * to 64 KiB, a valid ConfigMap whose data is too large) come with weight `oversizedWeight`
 * (default 1 in about 200).
 */
export function bodyArbitrary(kinds: readonly KindDefinition[], names: readonly string[], oversizedWeight = 1): fc.Arbitrary<FuzzBody> {
  const objects = mutatedObject(kinds, names);
  return fc.oneof(
    { weight: 60, arbitrary: objects.map(({ obj, label }) => ({ bytes: Buffer.from(JSON.stringify(obj)), cls: 'object' as const, label })) },
    { weight: 10, arbitrary: objects.map(({ obj, label }) => ({ bytes: Buffer.from(toYAML(obj)), cls: 'object' as const, label: `${label} as YAML` })) },
    {
      weight: 20,
      arbitrary: fc.tuple(objects, fc.constantFrom(...RAW_NUMBERS), fc.nat()).map(([{ obj, label }, raw, at]) => {
        const all = paths(obj).filter((p) => p.length > 0);
        const p = all[at % all.length]!;
        return { bytes: Buffer.from(withRawNumber(obj, raw, p)), cls: 'object' as const, label: `${label} number ${raw.slice(0, 20)} at ${p.join('.')}` };
      }),
    },
    {
      weight: 10,
      arbitrary: fc.tuple(objects, fc.nat(), fc.constantFrom(...WRONG_VALUES)).map(([{ obj, label }, at, v]) => {
        // The first key of an object inside `obj` repeated with another value, as raw text.
        const text = JSON.stringify(obj);
        const starts = [...text.matchAll(/\{"([^"]+)":/g)];
        const m = starts[at % starts.length]!;
        const dup = `{"${m[1]}":${JSON.stringify(v)},"${m[1]}":`;
        return { bytes: Buffer.from(text.slice(0, m.index) + dup + text.slice(m.index + m[0].length)), cls: 'object' as const, label: `${label} duplicate key ${m[1]}` };
      }),
    },
    {
      weight: 15,
      arbitrary: fc
        .tuple(objects, fc.constantFrom('truncate' as const, 'bad-utf8' as const, 'bad-token' as const), fc.nat(), fc.constantFrom(...BAD_UTF8))
        .map(([{ obj, label }, how, at, bytes]) => {
          const b = malformed(obj, how, at, bytes);
          return { ...b, label: `${label} ${b.label}` };
        }),
    },
    {
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(100, 1000, 10_001, 100_000), fc.boolean()).map(([n, arrays]) => ({
        bytes: Buffer.from(deepJSON(n, arrays)),
        cls: n > MAX_OBJECT_DEPTH ? ('deep' as const) : ('object' as const),
        label: `deep-json ${arrays ? 'arrays' : 'objects'} ${n}`,
      })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(100, 1000, 10_001, 50_000).map((n) => ({
        bytes: Buffer.from(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: ${'['.repeat(n)}1${']'.repeat(n)}\n`),
        cls: n > MAX_OBJECT_DEPTH ? ('deep' as const) : ('object' as const),
        label: `deep-yaml ${n}`,
      })),
    },
    { weight: 2, arbitrary: fc.constantFrom(3, 6, 9).map((n) => ({ bytes: Buffer.from(yamlBomb(n)), cls: 'object' as const, label: `yaml alias bomb 9^${n}` })) },
    { weight: 8, arbitrary: jsonPatchOps.map((ops) => ({ bytes: Buffer.from(JSON.stringify(ops)), cls: 'object' as const, label: 'json patch' })) },
    { weight: 2, arbitrary: fc.constantFrom(8, 16, 30).map((n) => ({ bytes: Buffer.from(JSON.stringify(copyBomb(n))), cls: 'object' as const, label: `json patch copy bomb 2^${n}` })) },
    {
      weight: 6,
      arbitrary: fc.tuple(fc.boolean(), fc.uint8Array({ maxLength: 200 })).map(([magic, b]) => ({
        bytes: Buffer.concat([magic ? Buffer.from([0x6b, 0x38, 0x73, 0x00]) : Buffer.alloc(0), Buffer.from(b)]),
        cls: 'binary' as const,
        label: `protobuf garbage${magic ? ' after the magic' : ''}`,
      })),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        // Magic, an Unknown envelope whose fields claim lengths far past the end.
        Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x00]),
        Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
        Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x04, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x05, 0x0a, 0x03, 0xff, 0xfe, 0x00]),
      ).map((bytes) => ({ bytes, cls: 'binary' as const, label: 'protobuf with broken lengths' })),
    },
    { weight: 3, arbitrary: fc.constant({ bytes: Buffer.alloc(0), cls: 'empty' as const, label: 'empty' }) },
    {
      weight: 3,
      arbitrary: fc.string({ unit: 'binary', maxLength: 64 }).map((s) => ({ bytes: Buffer.from(s), cls: 'binary' as const, label: 'random text' })),
    },
    {
      weight: oversizedWeight,
      arbitrary: fc.nat(64 * 1024).map((extra) => {
        const size = MAX_REQUEST_BODY_BYTES + 1 + extra;
        const head = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"huge"},"data":{"k":"';
        const tail = '"}}';
        return { bytes: Buffer.from(head + 'x'.repeat(size - head.length - tail.length) + tail), cls: 'oversized' as const, label: `oversized ${size} bytes` };
      }),
    },
  );
}
