/**
 * Warnings upstream v1.30 returns on writes of storage kinds (`GetWarningsForStorageClass`,
 * `GetWarningsForCSIStorageCapacity`): deprecated node labels used as topology keys. The labels
 * are spelled in each node label domain (ours and upstream's), as node agents write them.
 */
import { objs, obj, str, strMap, type Obj } from '../../core/v1/obj-access.js';
import { NODE_LABEL_DOMAINS } from '../../vendor.js';

/** Deprecated node label → the upstream message naming its replacement. */
const DEPRECATED_NODE_LABELS: ReadonlyMap<string, string> = new Map(
  NODE_LABEL_DOMAINS.flatMap((d) => [
    [`beta.${d}/arch`, `deprecated since v1.14; use "${d}/arch" instead`],
    [`beta.${d}/os`, `deprecated since v1.14; use "${d}/os" instead`],
    [`failure-domain.beta.${d}/region`, `deprecated since v1.17; use "topology.${d}/region" instead`],
    [`failure-domain.beta.${d}/zone`, `deprecated since v1.17; use "topology.${d}/zone" instead`],
    [`beta.${d}/instance-type`, `deprecated since v1.17; use "node.${d}/instance-type" instead`],
  ]),
);

/** A StorageClass write: deprecated labels as `allowedTopologies[i].matchLabelExpressions[j].key`. */
export function storageClassWarnings(sc: Obj): string[] {
  const warnings: string[] = [];
  objs(sc.allowedTopologies).forEach((term, i) =>
    objs(term.matchLabelExpressions).forEach((expr, j) => {
      const msg = DEPRECATED_NODE_LABELS.get(str(expr.key));
      if (msg) warnings.push(`allowedTopologies[${i}].matchLabelExpressions[${j}].key: ${msg}`);
    }),
  );
  return warnings;
}

/** A CSIStorageCapacity write: deprecated labels in `nodeTopology` expressions and labels. */
export function csiStorageCapacityWarnings(c: Obj): string[] {
  const selector = obj(c.nodeTopology);
  if (!selector) return [];
  const warnings: string[] = [];
  objs(selector.matchExpressions).forEach((expr, i) => {
    const key = str(expr.key);
    const msg = DEPRECATED_NODE_LABELS.get(key);
    if (msg) warnings.push(`nodeTopology.matchExpressions[${i}].key: ${key} is ${msg}`);
  });
  for (const label of Object.keys(strMap(selector.matchLabels)).sort()) {
    const msg = DEPRECATED_NODE_LABELS.get(label);
    if (msg) warnings.push(`nodeTopology.matchLabels.${label}: ${msg}`);
  }
  return warnings;
}
