/**
 * The rows of a live list (issue #22 § Lists are live), kept from the server's Table answers:
 * the first page, the pages "More" appends, and the one-row Tables a watch sends for each
 * ADDED, MODIFIED or DELETED object. Pure functions over an immutable state.
 */

/** A Table column as the server defines it (`kubectl get` prints those of priority 0). */
export interface ColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
}

/** The metadata a row's object carries (PartialObjectMetadata by default). */
export interface RowMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
}

/** One Table row: its cells, in column order, and its object. */
export interface TableRow {
  cells: unknown[];
  object?: { metadata?: RowMeta };
}

/** A Table answer (list, get, or one watch event's object). */
export interface Table {
  kind?: string;
  columnDefinitions?: ColumnDefinition[] | null;
  rows?: TableRow[] | null;
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
}

/** What a list page shows. `continueToken` is set while more pages remain on the server. */
export interface ListState {
  columns: ColumnDefinition[];
  rows: TableRow[];
  continueToken?: string;
  remaining?: number;
  /** Keys of rows a watch deleted, so that a later page (read at the first page's version) does not bring them back. */
  deleted: ReadonlySet<string>;
}

/** The identity of a row: its object's uid, else `namespace/name` (issue #22 § Lists are live). */
export function rowKey(row: TableRow): string {
  const m = row.object?.metadata ?? {};
  return m.uid ?? `${m.namespace ?? ''}/${m.name ?? ''}`;
}

function sortKey(row: TableRow): string {
  const m = row.object?.metadata ?? {};
  return `${m.namespace ?? ''}\u0000${m.name ?? ''}`;
}

/** The state of a first page (issue #22 § Lists are live). */
export function fromTable(t: Table): ListState {
  return { columns: t.columnDefinitions ?? [], rows: t.rows ?? [], continueToken: t.metadata?.continue || undefined, remaining: t.metadata?.remainingItemCount, deleted: new Set() };
}

/** `s` with the page `t` (read with `continue`) appended: rows already shown (newer, from the watch) or deleted since are skipped (issue #22 § Lists are live: limit/continue). */
export function appendPage(s: ListState, t: Table): ListState {
  const shown = new Set(s.rows.map(rowKey));
  const fresh = (t.rows ?? []).filter((r) => !shown.has(rowKey(r)) && !s.deleted.has(rowKey(r)));
  return { ...s, rows: [...s.rows, ...fresh], continueToken: t.metadata?.continue || undefined, remaining: t.metadata?.remainingItemCount };
}

/** Inserts `row` in namespace/name order (the server's list order). */
function insertSorted(rows: TableRow[], row: TableRow): TableRow[] {
  const k = sortKey(row);
  const i = rows.findIndex((r) => sortKey(r) > k);
  return i < 0 ? [...rows, row] : [...rows.slice(0, i), row, ...rows.slice(i)];
}

/**
 * `s` after one watch event whose object is the Table `t` (issue #22 § Lists are live): ADDED
 * and MODIFIED rows replace the shown row or are inserted in order (a MODIFIED row not shown
 * while pages remain belongs to a page not loaded yet, and waits for it); DELETED rows go.
 */
export function applyEvent(s: ListState, type: 'ADDED' | 'MODIFIED' | 'DELETED', t: Table): ListState {
  let { rows, deleted } = s;
  const columns = s.columns.length ? s.columns : t.columnDefinitions ?? [];
  for (const row of t.rows ?? []) {
    const key = rowKey(row);
    const at = rows.findIndex((r) => rowKey(r) === key);
    if (type === 'DELETED') {
      if (at >= 0) rows = [...rows.slice(0, at), ...rows.slice(at + 1)];
      deleted = new Set(deleted).add(key);
    } else if (at >= 0) {
      rows = [...rows.slice(0, at), row, ...rows.slice(at + 1)];
    } else if (type === 'ADDED' || !s.continueToken) {
      rows = insertSorted(rows, row);
    }
  }
  return { ...s, columns, rows, deleted };
}
