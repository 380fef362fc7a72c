/**
 * Bounds on how deeply a request body may nest (upstream decoders stop at 10 000 levels with
 * `exceeded max depth`): deeper documents would overflow the recursive code that walks them, so
 * they are refused as malformed input (400) before anything looks at them. Linear and iterative.
 */
import { isMap, isPair, isSeq, type Document, type Node } from 'yaml';

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

/** True when the YAML document nests mappings/sequences deeper than `max`. */
export function yamlTooDeep(doc: Document, max = MAX_NESTING_DEPTH): boolean {
  const stack: [unknown, number][] = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (isMap(node) || isSeq(node)) {
      if (depth > max) return true;
      for (const item of node.items) {
        if (isPair(item)) {
          stack.push([item.key as Node, depth + 1]);
          stack.push([item.value as Node, depth + 1]);
        } else stack.push([item, depth + 1]);
      }
    }
  }
  return false;
}
