/**
 * Go's "zero means unset" for a decoded protobuf request body (spec 000 § Protobuf envelope): a
 * Go writer always sends a non-pointer string, so an unset one arrives as `""` (and the decoder
 * gives an absent non-omitempty string its zero, `""`, as well); Go's defaulters then treat that
 * `""` as unset and fill in the default. This removes such `""` values of the fields that declare
 * a default, so that the defaulting which follows the decoding of a request fills them in (a
 * ClusterRoleBinding's `roleRef.apiGroup`). Pointer fields (`Field.pointer`: a set `""` means
 * something) and everything else are left alone. JSON request bodies are not touched: there an
 * explicit `""` stays what the client sent.
 */
import { type Schema, structFields } from '../../schema/types.js';

/** Removes, in place, every `""` of a non-pointer string field with a declared default, walking `obj` (an object of `schema`). */
export function unsetDefaultedEmptyStrings(schema: Schema, obj: unknown): void {
  if (obj === null || typeof obj !== 'object') return;
  switch (schema.type) {
    case 'struct': {
      const o = obj as Record<string, unknown>;
      for (const [k, f] of Object.entries(structFields(schema))) {
        if (!Object.hasOwn(o, k)) continue;
        if (o[k] === '' && f.schema.type === 'string' && f.default !== undefined && f.pointer !== true) delete o[k];
        else unsetDefaultedEmptyStrings(f.schema, o[k]);
      }
      return;
    }
    case 'list':
      if (Array.isArray(obj)) for (const item of obj) unsetDefaultedEmptyStrings(schema.items, item);
      return;
    case 'map':
      for (const v of Object.values(obj as Record<string, unknown>)) unsetDefaultedEmptyStrings(schema.values, v);
      return;
    default:
      return;
  }
}
