/**
 * The spec 001 § Removed API versions row a migration-map entry belongs to, for tests that tag
 * their titles with `covers(...)` (test/conformance/covers.ts). Rows of the 1.25 and 1.22
 * releases are split by group or kind as the spec table splits them.
 */
import { vendorGroup } from '../../lib/apis/vendor.js';

const SECTION = '001 § Removed API versions (migration map) › ';

/** 1.25 removals, one spec row each, by kind (HorizontalPodAutoscaler: the v2beta1 row). */
const ROWS_125: Record<string, string> = {
  CronJob: '1.25 / batch/v1beta1 CronJob',
  EndpointSlice: `1.25 / ${vendorGroup('discovery')}/v1beta1 EndpointSlice`,
  Event: `1.25 / ${vendorGroup('events')}/v1beta1 Event`,
  HorizontalPodAutoscaler: '1.25 / autoscaling/v2beta1',
  PodDisruptionBudget: '1.25 / policy/v1beta1 PodDisruptionBudget',
  PodSecurityPolicy: '1.25 / policy/v1beta1 PodSecurityPolicy',
  RuntimeClass: `1.25 / ${vendorGroup('node')}/v1beta1 RuntimeClass`,
};

/**
 * The row id of the entry removing `kind` of `group` in release `removedIn` (`'1.25'`).
 * @throws Error for a 1.25 kind the spec table has no row for.
 */
export function migrationSpecRow(group: string, kind: string, removedIn: string): string {
  if (removedIn === '1.25') {
    const row = ROWS_125[kind];
    if (!row) throw new Error(`no spec row for the 1.25 removal of ${kind}`);
    return SECTION + row;
  }
  if (removedIn === '1.22') {
    if (group === vendorGroup('admissionregistration')) return `${SECTION}1.22 / ${group}/v1beta1`;
    if (group === vendorGroup('apiextensions')) return `${SECTION}1.22 / ${group}/v1beta1`;
    return `${SECTION}1.22 / apiregistration/v1beta1 APIService`;
  }
  return SECTION + removedIn;
}
