/**
 * Go's `%#v` of upstream's internal `[]apiextensions.CustomResourceDefinitionVersion`, the bad
 * value upstream prints for the errors about `spec.versions` as a whole (`must contain unique
 * version names`, `must have exactly one version marked as storage version`); the shared pieces
 * (strings, bools, pointers) are in ../go-syntax.ts.
 */
import { GoSyntax } from '../../apimachinery/field-errors.js';
import { bool, PKG, pointer, quote } from '../go-syntax.js';
import type { CustomResourceColumnDefinition, SelectableField } from '../types.js';
import type { InternalVersion } from './internal-view.js';

const int = (v: unknown): string => String(typeof v === 'number' ? v : 0);

function slice<T>(type: string, items: T[] | undefined | null, item: (x: T) => string): string {
  if (!Array.isArray(items)) return `[]${type}(nil)`;
  return `[]${type}{${items.map(item).join(', ')}}`;
}

const column = (c: CustomResourceColumnDefinition): string =>
  `${PKG}.CustomResourceColumnDefinition{Name:${quote(c.name)}, Type:${quote(c.type)}, Format:${quote(c.format)}, Description:${quote(c.description)}, Priority:${int(c.priority)}, JSONPath:${quote(c.jsonPath)}}`;

const selectable = (f: SelectableField): string => `${PKG}.SelectableField{JSONPath:${quote(f.jsonPath)}}`;

const version = (v: InternalVersion): string =>
  `${PKG}.CustomResourceDefinitionVersion{Name:${quote(v.name)}, Served:${bool(v.served)}, Storage:${bool(v.storage)}, Deprecated:${bool(v.deprecated)}, ` +
  `DeprecationWarning:${pointer('string', v.deprecationWarning)}, Schema:${pointer(`${PKG}.CustomResourceValidation`, v.schema)}, ` +
  `Subresources:${pointer(`${PKG}.CustomResourceSubresources`, v.subresources)}, ` +
  `AdditionalPrinterColumns:${slice(`${PKG}.CustomResourceColumnDefinition`, v.additionalPrinterColumns, column)}, ` +
  `SelectableFields:${slice(`${PKG}.SelectableField`, v.selectableFields, selectable)}}`;

/** The `%#v` of the internal versions (`[]apiextensions.CustomResourceDefinitionVersion(nil)` when absent). */
export function goVersions(versions: InternalVersion[] | undefined): GoSyntax {
  return new GoSyntax(slice(`${PKG}.CustomResourceDefinitionVersion`, versions, version));
}
