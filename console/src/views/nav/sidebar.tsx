/**
 * The sidebar of every group and kind (issue #22 § URLs mirror the API): built from discovery
 * alone — built-in, CRD or aggregated alike — grouped by API group (core first), one link per
 * resource to its list at the group's preferred version, in the selected namespace.
 */
import type { ResourceInfo } from '../../api/discovery';
import { apiPath, parseApiPath } from '../../router';
import { ALL_NAMESPACES } from '../../util/namespace';
import { Link } from '../../util/link';

/** The console path of `r`'s list in `namespace` (ALL_NAMESPACES: across namespaces; issue #22 § URLs mirror the API). */
export function listPathOf(r: ResourceInfo, namespace: string): string {
  const ns = r.namespaced && namespace !== ALL_NAMESPACES ? namespace : undefined;
  return apiPath({ group: r.group, version: r.version, resource: r.resource, namespace: ns });
}

/** True when `r` matches the search text `q` (resource, kind, short name or group; case-insensitive). */
function matches(r: ResourceInfo, q: string): boolean {
  if (!q) return true;
  const s = q.toLowerCase();
  return r.resource.includes(s) || r.kind.toLowerCase().includes(s) || r.shortNames.some((n) => n.includes(s)) || r.group.includes(s);
}

/** The resources shown: preferred versions only, matching `q`, grouped by group (core first, then by name; issue #22 § URLs mirror the API). */
export function sidebarGroups(all: ResourceInfo[], q: string): [string, ResourceInfo[]][] {
  const groups = new Map<string, ResourceInfo[]>();
  for (const r of all) {
    if (!r.preferred || !matches(r, q)) continue;
    const list = groups.get(r.group) ?? [];
    list.push(r);
    groups.set(r.group, list);
  }
  for (const list of groups.values()) list.sort((a, b) => a.resource.localeCompare(b.resource));
  return [...groups.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
}

/** The best match of a search (an exact short name, plural or kind first; then the first shown), for Enter (issue #22 § How to build it: search with `/`). */
export function bestMatch(all: ResourceInfo[], q: string): ResourceInfo | undefined {
  const s = q.trim().toLowerCase();
  if (!s) return undefined;
  const preferred = all.filter((r) => r.preferred && r.verbs.includes('list'));
  return (
    preferred.find((r) => r.shortNames.includes(s) || r.resource === s || r.kind.toLowerCase() === s) ??
    sidebarGroups(preferred, s).flatMap(([, list]) => list)[0]
  );
}

/** The sidebar (issue #22 § URLs mirror the API): listable resources are links; the others (reviews and the like) are named. */
export function Sidebar({ resources, namespace, path, query }: { resources: ResourceInfo[]; namespace: string; path: string; query: string }) {
  const current = parseApiPath(path);
  const groups = sidebarGroups(resources, query.trim());
  if (groups.length === 0) return <p class="nav-empty">No kind matches “{query}”.</p>;
  return (
    <div class="nav-groups">
      {groups.map(([group, list]) => (
        <section class="nav-group" key={group}>
          <h3>{group || 'core'}</h3>
          <ul>
            {list.map((r) => (
              <li key={r.resource} title={`${r.kind}${r.shortNames.length ? ` (${r.shortNames.join(', ')})` : ''}`}>
                {r.verbs.includes('list') ? (
                  <Link to={listPathOf(r, namespace)} class={current?.group === r.group && current.resource === r.resource ? 'active' : undefined}>
                    {r.resource}
                  </Link>
                ) : (
                  <span class="nav-unlisted">{r.resource}</span>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
