/**
 * Apply conflicts (spec 000 § Field ownership; spec 001 § Errors): the 409 Status upstream
 * answers, `Apply failed with 1 conflict: conflict with "mgr": .spec.replicas` (or the plural form
 * listing each manager's fields), with one `FieldManagerConflict` cause per field.
 */
import { type Status, StatusError } from '../errors.js';
import { goQuote } from '../go-quote.js';

/** One conflicting field: its owner (another manager's entry) and the path as upstream prints it. */
export interface ApplyConflict {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource: string;
  /** `.spec.containers[name="nginx"].image`. */
  path: string;
  /** The owner's entry identifier; conflicts are grouped and sorted by it, as upstream. */
  identifier: string;
}

/** The owner as upstream prints it: `"mgr"`, `"mgr" using apps/v1`, `"mgr" with subresource "status" using v1`. */
export function printManager(c: Pick<ApplyConflict, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let s = goQuote(c.manager);
  if (c.subresource) s += ` with subresource ${goQuote(c.subresource)}`;
  return c.operation === 'Update' ? `${s} using ${c.apiVersion}` : s;
}

/** Upstream's conflict message (managers sorted by identifier, each with its fields). */
export function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  if (conflicts.length === 1) return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!)}: ${conflicts[0]!.path}`;
  const byManager = new Map<string, ApplyConflict[]>();
  for (const c of conflicts) {
    const group = byManager.get(c.identifier);
    if (group) group.push(c);
    else byManager.set(c.identifier, [c]);
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort()) {
    const group = byManager.get(id)!;
    lines.push(`conflicts with ${printManager(group[0]!)}:`);
    for (const c of group) lines.push(`- ${c.path}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The 409 Conflict Status of upstream NewApplyConflict: the message and one cause per field. */
export function newApplyConflict(conflicts: readonly ApplyConflict[]): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: conflictMessage(conflicts),
    reason: 'Conflict',
    details: { causes: conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c)}`, field: c.path })) },
    code: 409,
  };
  return new StatusError(status);
}
