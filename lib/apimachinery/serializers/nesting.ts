/**
 * Bounds on how deeply a request body may nest (upstream decoders stop at 10 000 levels with
 * `exceeded max depth`): deeper documents would overflow the recursive code that walks them, so
 * they are refused as malformed input (400) before anything looks at them. Linear and iterative.
 */
import type { CST } from 'yaml';

/** Deepest nesting of objects and arrays accepted in a body. */
export const MAX_NESTING_DEPTH = 10_000;

/** True when the JSON text nests objects/arrays deeper than `max` (strings are skipped). */
export function jsonTooDeep(text: string, max = MAX_NESTING_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
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
