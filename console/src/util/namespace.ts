/**
 * The selected namespace (issue #22 § URLs mirror the API): the URL is the source of truth — a
 * namespaced list or object names its namespace in the API path, and a list of a namespaced
 * resource without one is "all namespaces". On other pages the last choice is kept for the tab.
 */
import { parseApiPath } from '../router';

const KEY = 'console.namespace';

/** All namespaces: the selector's value when a namespaced list names none. */
export const ALL_NAMESPACES = '';

/** The namespace kept for pages whose URL names none (`default` at first; issue #22 § URLs mirror the API). */
export function rememberedNamespace(): string {
  return sessionStorage.getItem(KEY) ?? 'default';
}

/** Keeps `ns` (or ALL_NAMESPACES) for pages whose URL names none (issue #22 § URLs mirror the API). */
export function rememberNamespace(ns: string): void {
  sessionStorage.setItem(KEY, ns);
}

/**
 * The namespace the console path `path` selects (issue #22 § URLs mirror the API): its namespace
 * segment; ALL_NAMESPACES for a list of a namespaced resource (`isNamespaced`) across namespaces;
 * otherwise the remembered one.
 */
export function namespaceOf(path: string, isNamespaced: (group: string, resource: string) => boolean): string {
  const t = parseApiPath(path);
  if (t?.namespace !== undefined) return t.namespace;
  if (t && !t.name && t.resource !== 'namespaces' && isNamespaced(t.group, t.resource)) return ALL_NAMESPACES;
  return rememberedNamespace();
}
