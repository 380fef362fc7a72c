/**
 * Bounds on how deeply a request body, and an object written through the API, may nest.
 * Upstream's decoders stop at 10 000 levels (`exceeded max depth`); this server stops at
 * MAX_OBJECT_DEPTH, because much of what walks an object here (the YAML composer, pruning,
 * defaulting, managed fields, merge patches, encoding) recurses on the JavaScript stack, which
 * Go's goroutine stacks do not limit. Deeper input is refused as malformed (400) before anything
 * looks at it. Linear and iterative.
 */
import type { CST } from 'yaml';

/**
 * Deepest nesting of objects and arrays (mappings and sequences in YAML) accepted in a request
 * body or a patched object. On Node 20's default stack, a custom resource (whose schema keeps
 * unknown fields) of 4,000 levels failed to be created and one of 3,000 to be merge-patched, both
 * in managed fields' comparison of the old and new object; and where the stack runs out inside
 * V8's regular-expression compiler, the process aborts instead of throwing. So the bound keeps a
 * wide margin below the shallowest walker, and far above any real object.
 */
export const MAX_OBJECT_DEPTH = 512;

/** True when the JSON text nests objects/arrays deeper than `max` (strings are skipped). */
export function jsonTooDeep(text: string, max = MAX_OBJECT_DEPTH): boolean {
  return jsonKeyCount(text, max) < 0;
}

/**
 * The number of object keys in a JSON text (a string followed by `:`), or -1 when it nests
 * objects/arrays deeper than `max`. One pass, no allocation: with the members of the parsed
 * value (duplicate-fields.ts `memberCount`) it tells whether any key was repeated. Meaningful
 * for valid JSON only.
 */
export function jsonKeyCount(text: string, max = MAX_OBJECT_DEPTH): number {
  let depth = 0;
  let keys = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
      let j = i + 1;
      let e = text.charCodeAt(j);
      while (e === 32 || e === 10 || e === 13 || e === 9) e = text.charCodeAt(++j);
      if (e === 58) keys++;
    } else if (c === 123 || c === 91) {
      if (++depth > max) return -1;
    } else if (c === 125 || c === 93) depth--;
  }
  return keys;
}

/**
 * The deepest nesting of mappings and sequences (block or flow, keys included) in the parsed
 * YAML tokens of a stream (`yaml`'s CST, as its Parser yields them): 0 for scalars only, 1 for a
 * document that is one mapping. Walks the tokens with a stack, so that any depth is measured
 * without recursion, before the recursive composer sees them.
 */
export function yamlTokenDepth(tokens: readonly CST.Token[]): number {
  let deepest = 0;
  const stack: [CST.Token | undefined, number][] = [];
  for (const t of tokens) stack.push([t.type === 'document' ? t.value : t, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (token === undefined) continue;
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    for (const item of token.items as CST.CollectionItem[]) {
      stack.push([item.key ?? undefined, depth + 1]);
      stack.push([item.value, depth + 1]);
    }
  }
  return deepest;
}

/** True when a decoded JSON value nests objects and arrays deeper than `max`. Iterative. */
export function valueTooDeep(value: unknown, max = MAX_OBJECT_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
