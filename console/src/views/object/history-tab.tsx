/**
 * The History tab (issue #22 § History): the object's versions that the server still holds as a
 * time line (revision, time, the manager that wrote it), a diff between any two chosen versions,
 * and a plain statement of where history ends (creation, or compaction). The diff is the edit
 * tab's line diff of the YAML without managedFields.
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox } from '../../components/error-box';
import { comparableYaml, lineDiff } from '../edit/apply-yaml';
import { DiffView } from '../edit/diff-view';
import { changedBy } from './changed-by';
import { readHistory, type History, type Version } from './history';
import type { ObjectTabProps } from './tabs';

function endText(h: History): string {
  const first = h.versions[0]!.rv;
  switch (h.end) {
    case 'created':
      return `History starts at the object's creation (revision ${first}).`;
    case 'replaced':
      return `History starts at the object's creation (revision ${first}); before it, another object had this name.`;
    case 'compacted':
      return `Earlier versions were compacted: history starts at revision ${first}.`;
    default:
      return `Showing the latest ${h.versions.length} versions: history starts at revision ${first} here.`;
  }
}

const UNCERTAIN = 'one of these (managedFields times have second precision)';

/** The managers that wrote a version, `a or b?` when managedFields leave it open. */
function writers(v: Version): string {
  return v.managers.join(' or ') + (v.certain || v.managers.length === 0 ? '' : '?');
}

/** issue #22 § History: time line and diff. */
export function HistoryTab({ target, object }: ObjectTabProps) {
  const [history, setHistory] = useState<History>();
  const [error, setError] = useState<unknown>();
  const [picked, setPicked] = useState<{ from?: string; to?: string }>({});
  const uid = object.metadata?.uid as string;
  const rv = object.metadata?.resourceVersion as string;

  useEffect(() => {
    const ac = new AbortController();
    const last = history?.versions[history.versions.length - 1];
    if (last && last.object.metadata?.uid === uid && Number(last.rv) < Number(rv)) {
      // The object changed while shown: its new version joins the time line.
      const by = changedBy(object, last.object);
      setHistory({ ...history!, versions: [...history!.versions, { rv, object, ...by }] });
      return undefined;
    }
    if (last?.rv === rv) return undefined;
    readHistory(target, object, ac.signal).then(setHistory, (e: unknown) => ac.signal.aborted || setError(e));
    return () => ac.abort();
  }, [uid, rv]);

  if (error) return <ErrorBox error={error} />;
  if (!history) return <p class="muted">Reading earlier versions…</p>;
  const vs = history.versions;
  const to = picked.to ?? vs[vs.length - 1]!.rv;
  const from = picked.from ?? vs[Math.max(0, vs.length - 2)]!.rv;
  const a = vs.find((v) => v.rv === from);
  const b = vs.find((v) => v.rv === to);
  return (
    <div class="history-view">
      <p class="history-end">{endText(history)}</p>
      <table class="history-timeline">
        <thead>
          <tr><th>FROM</th><th>TO</th><th>REVISION</th><th>TIME</th><th>CHANGED BY</th></tr>
        </thead>
        <tbody>
          {[...vs].reverse().map((v, i) => (
            <tr key={v.rv} class="history-version" data-rv={v.rv}>
              <td><input type="radio" name="history-from" aria-label={`diff from ${v.rv}`} checked={v.rv === from} onChange={() => setPicked({ from: v.rv, to })} /></td>
              <td><input type="radio" name="history-to" aria-label={`diff to ${v.rv}`} checked={v.rv === to} onChange={() => setPicked({ from, to: v.rv })} /></td>
              <td>{v.rv}{i === 0 ? ' (current)' : ''}</td>
              <td>{v.time}</td>
              <td title={v.certain ? undefined : UNCERTAIN}>{writers(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {a && b && (
        <>
          <h2>Diff {a.rv} → {b.rv}</h2>
          <div class="history-diff">
            <DiffView diff={lineDiff(comparableYaml(a.object), comparableYaml(b.object))} />
          </div>
        </>
      )}
    </div>
  );
}
