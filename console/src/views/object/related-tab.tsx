/**
 * The Related tab (issue #22 § One object, its owners and dependents): the owners named by the
 * object's ownerReferences and the objects that name it as their owner, each a console link.
 */
import { useEffect, useState } from 'preact/hooks';
import { loadConfig } from '../../api/config';
import { discover } from '../../api/discovery';
import { ErrorBox } from '../../components/error-box';
import { Link } from '../../util/link';
import { findDependents, LIST_CAP, ownersOf, type Dependents, type Related } from './related';
import type { ObjectTabProps } from './tabs';

function RelatedList({ items, empty, kind }: { items: Related[]; empty: string; kind: string }) {
  if (items.length === 0) return <p class={`muted ${kind}-none`}>{empty}</p>;
  return (
    <ul class={`related ${kind}`}>
      {items.map((r) => {
        const label = `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
        return (
          <li key={label}>
            {r.path ? (
              <Link to={`${r.path}?tab=related`}>{label}</Link>
            ) : (
              <span title="not served by this server">{label}</span>
            )}
            {r.controller && <span class="muted"> (controller)</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** issue #22 § One object: owners and dependents. */
export function RelatedTab({ object }: ObjectTabProps) {
  const [owners, setOwners] = useState<Related[]>();
  const [found, setFound] = useState<Dependents>();
  const [error, setError] = useState<unknown>();
  const uid = object.metadata?.uid as string;
  const refs = JSON.stringify(object.metadata?.ownerReferences ?? []);

  useEffect(() => {
    const ac = new AbortController();
    (async () => {
      const [all, config] = await Promise.all([discover(), loadConfig()]);
      setOwners(ownersOf(object, all));
      setFound(await findDependents(object, all, config, ac.signal));
    })().catch((e: unknown) => ac.signal.aborted || setError(e));
    return () => ac.abort();
  }, [uid, refs]);

  if (error) return <ErrorBox error={error} />;
  return (
    <div class="related-view">
      <h2>Owners</h2>
      {owners ? <RelatedList items={owners} empty="No owners." kind="owners" /> : <p class="muted">Loading…</p>}
      <h2>Dependents</h2>
      {found ? <RelatedList items={found.dependents} empty="No dependents." kind="dependents" /> : <p class="muted">Searching…</p>}
      {found && found.skipped.length > 0 && <p class="muted">Not searched (not allowed or failed): {found.skipped.join(', ')}</p>}
      {found && found.capped.length > 0 && <p class="muted">Only the first {LIST_CAP} of: {found.capped.join(', ')}</p>}
    </div>
  );
}
