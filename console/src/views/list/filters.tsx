/**
 * The list's filters (issue #22 § Lists are live): a label selector and a field selector sent to
 * the server as they are, and "wide" (columns of every priority, as `-o wide`), all kept in the
 * console URL's query so that a filtered list can be shared and reloaded.
 */
import { navigate } from '../../router';

/** The element id the `l` shortcut focuses. */
export const LABEL_SELECTOR_ID = 'list-label-selector';

/** The console query of a list: selectors, page size and wide. */
export interface ListQuery {
  labelSelector: string;
  fieldSelector: string;
  /** Set only when the URL sets it (`?limit=2`). */
  limit?: string;
  wide: boolean;
}

/** The console path of the list at `apiPath` with `q` (issue #22 § Lists are live: filters in the URL). */
export function listUrl(apiPath: string, q: ListQuery): string {
  const s = new URLSearchParams();
  if (q.labelSelector) s.set('labelSelector', q.labelSelector);
  if (q.fieldSelector) s.set('fieldSelector', q.fieldSelector);
  if (q.limit) s.set('limit', q.limit);
  if (q.wide) s.set('output', 'wide');
  const qs = s.toString();
  return qs ? `${apiPath}?${qs}` : apiPath;
}

/** The query read from the console URL's search parameters (issue #22 § Lists are live). */
export function listQueryOf(p: URLSearchParams): ListQuery {
  return { labelSelector: p.get('labelSelector') ?? '', fieldSelector: p.get('fieldSelector') ?? '', limit: p.get('limit') ?? undefined, wide: p.get('output') === 'wide' };
}

/** The filter form (issue #22 § Lists are live); applying it goes to the list's URL with the new query. */
export function Filters({ apiPath, query }: { apiPath: string; query: ListQuery }) {
  const apply = (e: Event) => {
    e.preventDefault();
    const f = e.currentTarget as HTMLFormElement;
    const value = (name: string) => (f.elements.namedItem(name) as HTMLInputElement).value.trim();
    navigate(listUrl(apiPath, { ...query, labelSelector: value('labelSelector'), fieldSelector: value('fieldSelector'), wide: (f.elements.namedItem('wide') as HTMLInputElement).checked }));
  };
  return (
    <form class="list-filters" onSubmit={apply}>
      <label>
        Labels <input id={LABEL_SELECTOR_ID} name="labelSelector" defaultValue={query.labelSelector} placeholder="app=web,tier!=db" autocomplete="off" />
      </label>
      <label>
        Fields <input id="list-field-selector" name="fieldSelector" defaultValue={query.fieldSelector} placeholder="metadata.name=x" autocomplete="off" />
      </label>
      <label>
        <input type="checkbox" name="wide" defaultChecked={query.wide} /> wide
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}
