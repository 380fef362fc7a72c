/**
 * Fuzzed objects of a kind, generated from its definition (issue #15 quality bar: round trips
 * between served versions with fuzzed objects): every property of the type model gets a value of
 * its type — enum members, canonical times, durations and quantities, unique keys in map-keyed
 * lists — from a seeded generator, so a failing case can be replayed by its seed.
 */
import type { KindDefinition, Obj } from '../../lib/apis/define.js';
import { effectiveListType, type Schema, type StructSchema, structFields } from '../../lib/apimachinery/schema/types.js';

/** A deterministic pseudo-random generator (mulberry32) over [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'web', 'db', 'cache'];
const QUANTITIES = ['1', '100m', '2Gi', '500Mi', '3'];

/** Options of {@link fuzzObject}. */
export interface FuzzOptions {
  /** Probability that an optional property is set (default 0.6). */
  fill?: number;
  /** Struct nesting beyond which optional properties are left out (default 6). */
  maxDepth?: number;
}

class Fuzzer {
  constructor(
    private readonly rnd: () => number,
    private readonly fill: number,
    private readonly maxDepth: number,
  ) {}

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }

  value(s: Schema, depth: number): unknown {
    switch (s.type) {
      case 'string':
        return s.enum && s.enum.length > 0 ? this.pick(s.enum) : `${this.pick(WORDS)}-${this.int(0, 99)}`;
      case 'integer':
        return this.int(Math.max(s.minimum ?? 0, 0), Math.min(s.maximum ?? 1000, 1000));
      case 'number':
        return this.int(0, 400) / 4;
      case 'boolean':
        return this.rnd() < 0.5;
      case 'bytes':
        return Buffer.from(this.pick(WORDS)).toString('base64');
      case 'time':
        return s.precision === 'micros' ? `2024-05-0${this.int(1, 9)}T10:00:00.${String(this.int(0, 999999)).padStart(6, '0')}Z` : `2024-05-0${this.int(1, 9)}T10:00:0${this.int(0, 9)}Z`;
      case 'duration':
        return `${this.int(1, 59)}s`;
      case 'quantity':
        return this.pick(QUANTITIES);
      case 'int-or-string':
        return this.rnd() < 0.5 ? this.int(1, 100) : `${this.int(1, 100)}%`;
      case 'raw':
        return { [this.pick(WORDS)]: this.pick(WORDS) };
      case 'map': {
        const out: Obj = {};
        for (let i = this.int(1, 2); i > 0; i--) out[`${this.pick(WORDS)}${i}`] = this.value(s.values, depth + 1);
        return out;
      }
      case 'list': {
        const { listType, keys } = effectiveListType(s);
        const n = this.int(1, 2);
        const items: unknown[] = [];
        const seen = new Set<string>();
        for (let i = 0; i < n; i++) {
          const item = this.value(s.items, depth + 1);
          const identity = listType === 'map' ? JSON.stringify(keys.map((k) => (item as Obj)[k])) : listType === 'set' ? JSON.stringify(item) : String(i);
          if (seen.has(identity)) continue;
          seen.add(identity);
          items.push(item);
        }
        return items;
      }
      case 'struct':
        return this.struct(s, depth + 1);
    }
  }

  struct(s: StructSchema, depth: number): Obj {
    const out: Obj = {};
    for (const [name, f] of Object.entries(structFields(s))) {
      if (name === 'apiVersion' || name === 'kind' || name === 'metadata' || name === 'status') continue;
      const keyOfList = f.required === true;
      if (!keyOfList && (depth > this.maxDepth || this.rnd() >= this.fill)) continue;
      out[name] = this.value(f.schema, depth);
    }
    return out;
  }
}

/**
 * A fuzzed object of `kind` (seeded): type meta, a small ObjectMeta (name, namespace for
 * namespaced kinds, a label and an annotation) and its other properties (not `status`).
 */
export function fuzzObject(kind: KindDefinition, seed: number, opts: FuzzOptions = {}): Obj {
  const f = new Fuzzer(seededRandom(seed), opts.fill ?? 0.6, opts.maxDepth ?? 6);
  return {
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    metadata: { name: `fuzz-${seed}`, ...(kind.namespaced ? { namespace: 'default' } : {}), labels: { fuzz: String(seed) }, annotations: { note: 'fuzzed' } },
    ...f.struct(kind.schema, 0),
  };
}
