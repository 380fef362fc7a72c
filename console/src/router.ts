/**
 * Client-side routing (issue #22 § URLs mirror the API): the console's URL is `/console` followed
 * by the API path it shows (`/console/api/v1/namespaces/default/configmaps`), so a link can be
 * shared and reloaded. Pages that are not API paths live beside them (`/console/health`).
 */
import { useEffect, useState } from 'preact/hooks';

/** The prefix every console URL starts with. */
export const BASE = '/console';

const CHANGED = 'console:navigate';

/** The console path of the current location (after `/console`, with the query), `/` at least. */
export function currentPath(): string {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return (p || '/') + location.search;
}

/** Goes to the console path `path` (e.g. `/api/v1/namespaces`), adding a history entry unless `replace`. */
export function navigate(path: string, replace = false): void {
  const url = BASE + path;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event(CHANGED));
}

/** A hook giving the current console path, re-rendering on navigation and on back/forward. */
export function useRoute(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGED, update);
    };
  }, []);
  return path;
}

/** What an API path names: a collection (no `name`) or one object. `group` is '' for the core group. */
export interface ApiTarget {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  /** The API path itself, e.g. `/api/v1/namespaces/default/configmaps/x`. */
  path: string;
}

/**
 * Parses an API path (`/api/v1/...` or `/apis/<group>/<version>/...`, query ignored) into its
 * target; undefined when it names no resource. `/api/v1/namespaces/NS` is the Namespace NS;
 * `/api/v1/namespaces/NS/R[/NAME]` is inside it.
 */
export function parseApiPath(full: string): ApiTarget | undefined {
  const path = full.split('?')[0]!.replace(/\/+$/, '');
  const parts = path.split('/').slice(1).map(decodeURIComponent);
  let group: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 2) {
    group = '';
    rest = parts.slice(1);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    group = parts[1]!;
    rest = parts.slice(2);
  } else return undefined;
  const version = rest[0]!;
  rest = rest.slice(1);
  if (rest.length === 0) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const [, namespace, resource, name] = rest;
    if (rest.length > 4) return undefined;
    return { group, version, resource: resource!, namespace, name, path };
  }
  if (rest.length > 2) return undefined;
  return { group, version, resource: rest[0]!, name: rest[1], path };
}

/** The API path of a target's collection or object. */
export function apiPath(t: Omit<ApiTarget, 'path'>): string {
  const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  const ns = t.namespace ? `/namespaces/${encodeURIComponent(t.namespace)}` : '';
  return `${base}${ns}/${t.resource}${t.name ? `/${encodeURIComponent(t.name)}` : ''}`;
}
