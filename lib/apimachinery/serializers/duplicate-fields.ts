/**
 * Finding duplicate fields — the same key twice in one JSON object or YAML mapping — while
 * parsing a request body (spec 000 § Field validation levels: duplicates count as unknown
 * fields). Paths are printed like unknown-field paths: `metadata.labels.app`, `spec.ports[1].port`.
 * Linear in the input size.
 */
import { isMap, isSeq, type Node, type Document } from 'yaml';
import { goSyntaxString } from '../go-format.js';
import { lineOf } from './go-yaml-errors.js';

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The duplicate keys of a JSON text, with their paths, in document order. The text must be
 * valid JSON (call after JSON.parse succeeded).
 */
export function jsonDuplicateFields(text: string): string[] {
  const out: string[] = [];
  type Frame = { kind: 'obj'; path: string; keys: Set<string>; key: string } | { kind: 'arr'; path: string; index: number };
  const stack: Frame[] = [];
  let i = 0;
  const n = text.length;
  const readString = (): string => {
    const start = i;
    i++;
    let escaped = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 92) {
        escaped = true;
        i += 2;
        continue;
      }
      if (c === 34) break;
      i++;
    }
    i++;
    const raw = text.slice(start, i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  const valuePath = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    return top.kind === 'obj' ? join(top.path, top.key) : `${top.path}[${top.index}]`;
  };
  let expectKey = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const s = readString();
      const top = stack[stack.length - 1];
      if (expectKey && top?.kind === 'obj') {
        if (top.keys.has(s)) out.push(join(top.path, s));
        else top.keys.add(s);
        top.key = s;
        expectKey = false;
      }
      continue;
    }
    if (c === 123) {
      stack.push({ kind: 'obj', path: valuePath(), keys: new Set(), key: '' });
      expectKey = true;
    } else if (c === 91) {
      stack.push({ kind: 'arr', path: valuePath(), index: 0 });
    } else if (c === 125 || c === 93) {
      stack.pop();
    } else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'obj') expectKey = true;
      else if (top?.kind === 'arr') top.index++;
    }
    i++;
  }
  return out;
}

/**
 * The number of members of every object in a parsed JSON value (nested at most MAX_OBJECT_DEPTH
 * deep: the walk recurses). Fewer than the text's keys (nesting.ts `jsonKeyCount`) means a key was
 * repeated within an object, as JSON.parse keeps the last; equal means none was.
 */
export function memberCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const item of value) n += memberCount(item);
    return n;
  }
  const record = value as Record<string, unknown>;
  for (const k in record) n += 1 + memberCount(record[k]);
  return n;
}

/** The duplicate keys of a parsed YAML document (parsed with `uniqueKeys: false`), with their paths. */
export function yamlDuplicateFields(doc: Document): string[] {
  const out: string[] = [];
  const walk = (node: Node | null | undefined, path: string): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
        if (seen.has(key)) out.push(join(path, key));
        seen.add(key);
        walk(pair.value as Node, join(path, key));
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item as Node, `${path}[${i}]`));
    }
  };
  walk(doc.contents as Node, '');
  return out;
}

/**
 * go-yaml v2's strict-mode errors for the duplicate keys of a parsed YAML document (parsed with
 * `uniqueKeys: false`) of `text`: `line 3: key "a" already set in map`, the line (1-based) of the
 * repeated key's value, the key as Go's `%#v` prints it, in the order go-yaml meets them (a
 * value's own duplicates before its key's). Upstream's server-side apply quotes them at the
 * Strict level (spec 000 § Field validation levels).
 */
export function yamlDuplicateKeyErrors(doc: Document, text: string): string[] {
  const out: string[] = [];
  const walk = (node: Node | null | undefined): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const keyValue = (pair.key as { value?: unknown } | null)?.value ?? pair.key;
        walk(pair.value as Node);
        const key = String(keyValue);
        if (seen.has(key)) {
          const at = (pair.value as Node | null)?.range?.[0] ?? (pair.key as Node | null)?.range?.[1] ?? 0;
          out.push(`line ${lineOf(text, at) + 1}: key ${keyValue === null ? '<nil>' : goSyntaxString(keyValue)} already set in map`);
        }
        seen.add(key);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item as Node);
    }
  };
  walk(doc.contents as Node);
  return out;
}
