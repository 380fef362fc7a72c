/**
 * Building column definitions, and the default two-column printer every kind without its own
 * columns gets: `Name` (string, format `name`) and `Created At` (date, RFC 3339 in UTC), as the
 * upstream default table convertor (spec 000 § Table representation).
 */
import { rfc3339 } from './timestamps.js';
import type { TableColumnDefinition, TablePrinter, TableSource } from './types.js';

/** Optional parts of a column: `format` (default '') and `priority` (0 default view, 1 wide). */
export interface ColumnOptions {
  format?: string;
  priority?: 0 | 1;
}

/** A column definition with every field set, as upstream encodes them. */
export function column(name: string, type: string, description: string, opts: ColumnOptions = {}): TableColumnDefinition {
  return { name, type, format: opts.format ?? '', description, priority: opts.priority ?? 0 };
}

/** The object's `metadata`, or an empty object. */
function metadataOf(obj: TableSource): Record<string, unknown> {
  const m = obj.metadata;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
}

/** The object's `metadata.name`, or '' when absent. */
export function objectName(obj: TableSource): string {
  const name = metadataOf(obj).name;
  return typeof name === 'string' ? name : '';
}

/** The object's `metadata.creationTimestamp` (raw JSON value). */
export function creationTimestamp(obj: TableSource): unknown {
  return metadataOf(obj).creationTimestamp;
}

/** The object-name column (format `name`), first in the default table and most kinds' tables. */
export const NAME_COLUMN: TableColumnDefinition = column('Name', 'string', 'Name of the object, unique within its namespace.', { format: 'name' });

/** The columns of the default table. */
export const DEFAULT_COLUMNS: readonly TableColumnDefinition[] = Object.freeze([
  NAME_COLUMN,
  column('Created At', 'date', 'When the server created the object (RFC 3339, UTC).'),
]);

/** The default printer: the object name and its creation time as RFC 3339 text. */
export const DEFAULT_TABLE_PRINTER: TablePrinter = Object.freeze({
  columns: DEFAULT_COLUMNS,
  cells: (obj: TableSource) => [objectName(obj), rfc3339(creationTimestamp(obj))],
});
