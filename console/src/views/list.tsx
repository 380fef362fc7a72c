/**
 * One collection, live (issue #22 § Lists are live, § URLs mirror the API): the page of
 * `/console/<API path of a collection>`. Columns are the server's Table columns (CRD printer
 * columns included), a watch keeps the rows current without a reload, selectors go to the
 * server, and large lists page with `limit`/`continue` ("More"). A 403 shows "Not allowed",
 * naming the verb and resource.
 */
import { useEffect, useState } from 'preact/hooks';
import { type ResourceInfo, discover, findResource } from '../api/discovery';
import { ErrorBox } from '../components/error-box';
import type { ApiTarget } from '../router';
import { Filters, listQueryOf } from './list/filters';
import { useLiveTable } from './list/live-table';
import { ListTable } from './list/table';

/** Rows asked for per page unless the URL sets `limit`. */
const PAGE_SIZE = 100;

/** The resource `t` names, from discovery (refreshed once when it is not there yet, e.g. a new CRD); undefined while unknown. */
function useResourceInfo(t: ApiTarget): { info?: ResourceInfo; known: boolean } {
  const [res, setRes] = useState<{ info?: ResourceInfo; known: boolean }>({ known: false });
  useEffect(() => {
    let live = true;
    (async () => {
      let info = findResource(await discover(), t.group, t.version, t.resource);
      if (!info) info = findResource(await discover(true), t.group, t.version, t.resource);
      if (live) setRes({ info, known: true });
    })().catch(() => live && setRes({ known: true }));
    return () => {
      live = false;
    };
  }, [t.path]);
  return res;
}

/** The list page (issue #22 § Lists are live); `target` is the collection, `query` the console URL's query. Lists once discovery has named the resource. */
export function ListView({ target, query }: { target: ApiTarget; query: URLSearchParams }) {
  const { info, known } = useResourceInfo(target);
  return known ? <LiveList target={target} query={query} info={info} /> : <p class="list-loading">Loading…</p>;
}

/** The list of a resource discovery described (`info`; undefined when discovery could not say). */
function LiveList({ target, query, info }: { target: ApiTarget; query: URLSearchParams; info?: ResourceInfo }) {
  const q = listQueryOf(query);
  const limit = Math.max(1, Number(q.limit) || PAGE_SIZE);
  const watchable = !info || info.verbs.includes('watch');
  const live = useLiveTable({ path: target.path, labelSelector: q.labelSelector || undefined, fieldSelector: q.fieldSelector || undefined, limit, watchable });
  const { state } = live;
  const acrossNamespaces = !target.namespace && (info ? info.namespaced : !!state?.rows.some((r) => r.object?.metadata?.namespace));
  return (
    <section class="list-view" data-live={String(live.live)}>
      <header class="list-header">
        <h1>
          {info?.kind ?? target.resource}
          <span class="list-scope">{info && !info.namespaced ? 'cluster' : target.namespace ? `in ${target.namespace}` : 'in all namespaces'}</span>
        </h1>
        <span class={live.live ? 'list-live on' : 'list-live'} title="Updated by a watch as objects change">{live.live ? '● live' : '○ not live'}</span>
      </header>
      <Filters apiPath={target.path} query={q} />
      {live.error !== undefined && <ErrorBox error={live.error} />}
      {live.watchError !== undefined && <ErrorBox error={live.watchError} />}
      {state && (
        <>
          {state.rows.length === 0 ? (
            <p class="list-empty">No {target.resource} found{target.namespace ? ` in ${target.namespace} namespace` : ''}.</p>
          ) : (
            <ListTable columns={state.columns} rows={state.rows} target={target} namespaceColumn={acrossNamespaces} wide={q.wide} />
          )}
          <footer class="list-footer">
            {state.rows.length > 0 && <span class="list-count">{state.rows.length} shown{state.remaining ? `, ${state.remaining} more` : ''}</span>}
            {state.continueToken && (
              <button type="button" class="list-more" disabled={live.loadingMore} onClick={live.more}>
                {live.loadingMore ? 'Loading…' : 'More'}
              </button>
            )}
          </footer>
        </>
      )}
      {!state && live.error === undefined && <p class="list-loading">Loading…</p>}
    </section>
  );
}
