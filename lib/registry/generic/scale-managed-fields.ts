/**
 * Field ownership across the `scale` subresource (spec 000 § Field ownership; upstream
 * ScaleHandler of `k8s.io/apimachinery/pkg/util/managedfields`): the parent's entries are shown
 * to a scale write as Scale entries owning `spec.replicas`, and the entries that write leaves are
 * turned back into parent entries owning the parent's replicas field. A manager that sets the
 * replicas through `scale` takes them over from every other manager of the parent.
 */
import { decodeManagedFields, encodeManagedFields, FieldSet, type Managed, type ManagedFieldsEntry } from '../../apimachinery/managedfields/index.js';
import { fieldElement, type Path } from '../../apimachinery/managedfields/path.js';

/** The apiVersion of the Scale entries. */
export const SCALE_API_VERSION = 'autoscaling/v1';
/** `spec.replicas` of a Scale. */
const SCALE_REPLICAS: Path = [fieldElement('spec'), fieldElement('replicas')];

/** A dot path (`spec.replicas`) as a field-set path. */
export function fieldPathOf(dotted: readonly string[]): Path {
  return dotted.map(fieldElement);
}

/** Decoded entries, or none when they cannot be decoded (the write then starts afresh). */
function decoded(entries: unknown): Managed {
  try {
    return decodeManagedFields(entries);
  } catch {
    return new Map();
  }
}

/**
 * The Scale view of the parent's `managedFields` (upstream ToSubresource): each entry of the
 * parent's `apiVersion` that owns `replicas` becomes an entry of the same manager, operation and
 * subresource owning the Scale's `spec.replicas` under autoscaling/v1; every other entry is left
 * out. Undefined when none remains.
 */
export function scaleManagedFields(parentEntries: unknown, apiVersion: string, replicas: Path): ManagedFieldsEntry[] | undefined {
  const out: Managed = new Map();
  for (const [id, m] of decoded(parentEntries)) {
    if (m.apiVersion !== apiVersion || !m.set.has(replicas)) continue;
    out.set(id, { ...m, apiVersion: SCALE_API_VERSION, set: FieldSet.of(SCALE_REPLICAS) });
  }
  return encodeManagedFields(out);
}

/**
 * The parent's `managedFields` after a scale write left `scaleEntries` (upstream ToParent):
 * entries of another apiVersion than the parent's are dropped; those not owning `replicas` stay;
 * one owning `replicas` stays whole when the scale write kept the same manager identifier, else
 * loses `replicas` (and goes when nothing is left); each Scale entry owning `spec.replicas`
 * becomes a parent entry of `apiVersion` owning `replicas`, keeping its manager, operation and
 * subresource and taking the time of a parent entry with its identifier (none for an updater:
 * its identifier names autoscaling/v1), as upstream does.
 */
export function parentManagedFields(parentEntries: unknown, scaleEntries: unknown, apiVersion: string, replicas: Path): ManagedFieldsEntry[] | undefined {
  const parent = decoded(parentEntries);
  const scale = decoded(scaleEntries);
  const out: Managed = new Map();
  const replicasOnly = FieldSet.of(replicas);
  for (const [id, m] of parent) {
    if (m.apiVersion !== apiVersion) continue;
    if (!m.set.has(replicas)) {
      out.set(id, m);
      continue;
    }
    if (scale.has(id)) {
      out.set(id, m);
      scale.delete(id);
      continue;
    }
    const rest = m.set.difference(replicasOnly);
    if (!rest.isEmpty()) out.set(id, { ...m, set: rest });
  }
  for (const [id, m] of scale) {
    if (!m.set.has(SCALE_REPLICAS)) continue;
    const time = parent.get(id)?.time;
    const entry = { manager: m.manager, operation: m.operation, apiVersion, subresource: m.subresource, set: replicasOnly };
    out.set(id, time === undefined ? entry : { ...entry, time });
  }
  return encodeManagedFields(out);
}
