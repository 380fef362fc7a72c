/**
 * The Table printer of a custom resource version (upstream apiextensions `tableconvertor.New` with
 * `serveDefaultColumnsIfEmpty`): the `Name` column, then one column per
 * `additionalPrinterColumns` entry (or, when there are none, `Age`: a `date` column of
 * `.metadata.creationTimestamp`). Each column's JSONPath is compiled once, with missing keys
 * allowed; a cell is built from the first value found (cells.ts), `null` when there is none or
 * the path fails on the object. A column whose JSONPath does not parse ends the column list
 * there (upstream keeps the columns before it and logs `unrecognized column definition "…"`).
 */
import { evaluateJSONPath } from '../../apimachinery/jsonpath/evaluate.js';
import type { JSONPathTemplate } from '../../apimachinery/jsonpath/nodes.js';
import { parseJSONPath } from '../../apimachinery/jsonpath/parser.js';
import { NAME_COLUMN, objectName } from '../../apimachinery/table/columns.js';
import type { Cell, TableColumnDefinition, TablePrinter, TableSource } from '../../apimachinery/table/types.js';
import type { CustomResourceColumnDefinition } from '../types.js';
import { columnCell } from './cells.js';

/** The column served when a version declares no additionalPrinterColumns (upstream `serveDefaultColumnsIfEmpty`). */
export const DEFAULT_CUSTOM_RESOURCE_COLUMNS: readonly CustomResourceColumnDefinition[] = Object.freeze([
  {
    name: 'Age',
    type: 'date',
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists.',
    jsonPath: '.metadata.creationTimestamp',
  },
]);

/** A custom resource's printer; `error` is set when a column's JSONPath did not parse (its columns and later ones are left out). */
export interface CustomResourceTablePrinter extends TablePrinter {
  readonly error?: string;
}

interface CompiledColumn {
  readonly type: string;
  readonly path: JSONPathTemplate;
}

/** The first value the column's path finds in `obj`, or undefined (none, or the path failed). */
function firstValue(path: JSONPathTemplate, obj: TableSource): { value: unknown } | undefined {
  let results: unknown[][];
  try {
    results = evaluateJSONPath(path, obj, { allowMissingKeys: true });
  } catch {
    return undefined;
  }
  const first = results[0];
  return first === undefined || first.length === 0 ? undefined : { value: first[0] };
}

/**
 * The printer of a version with `columns` (its additionalPrinterColumns; undefined or empty for
 * the default `Age` column). Column definitions: name, type, format (default ''), priority
 * (default 0), description (default `Custom resource definition column (in JSONPath format):
 * <jsonPath>`). Never throws: a bad JSONPath sets `error` (see the module docstring).
 */
export function newCustomResourceTablePrinter(columns: readonly CustomResourceColumnDefinition[] | undefined): CustomResourceTablePrinter {
  const served = columns !== undefined && columns.length > 0 ? columns : DEFAULT_CUSTOM_RESOURCE_COLUMNS;
  const headers: TableColumnDefinition[] = [{ ...NAME_COLUMN }];
  const compiled: CompiledColumn[] = [];
  let error: string | undefined;
  for (const col of served) {
    let path: JSONPathTemplate;
    try {
      path = parseJSONPath(`{${col.jsonPath}}`);
    } catch {
      error = `unrecognized column definition ${JSON.stringify(col.jsonPath)}`;
      break;
    }
    compiled.push({ type: col.type, path });
    headers.push({
      name: col.name,
      type: col.type,
      format: col.format ?? '',
      description: col.description ? col.description : `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
      priority: col.priority ?? 0,
    });
  }
  const cells = (obj: TableSource, now: number): Cell[] => {
    const row: Cell[] = [objectName(obj)];
    for (const col of compiled) {
      const found = firstValue(col.path, obj);
      row.push(found === undefined ? null : columnCell(col.type, found.value, now));
    }
    return row;
  };
  const printer: CustomResourceTablePrinter = { columns: Object.freeze(headers), cells };
  return error === undefined ? Object.freeze(printer) : Object.freeze({ ...printer, error });
}
