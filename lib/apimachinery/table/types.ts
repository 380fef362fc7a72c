/**
 * The shapes of the server-side Table representation (spec 000 § Table representation): the
 * `Table` kind of the meta group, its column definitions and rows, and the printer contract a
 * kind implements to fill them. Field names and order follow the upstream JSON encoding.
 */
import type { ListMeta } from '../meta-only.js';

/** A decoded API object (JSON shape). */
export type TableSource = Record<string, unknown>;

/**
 * A cell value: upstream printers emit strings, integers and booleans; a custom resource's column
 * without a value is `null` (upstream's nil cell, issue #14).
 */
export type Cell = string | number | boolean | null;

/**
 * One column: `type` is an OpenAPI type (`string`, `integer`, `number`, `boolean`, `date`),
 * `format` an optional hint (`name` marks the column holding the object name), `priority` 0 for
 * the default view and 1 for wide-only columns (spec 000 § Table representation).
 */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** A condition of a row, e.g. `{type: Completed, status: "True"}` for a finished Pod. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/**
 * One row: `cells` in column order; `conditions` only when the printer sets some; `object` per
 * `includeObject` (a PartialObjectMetadata, the full object, or `null` for None).
 */
export interface TableRow {
  cells: Cell[];
  conditions?: TableRowCondition[];
  object: TableSource | null;
}

/**
 * `kind: Table`, `apiVersion: <meta group>/<version>` as asked (issue #9). `columnDefinitions` is `null` when headers are
 * left out (every watch event after the first); `rows` is `null` for an empty result of the
 * default two-column table, as upstream encodes its nil slice.
 */
export type Table = {
  kind: 'Table';
  apiVersion: string;
  /** The list's metadata, or only the object's resourceVersion for a single object. */
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[] | null;
};

/** The `includeObject` query parameter: what each row's `object` holds. Default `Metadata`. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/**
 * How a kind prints as a Table row: the column definitions (all of them, wide ones included —
 * the server always prints wide, as upstream does) and the cells of one object.
 */
export interface TablePrinter {
  readonly columns: readonly TableColumnDefinition[];
  /** The cells of `obj`, one per column in order; `now` (epoch ms) anchors ages and durations. */
  cells(obj: TableSource, now: number): Cell[];
  /** Row conditions for `obj`, when the kind has any (a finished Pod is `Completed`). */
  conditions?(obj: TableSource): TableRowCondition[] | undefined;
}
