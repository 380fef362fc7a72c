/**
 * The order of discovery (spec 000 § Other paths; upstream v1.30's aggregator): group versions by
 * group priority (higher first; equal priorities by group name), versions of a group by version
 * priority (higher first) — the APIService priorities of lib/apis/apiregistration/v1/priorities.ts
 * —, group versions the table does not know after the known ones in installation order; and the
 * resources of a group version by name, as upstream's installer lists them.
 */
import { apiServicePriority } from '../../apis/apiregistration/v1/priorities.js';
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import { compareKubeAwareVersions } from '../../apimachinery/kube-version.js';

/** The API registration group: no APIService of its own, first in upstream's `/apis`. */
const API_REGISTRATION = { group: vendorGroup('apiregistration'), priority: { group: 20000, version: 15 } };

/** What is ordered: a group version (its group in either spelling) with its resources by name. */
interface Ordered {
  group: string;
  version: string;
  resources: Map<string, unknown>;
}

/**
 * The priority upstream's CRD registration gives every custom resource group version (group 1000,
 * version 100: after every built-in group, versions in kube-aware order).
 */
const CUSTOM_RESOURCE_PRIORITY = { group: 1000, version: 100 };

/**
 * `gvs` in discovery order (a new array; the upstream aliases are expected after every vendor
 * group and stay so when given so: call once per list). `custom(gv)` tells a custom resource
 * group version (ranked as upstream registers them); other unknown group versions follow in
 * installation order.
 */
export function discoveryOrder<T extends Ordered>(gvs: readonly T[], custom: (gv: T) => boolean = () => false): T[] {
  const rank = (gv: T) => {
    const group = canonicalGroup(gv.group);
    if (group === API_REGISTRATION.group) return API_REGISTRATION.priority;
    return apiServicePriority(group, gv.version) ?? (custom(gv) ? CUSTOM_RESOURCE_PRIORITY : undefined);
  };
  const indexed = gvs.map((gv, i) => ({ gv, i, p: rank(gv) }));
  indexed.sort((a, b) => {
    if (!a.p || !b.p) return a.p ? -1 : b.p ? 1 : a.i - b.i;
    if (a.p.group !== b.p.group) return b.p.group - a.p.group;
    const ga = canonicalGroup(a.gv.group);
    const gb = canonicalGroup(b.gv.group);
    if (ga !== gb) return ga < gb ? -1 : 1;
    return b.p.version - a.p.version || compareKubeAwareVersions(a.gv.version, b.gv.version);
  });
  return indexed.map((x) => x.gv);
}

/** Re-inserts the entries of `resources` by name (Map keeps insertion order). */
export function sortResources(resources: Map<string, unknown>): void {
  const sorted = [...resources.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  resources.clear();
  for (const [k, v] of sorted) resources.set(k, v);
}
