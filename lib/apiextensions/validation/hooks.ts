/**
 * The checks of a CustomResourceDefinition that live outside its own validation (upstream v1.30
 * apiextensions validation calls them inline): the schema of a version and the syntax of a
 * printer column's JSONPath. The CRD validation (crd.ts) calls them at the upstream positions
 * with upstream field paths; the control plane supplies the implementation (default-hooks.ts).
 */
import type { FieldError, FieldPath } from '../../apimachinery/field-errors.js';
import type { JSONSchemaProps } from '../types.js';

/** What the schema checks need to know about where a schema sits. */
export interface SchemaContext {
  /**
   * The version (or, for a schema shared by every version, any version) has the status
   * subresource: upstream then allows only some fields at the root of the schema and requires
   * `type: object` there.
   */
  statusEnabled: boolean;
  /** The write is an update of an existing definition (upstream ratchets some checks on the old spec). */
  isUpdate: boolean;
  /** On update, the old definition's schema of the same version (upstream `GetSchemaForVersion`), when it had one. */
  oldProps?: JSONSchemaProps;
}

/** The external checks; each returns the errors found (never throws on bad input). */
export interface CRDValidationHooks {
  /**
   * Everything upstream `validateCustomResourceDefinitionValidation` checks of one
   * `openAPIV3Schema`: the root rules with the status subresource (`only "object" is allowed as
   * the type at the root…`), `nullable` at the root, the structural-schema rules, defaults,
   * `x-<vendor>-…` extensions, CEL rules and their cost, and `error building validator`.
   * `fldPath` is the path of the `openAPIV3Schema` itself: `spec.validation.openAPIV3Schema`
   * when every version has the same schema (upstream moves it to the top level of its internal
   * type, and its errors say so), else `spec.versions[i].schema.openAPIV3Schema`.
   */
  schema(props: JSONSchemaProps, fldPath: FieldPath, ctx: SchemaContext): FieldError[];
  /**
   * The syntax of a printer column's `jsonPath`, called once it passed upstream's simple-path
   * checks (non-empty, starting with `.`); `fldPath` is the column's `JSONPath` path.
   */
  jsonPath(path: string, fldPath: FieldPath): FieldError[];
}
