/**
 * How a test names the spec table rows it covers (issue #16 item 8): its title ends with one
 * `[spec: <row id>]` tag per row, ids as `spec-tables.ts` makes them
 * (`001 § Errors › 409 Conflict`). `make conformance` (hack/conformance.ts) runs the tagged
 * tests and reports every row; a tag naming no row fails it.
 */

/**
 * The tag pattern in a test title; group 1 is the row id. A tag ends at the `]` that is followed by
 * the next tag or the end of the title, so ids may hold `]` (`… › claimMappings.extra[]`).
 */
export const SPEC_TAG = /\[spec: (.+?)\](?= \[spec: |$)/g;

/**
 * The title suffix naming the rows a test covers: `covers('001 § Errors › 409 Conflict')` →
 * ` [spec: 001 § Errors › 409 Conflict]`.
 * @throws Error when no id is given or an id contains `[spec: ` (it would start another tag).
 */
export function covers(...rowIds: string[]): string {
  if (rowIds.length === 0) throw new Error('covers() needs at least one spec row id');
  for (const id of rowIds) if (id.includes('[spec: ')) throw new Error(`spec row id ${JSON.stringify(id)} contains "[spec: "`);
  return rowIds.map((id) => ` [spec: ${id}]`).join('');
}

/** The row ids a test title names, in order. */
export function coveredRows(title: string): string[] {
  return [...title.matchAll(SPEC_TAG)].map((m) => m[1]!);
}
