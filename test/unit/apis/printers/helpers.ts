/**
 * Helpers for the printer tests: a fixed clock, timestamps relative to it, object metadata, and
 * the cells / row of one object through the real Table builder.
 */
import { tableFor, type TableKind } from '../../../../lib/apimachinery/table/builder.js';
import type { Cell, TableRow } from '../../../../lib/apimachinery/table/types.js';
import type { Obj } from '../../../../lib/apis/define.js';

/** The fixed "now" of every printer test: 2024-05-01T12:00:00Z. */
export const NOW = Date.UTC(2024, 4, 1, 12);

/** The RFC 3339 time `seconds` before NOW. */
export function ago(seconds: number): string {
  return new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** Object metadata named `name`, created `createdAgo` seconds before NOW. */
export function meta(name: string, createdAgo = 60, extra: Obj = {}): Obj {
  return { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '100', creationTimestamp: ago(createdAgo), ...extra };
}

/** The row of `obj` printed by `kind` at NOW (no object). */
export function rowOf(kind: TableKind, obj: Obj): TableRow {
  return tableFor(kind, obj, { now: NOW, includeObject: 'None' }).rows![0]!;
}

/** The cells of `obj` printed by `kind` at NOW. */
export function cellsOf(kind: TableKind, obj: Obj): Cell[] {
  return rowOf(kind, obj).cells;
}
