/**
 * JSON text exactly as Go's encoding/json writes it, for the places where upstream stores JSON
 * text inside a value, so the bytes match (issue #23).
 */
type Obj = Record<string, unknown>;

/**
 * Go's encoding/json output (Go 1.22, as upstream v1.30 is built) of a decoded JSON value: map
 * keys sorted by their UTF-8 bytes, HTML-safe string escapes, no whitespace. Used wherever
 * upstream writes JSON text into a field (managed-fields keys, the last-applied annotation).
 */
export function goJSON(v: unknown): string {
  return goJSONSorting(v, () => true);
}

/**
 * goJSON, but an object's keys are sorted only where `sorts(object)` says so; the others keep
 * their order, as Go writes a struct, or a `json.RawMessage` it passes through as it was read
 * (upstream's JSON patch library re-marshals only the containers a patch walked through).
 */
export function goJSONSorting(v: unknown, sorts: (o: object) => boolean): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map((x) => goJSONSorting(x, sorts)).join(',')}]`;
  const o = v as Obj;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  if (sorts(o)) keys.sort(compareUtf8);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJSONSorting(o[k], sorts)}`).join(',')}}`;
}

/** Go sorts map keys by their UTF-8 bytes (code point order, not UTF-16 order). */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A Go JSON string: the short escapes, `\u00XX` for other control characters and for `<`, `>`,
 * `&` (HTML-safe), `\u2028` and `\u2029`; a lone surrogate becomes U+FFFD, as Go holds it.
 */
function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    const short = SHORT_ESCAPES[ch];
    if (short) out += short;
    else if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

