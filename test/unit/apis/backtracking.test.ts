/**
 * Every string field of every built-in kind, set in turn to values that make a backtracking
 * regular expression engine run for hours against an ambiguous grammar, goes through decoding,
 * defaulting and validation. Upstream matches with RE2 (linear time); JavaScript's engine
 * backtracks, and one ambiguous grammar holds the event loop for as long as it runs: container
 * images defaulted imagePullPolicy through such a grammar (281 ms at 24 letters, doubling with
 * each letter more). A grammar like that makes this suite never end.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { pod } from '../../../lib/apis/core/v1/pod.js';
import type { Obj } from '../../../lib/apis/define.js';
import { decodeObject } from '../../../lib/apimachinery/schema/decode.js';
import { canonicalize } from '../../../lib/apimachinery/schema/canonical.js';
import { applyDefaults } from '../../../lib/apimachinery/schema/defaults.js';
import { ALL_KINDS, fixtureName } from '../apimachinery/serializers/protobuf/kinds.js';

/** A run of letters, or of letters with separators, ended by a character no grammar takes. */
const BAITS = [`${'a'.repeat(48)}!`, `${'a-'.repeat(40)}!`, `${'a.'.repeat(40)}!`];

/** The paths of `v`'s string leaves. */
function stringPaths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (typeof v === 'string') out.push(at);
  else if (Array.isArray(v)) v.forEach((x, i) => stringPaths(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v as Obj)) stringPaths(x, [...at, k], out);
  return out;
}

/**
 * `obj` with `value` at `path`: a copy of the whole object, or (`alone`) only the objects and list
 * items on the way to it, so that the defaults of the object holding it are computed from the
 * value (an image's pull policy is defaulted only when none is set).
 */
function withValue(obj: Obj, path: (string | number)[], value: string, alone: boolean): Obj {
  if (!alone) {
    const copy = structuredClone(obj);
    let cur = copy as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
    cur[path[path.length - 1]!] = value;
    return copy;
  }
  const build = (at: number): unknown => {
    if (at === path.length) return value;
    const k = path[at]!;
    return typeof k === 'number' ? [build(at + 1)] : { [k]: build(at + 1) };
  };
  return { apiVersion: obj.apiVersion, kind: obj.kind, ...(build(0) as Obj) };
}

function fixture(name: string): Obj | undefined {
  try {
    return JSON.parse(readFileSync(new URL(`../../fixtures/kinds/${name}.json`, import.meta.url), 'utf8')) as Obj;
  } catch {
    return undefined;
  }
}

describe('apis: no string of a built-in kind makes decoding, defaulting or validation backtrack', function () {
  this.timeout(120_000);
  for (const kind of ALL_KINDS) {
    const obj = fixture(fixtureName(kind));
    if (!obj) continue;
    it(`${kind.apiVersion} ${kind.kind}: every string field, every bait, with and without its siblings`, () => {
      let checked = 0;
      // A pod template's strings are those of the Pod: checked once, there.
      const paths = stringPaths(obj).filter((p) => !['apiVersion', 'kind'].includes(String(p[0])) && (kind === pod || !p.includes('template')));
      for (const path of paths) {
        for (const bait of BAITS) {
          for (const alone of [false, true]) {
            // Decoded, defaulted and written out with Go's zero values as the server does (decode-object.ts decodeTyped).
            const raw = withValue(obj, path, bait, alone);
            if (decodeObject(kind.schema, raw).typeError) continue;
            applyDefaults(kind.schema, raw);
            const o = canonicalize(kind.schema, raw);
            kind.validate?.(o);
            kind.validateUpdate?.(o, obj);
            checked++;
          }
        }
      }
      expect(checked).to.be.greaterThan(0);
    });
  }
});
