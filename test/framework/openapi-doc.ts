/** Helpers for inspecting OpenAPI documents in tests (v2 and v3, as parsed JSON). */

/** The `$ref` targets of a v3 document that it does not define under `components.schemas`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function danglingRefs(doc: any): string[] {
  const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
  return refs.filter((r) => !(r in doc.components.schemas));
}

/** Every key starting with `prefix` anywhere in a JSON value. */
export function keysWithPrefix(value: unknown, prefix: string, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysWithPrefix(v, prefix, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith(prefix)) out.push(k);
      keysWithPrefix(v, prefix, out);
    }
  }
  return out;
}
