/**
 * The structures of one version as another version of the same group declares them (issue #15
 * item 1): upstream's older versions often restate the GA structs field for field under their
 * own package (`k8s.io/api/<group>/v1beta1.X` beside `.../v1.X`), which changes the definition
 * id (OpenAPI definition, protobuf message name) and nothing else. A rehomer copies every struct
 * whose id starts with `from` under `to`, keeps the others (shared packages such as meta/v1) and
 * substitutes given replacements. Go-inline structs keep their embedding ids: upstream's older
 * versions inline the v1 types through Go type aliases (`type RuleWithOperations = v1.RuleWithOperations`).
 */
import type { Field, Schema, StructSchema } from '../apimachinery/schema/types.js';
import { structFields } from '../apimachinery/schema/types.js';

/** Options of newRehomer. */
export interface RehomeOptions {
  /** Definition id prefix of the source version, with its trailing dot: `api.admissionregistration.v1.`. */
  from: string;
  /** Definition id prefix of the target version, with its trailing dot: `api.admissionregistration.v1beta1.`. */
  to: string;
  /** Replacement structs by source id (already under the target id, with their own fields). */
  overrides?: ReadonlyMap<string, StructSchema>;
}

/**
 * A function returning a struct of the source version under the target version: a shallow copy per
 * struct with its fields rehomed (memoized, so a struct shared by two places stays one struct and
 * recursive types terminate). Embeddings (Go-inline structs' protobuf message ids) are kept.
 */
export function newRehomer(options: RehomeOptions): (s: StructSchema) => StructSchema {
  const memo = new Map<StructSchema, StructSchema>();
  const overrides = options.overrides ?? new Map<string, StructSchema>();
  const rehome = (s: Schema): Schema => {
    switch (s.type) {
      case 'struct':
        return rehomeStruct(s);
      case 'list':
        return { ...s, items: rehome(s.items) };
      case 'map':
        return { ...s, values: rehome(s.values) };
      default:
        return s;
    }
  };
  const rehomeStruct = (s: StructSchema): StructSchema => {
    const done = memo.get(s);
    if (done) return done;
    const override = overrides.get(s.id);
    if (override) {
      memo.set(s, override);
      return override;
    }
    if (!s.id.startsWith(options.from)) return s;
    const copy: StructSchema = { ...s, id: `${options.to}${s.id.slice(options.from.length)}` };
    memo.set(s, copy);
    const fields: Record<string, Field> = {};
    for (const [k, f] of Object.entries(structFields(s))) fields[k] = { ...f, schema: rehome(f.schema) };
    copy.fields = fields;
    return copy;
  };
  return rehomeStruct;
}
