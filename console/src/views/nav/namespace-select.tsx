/**
 * The namespace selector (issue #22 § URLs mirror the API): the namespaces the user may list,
 * and "all namespaces"; choosing one on a namespaced list goes to the same list there (the API
 * path names the namespace). A user who may not list namespaces types one instead.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client';
import { apiPath, navigate, parseApiPath } from '../../router';
import { ALL_NAMESPACES, rememberNamespace } from '../../util/namespace';

/** The element id the namespace shortcut focuses. */
export const NAMESPACE_SELECT_ID = 'nav-namespace';

/** Goes to the namespace `ns` (ALL_NAMESPACES for all): the current namespaced list or object's list there, else only remembered. */
function choose(ns: string, path: string, isNamespaced: (group: string, resource: string) => boolean, changed: () => void): void {
  rememberNamespace(ns);
  const t = parseApiPath(path);
  if (t && t.resource !== 'namespaces' && isNamespaced(t.group, t.resource)) {
    navigate(apiPath({ group: t.group, version: t.version, resource: t.resource, namespace: ns === ALL_NAMESPACES ? undefined : ns }));
  }
  changed();
}

/** The selector (issue #22 § URLs mirror the API); `namespace` is the selected one, from the URL. */
export function NamespaceSelect(props: { namespace: string; path: string; isNamespaced: (group: string, resource: string) => boolean; changed: () => void; token: string | null }) {
  const { namespace, path, isNamespaced, changed, token } = props;
  const [names, setNames] = useState<string[] | undefined>();
  const [forbidden, setForbidden] = useState(false);
  useEffect(() => {
    let live = true;
    api<{ items: { metadata: { name: string } }[] }>('/api/v1/namespaces').then(
      ({ body }) => live && (setNames(body.items.map((i) => i.metadata.name)), setForbidden(false)),
      () => live && setForbidden(true),
    );
    return () => {
      live = false;
    };
  }, [token]);
  if (forbidden) {
    return (
      <form class="nav-namespace" onSubmit={(e) => { e.preventDefault(); choose(((e.currentTarget as HTMLFormElement).elements.namedItem('ns') as HTMLInputElement).value.trim(), path, isNamespaced, changed); }}>
        <label for={NAMESPACE_SELECT_ID}>Namespace</label>
        <input id={NAMESPACE_SELECT_ID} name="ns" key={namespace} defaultValue={namespace} placeholder="all namespaces" />
      </form>
    );
  }
  const options = names && !names.includes(namespace) && namespace !== ALL_NAMESPACES ? [namespace, ...names] : names ?? [namespace].filter(Boolean);
  return (
    <div class="nav-namespace">
      <label for={NAMESPACE_SELECT_ID}>Namespace</label>
      <select id={NAMESPACE_SELECT_ID} value={namespace} onChange={(e) => choose((e.currentTarget as HTMLSelectElement).value, path, isNamespaced, changed)}>
        <option value={ALL_NAMESPACES}>All namespaces</option>
        {options.map((n) => (
          <option key={n} value={n}>{n}</option>
        ))}
      </select>
    </div>
  );
}
