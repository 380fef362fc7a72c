/**
 * Field ownership from `metadata.managedFields` (issue #22 § One object, the field-ownership
 * view). Pure code, no DOM: parses each manager's `fieldsV1` and marks the lines of the object's
 * YAML with the managers that own them.
 *
 * `fieldsV1` is structured-merge-diff's serialized field set: a trie in JSON whose keys are path
 * elements — `f:<name>` (a field of a struct or a key of a map), `k:<json>` (a list item of a
 * map-list, by its key fields), `v:<json>` (a set item, by its value), `i:<n>` (an item of an
 * atomic list, by position) — and `.` (the node itself). A key whose value is `{}` is in the set;
 * so is a node holding `.`.
 */
import { stringify } from 'yaml';

/** One element of a field path. */
export type PathElement =
  | { field: string }
  | { key: Record<string, unknown> }
  | { value: unknown }
  | { index: number };

/** A node of a parsed field set: whether the node itself is in the set, and its children. */
export interface FieldNode {
  self: boolean;
  children: { element: PathElement; node: FieldNode }[];
}

/** One `managedFields` entry as the view needs it. */
export interface Manager {
  manager: string;
  operation: string;
  time: string;
  subresource: string;
  fields: FieldNode;
}

/** Parses one serialized path element; throws on an unknown prefix or bad JSON. issue #22 § One object, field ownership. */
export function parseElement(s: string): PathElement {
  const body = s.slice(2);
  switch (s.slice(0, 2)) {
    case 'f:':
      return { field: body };
    case 'k:': {
      const key = JSON.parse(body) as unknown;
      if (!key || typeof key !== 'object' || Array.isArray(key)) throw new Error(`bad key element ${s}`);
      return { key: key as Record<string, unknown> };
    }
    case 'v:':
      return { value: JSON.parse(body) as unknown };
    case 'i:':
      if (!/^\d+$/.test(body)) throw new Error(`bad index element ${s}`);
      return { index: Number(body) };
    default:
      throw new Error(`unknown path element ${s}`);
  }
}

/** Parses a `fieldsV1` trie. A leaf (`{}`) is in the set; a node holding `.` is too. issue #22 § One object, field ownership. */
export function parseFieldsV1(trie: unknown): FieldNode {
  const node: FieldNode = { self: false, children: [] };
  if (!trie || typeof trie !== 'object') return node;
  const entries = Object.entries(trie as Record<string, unknown>);
  node.self = entries.length === 0;
  for (const [k, v] of entries) {
    if (k === '.') node.self = true;
    else node.children.push({ element: parseElement(k), node: parseFieldsV1(v) });
  }
  return node;
}

/** The readable form of a path element: `.name`, `[name="x"]`, `[="v"]`, `[0]`. issue #22 § One object, field ownership. */
export function elementText(e: PathElement): string {
  if ('field' in e) return `.${e.field}`;
  if ('key' in e) return `[${Object.entries(e.key).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
  if ('value' in e) return `[=${JSON.stringify(e.value)}]`;
  return `[${e.index}]`;
}

/** Every path in the set, in readable form (`.data.a`, `.spec.containers[name="x"].image`). issue #22 § One object, field ownership. */
export function pathsOf(node: FieldNode, prefix = ''): string[] {
  const out = node.self && prefix ? [prefix] : [];
  for (const c of node.children) out.push(...pathsOf(c.node, prefix + elementText(c.element)));
  return out;
}

/** JSON equality of two decoded values (key order ignored). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The child of `node` for map field `name`. issue #22 § One object, field ownership. */
export function fieldChild(node: FieldNode | undefined, name: string): FieldNode | undefined {
  return node?.children.find((c) => 'field' in c.element && c.element.field === name)?.node;
}

/** The child of `node` for list item `item` at `index`: by its key fields, its value or its position. issue #22 § One object, field ownership. */
export function itemChild(node: FieldNode | undefined, item: unknown, index: number): FieldNode | undefined {
  if (!node) return undefined;
  for (const { element: e, node: child } of node.children) {
    if ('index' in e && e.index === index) return child;
    if ('value' in e && sameValue(e.value, item)) return child;
    if ('key' in e && item && typeof item === 'object') {
      const obj = item as Record<string, unknown>;
      if (Object.entries(e.key).every(([k, v]) => sameValue(obj[k], v))) return child;
    }
  }
  return undefined;
}

/** The managers of `metadata.managedFields` (entries whose fieldsV1 cannot be parsed own nothing). issue #22 § One object, field ownership. */
export function managersOf(object: Record<string, any>): Manager[] {
  const entries = (object.metadata?.managedFields ?? []) as Record<string, any>[];
  return entries.map((m) => {
    let fields: FieldNode;
    try {
      fields = parseFieldsV1(m.fieldsV1);
    } catch {
      fields = { self: false, children: [] };
    }
    return { manager: String(m.manager ?? ''), operation: String(m.operation ?? ''), time: String(m.time ?? ''), subresource: String(m.subresource ?? ''), fields };
  });
}

/** One line of the annotated YAML: its text and the indices (into the managers) of its owners. */
export interface OwnedLine {
  text: string;
  owners: number[];
  /** The readable path of the field or item the line starts (empty for continuation lines). */
  path: string;
}

type Nodes = (FieldNode | undefined)[];

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null && Object.keys(v).length > 0;

function ownersOf(nodes: Nodes): number[] {
  const out: number[] = [];
  nodes.forEach((n, i) => n?.self && out.push(i));
  return out;
}

/** `first` followed by the continuation lines of a multi-line scalar, indented. */
function scalarLines(head: string, value: unknown, indent: string, path: string, owners: number[]): OwnedLine[] {
  const text = stringify(value, { lineWidth: 0 }).replace(/\n$/, '').split('\n');
  return text.map((t, i) => (i === 0 ? { text: `${indent}${head}${t}`, owners, path } : { text: `${indent}  ${t}`, owners, path: '' }));
}

function walk(value: unknown, nodes: Nodes, indent: string, path: string, out: OwnedLine[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const child = nodes.map((n) => itemChild(n, item, i));
      const itemPath = `${path}[${i}]`;
      if (!isContainer(item)) {
        out.push(...scalarLines('- ', item, indent, itemPath, ownersOf(child)));
        return;
      }
      const start = out.length;
      walk(item, child, `${indent}  `, itemPath, out);
      const first = out[start]!;
      first.text = `${indent}- ${first.text.slice(indent.length + 2)}`;
      first.owners = [...new Set([...ownersOf(child), ...first.owners])].sort((a, b) => a - b);
    });
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const child = nodes.map((n) => fieldChild(n, k));
    const key = stringify(k).replace(/\n$/, '');
    const p = `${path}.${k}`;
    if (isContainer(v)) {
      out.push({ text: `${indent}${key}:`, owners: ownersOf(child), path: p });
      walk(v, child, `${indent}  `, p, out);
    } else {
      out.push(...scalarLines(`${key}: `, v, indent, p, ownersOf(child)));
    }
  }
}

/**
 * The object as YAML lines (without `metadata.managedFields`), each field line and list-item line
 * marked with the indices of the managers owning it.
 * issue #22 § One object, field ownership.
 */
export function ownedLines(object: Record<string, any>, managers: Manager[]): OwnedLine[] {
  const { managedFields: _omit, ...metadata } = (object.metadata ?? {}) as Record<string, unknown>;
  const shown = object.metadata ? { ...object, metadata } : object;
  const out: OwnedLine[] = [];
  walk(shown, managers.map((m) => m.fields), '', '', out);
  return out;
}
