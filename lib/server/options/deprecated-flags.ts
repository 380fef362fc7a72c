/**
 * Deprecated flags (spec 001 § Deprecation rules, rule 5: a deprecated command-line element keeps
 * working for its window and warns when used). A flag of the table is deprecated when its
 * `deprecated` message is set, as pflag's `MarkDeprecated`: every occurrence on the command line
 * prints pflag's line to standard error, and `--help` still lists the flag (the spec asks for the
 * mark; upstream hides most deprecated flags, and shows some, such as `--admission-control`,
 * this same way) with pflag's ` (DEPRECATED: <message>)` after its default.
 */
import type { FlagSpec } from './flag-table.js';

/** pflag's line for one use of a deprecated flag: `Flag --<name> has been deprecated, <message>`; undefined when `spec` is not deprecated. */
export function deprecationWarning(spec: FlagSpec): string | undefined {
  return spec.deprecated === undefined ? undefined : `Flag --${spec.name} has been deprecated, ${spec.deprecated}`;
}

/** The `--help` suffix of a deprecated flag, ` (DEPRECATED: <message>)`; '' for any other flag. */
export function deprecationMark(spec: FlagSpec): string {
  return spec.deprecated === undefined ? '' : ` (DEPRECATED: ${spec.deprecated})`;
}
