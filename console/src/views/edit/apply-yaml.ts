/**
 * The text side of editing safely (issue #22 § Edit safely): the YAML offered for editing (the
 * object as an apply configuration: without the fields the server sets), the YAML compared in a
 * preview, the line diff between two versions, and the managers a 409 apply conflict names.
 * No DOM; unit-tested.
 */
import { diffLines } from 'diff';
import { stringify } from 'yaml';

type Obj = Record<string, any>;

/** The metadata fields the server sets, left out of an apply configuration. */
const SERVER_METADATA = ['managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

/**
 * The object as YAML to edit and apply (issue #22 § Edit safely): apiVersion, kind, name,
 * namespace, labels, annotations and the rest, without `status` and the metadata the server
 * sets — applying those would claim them for the console's field manager.
 */
export function editableYaml(obj: Obj): string {
  const { apiVersion, kind, metadata: _metadata, status: _status, ...rest } = obj;
  const metadata: Obj = { ...(obj.metadata ?? {}) };
  for (const k of SERVER_METADATA) delete metadata[k];
  return stringify({ apiVersion, kind, metadata, ...rest }, { lineWidth: 0 });
}

/** The object as YAML for a before/after comparison: everything but `metadata.managedFields`. issue #22 § Edit safely. */
export function comparableYaml(obj: Obj): string {
  const metadata: Obj = { ...(obj.metadata ?? {}) };
  delete metadata.managedFields;
  return stringify({ ...obj, metadata }, { lineWidth: 0 });
}

/** One line of a diff: added (`+`), removed (`-`) or unchanged (` `). */
export interface DiffLine {
  op: '+' | '-' | ' ';
  text: string;
}

/** The line diff from `before` to `after` (jsdiff's `diffLines`). issue #22 § Edit safely. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(before, after)) {
    const op = part.added ? '+' : part.removed ? '-' : ' ';
    const lines = part.value.replace(/\n$/, '').split('\n');
    for (const text of lines) out.push({ op, text });
  }
  return out;
}

/** Whether a diff changes anything (issue #22 § Edit safely). */
export function changes(diff: DiffLine[]): boolean {
  return diff.some((l) => l.op !== ' ');
}

/** One field an apply conflicted on, and the manager that owns it. */
export interface Conflict {
  manager: string;
  field: string;
}

/**
 * The conflicts of a 409 apply answer (issue #22 § Edit safely): its Status `details.causes` of
 * reason `FieldManagerConflict`, whose message is `conflict with "<manager>"[ using <version>]`
 * and whose `field` is the path. Empty for any other answer.
 */
export function conflictsOf(details: Obj | undefined): Conflict[] {
  const out: Conflict[] = [];
  for (const c of (details?.causes ?? []) as Obj[]) {
    if (c.reason !== 'FieldManagerConflict') continue;
    const m = /conflict with "((?:[^"\\]|\\.)*)"/.exec(String(c.message ?? ''));
    out.push({ manager: m ? m[1]!.replace(/\\(.)/g, '$1') : String(c.message ?? ''), field: String(c.field ?? '') });
  }
  return out;
}
