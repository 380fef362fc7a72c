/**
 * Printing and selecting custom resources by JSONPath (issue #14): the Table printer of a version's
 * additionalPrinterColumns, the write-time check of a column's JSONPath, and selectable field values.
 */
export { validatePrinterColumnJSONPath } from './column-validation.js';
export { selectableFieldValue } from './selectable-field.js';
export { DEFAULT_CUSTOM_RESOURCE_COLUMNS, newCustomResourceTablePrinter, type CustomResourceTablePrinter } from './table-printer.js';
