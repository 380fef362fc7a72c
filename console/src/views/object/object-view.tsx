/**
 * The page of one object (issue #22 § One object): its `namespace/name` and kind, kept current
 * by a watch, and its tabs (tabs.ts), the one shown named by `?tab=` (YAML by default).
 */
import { useEffect, useState } from 'preact/hooks';
import { discover, findResource, type ResourceInfo } from '../../api/discovery';
import { ErrorBox } from '../../components/error-box';
import { BASE, type ApiTarget } from '../../router';
import { objectTabs } from './tabs';
import { useObject } from './use-object';

/** issue #22 § One object: the object at `target`, with its tabs. */
export function ObjectView({ target, query }: { target: ApiTarget; query: URLSearchParams }) {
  const { object, deleted, error, reload } = useObject(target);
  const [resource, setResource] = useState<ResourceInfo>();
  const [discoveryError, setDiscoveryError] = useState<unknown>();
  const [tabId, setTabId] = useState(query.get('tab') ?? objectTabs[0]?.id ?? '');

  useEffect(() => {
    discover()
      .then((all) => {
        const r = findResource(all, target.group, target.version, target.resource);
        if (r) setResource(r);
        else setDiscoveryError(new Error(`the server does not serve ${target.resource} in ${target.group || 'the core group'}/${target.version}`));
      })
      .catch(setDiscoveryError);
  }, [target.path]);

  // The tab is kept in the URL (shareable, back/forward) without re-reading the object.
  const select = (id: string) => (e: Event) => {
    e.preventDefault();
    history.pushState(null, '', `${BASE}${target.path}?tab=${encodeURIComponent(id)}`);
    setTabId(id);
  };

  const title = target.namespace ? `${target.namespace}/${target.name}` : target.name;
  const tab = objectTabs.find((t) => t.id === tabId) ?? objectTabs[0];
  const failure = error ?? discoveryError;
  return (
    <section class="object-page">
      <h1 class="object-title">
        <span class="object-kind">{object?.kind ?? resource?.kind ?? target.resource}</span> {title}
      </h1>
      {deleted && <div class="object-deleted" role="status">This object was deleted; showing its last state.</div>}
      {failure !== undefined && <ErrorBox error={failure} />}
      {failure === undefined && !(object && resource) && <p class="muted">Loading…</p>}
      {object && resource && tab && (
        <>
          <nav class="object-tabs" role="tablist">
            {objectTabs.map((t) => (
              <a key={t.id} role="tab" aria-selected={t.id === tab.id} class={t.id === tab.id ? 'tab selected' : 'tab'} data-tab={t.id}
                href={`${BASE}${target.path}?tab=${encodeURIComponent(t.id)}`} onClick={select(t.id)}>
                {t.title}
              </a>
            ))}
          </nav>
          <div class="object-tab" data-tab={tab.id}>
            <tab.view target={target} resource={resource} object={object} reload={reload} />
          </div>
        </>
      )}
    </section>
  );
}
