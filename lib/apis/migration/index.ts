/**
 * The migration map (spec 001 § Removed API versions): every kind of a removed version with its
 * replacement kind and the rewrite its objects need, one file per group of rows. Used by the
 * `convert` command (lib/apis/migration/convert.ts, lib/cmd/convert.ts) and by the tests that
 * check each removed version answers 404.
 */
import { admissionregistrationRows } from './admissionregistration.js';
import { apiextensionsRows } from './apiextensions.js';
import { appsRows } from './apps.js';
import { authorizationRows } from './authorization.js';
import { autoscalingRows } from './autoscaling.js';
import { certificatesRows } from './certificates.js';
import { discoveryRows } from './discovery.js';
import { flowcontrolRows } from './flowcontrol.js';
import { networkingRows } from './networking.js';
import { policyRows } from './policy.js';
import { sameShapeRows } from './same-shape.js';
import { type MigrationRow, gvkKey } from './types.js';

export { type GVK, type MigrationRow, MigrationError, apiVersionOf, gvkKey } from './types.js';

/** Every row of the map. */
export const MIGRATIONS: readonly MigrationRow[] = [
  ...flowcontrolRows,
  ...sameShapeRows,
  ...autoscalingRows,
  ...discoveryRows,
  ...policyRows,
  ...admissionregistrationRows,
  ...apiextensionsRows,
  ...authorizationRows,
  ...certificatesRows,
  ...networkingRows,
  ...appsRows,
];

const byFrom: ReadonlyMap<string, MigrationRow> = new Map(MIGRATIONS.map((r) => [gvkKey(r.from.group, r.from.version, r.from.kind), r]));

/** The row of a removed kind (`group` in the vendor spelling), or undefined when the kind is not in the map. */
export function migrationFor(group: string, version: string, kind: string): MigrationRow | undefined {
  return byFrom.get(gvkKey(group, version, kind));
}
