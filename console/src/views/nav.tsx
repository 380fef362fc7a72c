/**
 * The navigation (issue #22 § Login, § URLs mirror the API): who is logged in and Log out; the
 * namespace selector; a search over kinds; every group and kind discovery reports, read once per
 * page load; and keyboard shortcuts (`/` search, `n` namespace, `l` label filter, `?` help).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type ResourceInfo, discover } from '../api/discovery';
import { ErrorBox } from '../components/error-box';
import { navigate } from '../router';
import { getToken } from '../session';
import { Link } from '../util/link';
import { namespaceOf } from '../util/namespace';
import { notePage } from '../util/return-to';
import { type Shortcut, focusById, useShortcuts } from '../util/shortcuts';
import { ShortcutHelp } from './nav/help';
import { NAMESPACE_SELECT_ID, NamespaceSelect } from './nav/namespace-select';
import { Sidebar, bestMatch, listPathOf } from './nav/sidebar';
import { UserBox } from './nav/user-box';
import { LABEL_SELECTOR_ID } from './list/filters';

const SEARCH_ID = 'nav-search';

/** The navigation beside every page (issue #22 § URLs mirror the API); `path` is the current console path. */
export function Nav({ path }: { path: string }) {
  const token = getToken();
  const [resources, setResources] = useState<ResourceInfo[]>([]);
  const [error, setError] = useState<unknown>();
  const [query, setQuery] = useState('');
  const [help, setHelp] = useState(false);
  const [, setChanged] = useState(0);
  useEffect(() => notePage(path), [path]);
  useEffect(() => {
    let live = true;
    discover().then(
      (r) => live && (setResources(r), setError(undefined)),
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [token]);
  const isNamespaced = (group: string, resource: string) => resources.some((r) => r.group === group && r.resource === resource && r.namespaced);
  const namespace = namespaceOf(path, isNamespaced);
  const shortcuts = useMemo<Shortcut[]>(
    () => [
      { key: '/', help: 'Search kinds (Enter opens the best match)', run: () => focusById(SEARCH_ID) },
      { key: 'n', help: 'Choose the namespace', run: () => focusById(NAMESPACE_SELECT_ID) },
      { key: 'l', help: 'Filter the list by label selector', run: () => focusById(LABEL_SELECTOR_ID) },
      { key: 'h', help: 'Home', run: () => navigate('/') },
      { key: '?', help: 'Show or hide this help', run: () => setHelp((h) => !h) },
    ],
    [],
  );
  useShortcuts(shortcuts);
  const open = (e: Event) => {
    e.preventDefault();
    const r = bestMatch(resources, query);
    if (r) {
      setQuery('');
      (document.getElementById(SEARCH_ID) as HTMLInputElement | null)?.blur();
      navigate(listPathOf(r, namespace));
    }
  };
  return (
    <nav class="nav">
      <div class="nav-brand">
        <Link to="/">Console</Link>
        <button type="button" class="nav-help-button" title="Keyboard shortcuts (?)" onClick={() => setHelp((h) => !h)}>?</button>
      </div>
      <UserBox />
      {help && <ShortcutHelp shortcuts={shortcuts} close={() => setHelp(false)} />}
      <NamespaceSelect namespace={namespace} path={path} isNamespaced={isNamespaced} changed={() => setChanged((n) => n + 1)} token={token} />
      <form class="nav-search" onSubmit={open}>
        <input id={SEARCH_ID} type="search" placeholder="Search kinds  ( / )" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} autocomplete="off" />
      </form>
      {error ? <ErrorBox error={error} /> : <Sidebar resources={resources} namespace={namespace} path={path} query={query} />}
    </nav>
  );
}
