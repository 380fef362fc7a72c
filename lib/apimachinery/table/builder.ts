/**
 * Builds the `Table` of a get, a list or one watch event (spec 000 § Table representation;
 * issue #6 item 5). Columns come from the kind's printer (`printerColumns` of its definition) or
 * the default `Name` / `Created At` pair; each row's `object` follows `includeObject`
 * (`Metadata` by default: a PartialObjectMetadata; `Object`: the object itself; `None`: null).
 * The Table, and every row's PartialObjectMetadata, are in the meta group/version the client
 * asked for (`apiVersion`, default `<meta group>/v1`; issue #9), as upstream's `asTable` sets it.
 *
 * Watch (upstream `watchEmbeddedEncoder`): every event's object becomes a one-row Table; only the
 * first event of a watch carries `columnDefinitions`, later ones have `null`. Status objects
 * (ERROR events) pass through untouched, but still count as the first event.
 */
import { isListObject, listMetaOf, META_V1_API_VERSION, partialObjectMetadata, type ListMeta } from '../meta-only.js';
import { DEFAULT_TABLE_PRINTER } from './columns.js';
import type { IncludeObject, Table, TablePrinter, TableRow, TableSource } from './types.js';

/** What `tableFor` needs of a kind: its printer, when it has its own columns. */
export interface TableKind {
  readonly printerColumns?: TablePrinter;
}

/** Options of `tableFor`. */
export interface TableOptions {
  /** What each row's `object` holds; default `Metadata`. */
  includeObject?: IncludeObject;
  /** The current time in epoch ms, for ages and durations; default `Date.now()`. */
  now?: number;
  /** The list metadata when `input` is an array of items (resourceVersion, continue, remainingItemCount). */
  listMeta?: unknown;
  /** Leave out the column definitions (`columnDefinitions: null`), as later watch events do. */
  noHeaders?: boolean;
  /** The apiVersion of the Table and of its rows' PartialObjectMetadata; default META_V1_API_VERSION. */
  apiVersion?: string;
}

/** The row's `object` for `includeObject` (a PartialObjectMetadata in `apiVersion` for Metadata). */
function rowObject(obj: TableSource, includeObject: IncludeObject, apiVersion: string): TableSource | null {
  switch (includeObject) {
    case 'None':
      return null;
    case 'Object':
      return obj;
    case 'Metadata':
      return partialObjectMetadata(obj, apiVersion);
  }
}

function row(printer: TablePrinter, obj: TableSource, now: number, includeObject: IncludeObject, apiVersion: string): TableRow {
  const cells = printer.cells(obj, now);
  const conditions = printer.conditions?.(obj);
  const object = rowObject(obj, includeObject, apiVersion);
  return conditions !== undefined && conditions.length > 0 ? { cells, conditions, object } : { cells, object };
}

/** The resourceVersion of a single object, as the Table's only list metadata. */
function objectListMeta(obj: TableSource): ListMeta {
  const meta = obj.metadata as Record<string, unknown> | undefined;
  return listMetaOf({ resourceVersion: meta?.resourceVersion });
}

/**
 * The Table of `input`: an array of items (with `opts.listMeta`), a list object (`{metadata,
 * items}`) or a single object. Cells are wide (every column), as the server always prints.
 * An empty result of the default printer has `rows: null` (upstream's nil slice); a kind's own
 * printer gives `rows: []`.
 */
export function tableFor(kind: TableKind, input: TableSource | readonly TableSource[], opts: TableOptions = {}): Table {
  const printer = kind.printerColumns ?? DEFAULT_TABLE_PRINTER;
  const includeObject = opts.includeObject ?? 'Metadata';
  const apiVersion = opts.apiVersion ?? META_V1_API_VERSION;
  const now = opts.now ?? Date.now();
  let items: readonly TableSource[];
  let metadata: ListMeta;
  if (Array.isArray(input)) {
    items = input as readonly TableSource[];
    metadata = listMetaOf(opts.listMeta);
  } else if (isListObject(input as TableSource)) {
    items = (input as TableSource).items as TableSource[];
    metadata = listMetaOf((input as TableSource).metadata);
  } else {
    items = [input as TableSource];
    metadata = objectListMeta(input as TableSource);
  }
  const rows = items.map((obj) => row(printer, obj, now, includeObject, apiVersion));
  return {
    kind: 'Table',
    apiVersion,
    metadata,
    columnDefinitions: opts.noHeaders ? null : printer.columns.map((c) => ({ ...c })),
    rows: rows.length === 0 && kind.printerColumns === undefined ? null : rows,
  };
}

/** Options of a watch's Table transformer. */
export interface TableWatchOptions {
  includeObject?: IncludeObject;
  /** The apiVersion of every event's Table; default META_V1_API_VERSION. */
  apiVersion?: string;
  /** The clock read at each event (epoch ms); default `Date.now`. */
  clock?: () => number;
}

/** True for a `Status` object (an ERROR event's payload), which is never turned into a Table. */
function isStatus(obj: TableSource): boolean {
  return obj.kind === 'Status' && obj.apiVersion === 'v1';
}

/**
 * A per-watch transformer from each event's object to what the event carries: a one-row Table
 * (column definitions on the first event only) or, for a Status, the Status itself. Stateful:
 * make one per watch.
 */
export function tableWatchTransformer(kind: TableKind, opts: TableWatchOptions = {}): (obj: TableSource) => TableSource {
  const clock = opts.clock ?? Date.now;
  let first = true;
  return (obj) => {
    const noHeaders = !first;
    first = false;
    if (isStatus(obj)) return obj;
    return tableFor(kind, obj, { includeObject: opts.includeObject, apiVersion: opts.apiVersion, now: clock(), noHeaders });
  };
}
