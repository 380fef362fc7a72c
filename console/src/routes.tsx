/**
 * Which page shows which console path (issue #22 § URLs mirror the API). The first route whose
 * `match` returns props wins; API paths name a list (a collection) or one object.
 */
import type { ComponentType } from 'preact';
import { parseApiPath } from './router';
import { AccessView } from './views/access';
import { HealthView } from './views/health';
import { HomeView } from './views/home';
import { ListView } from './views/list';
import { LoginView } from './views/login';
import { ObjectView } from './views/object/object-view';

/** One route: `match` gives the page's props for a console path, or undefined. */
interface Route {
  match(path: string): Record<string, unknown> | undefined;
  view: ComponentType<any>;
}

const page = (prefix: string) => (p: string) => (p === prefix || p.startsWith(`${prefix}?`) || p.startsWith(`${prefix}/`) ? {} : undefined);

const routes: Route[] = [
  { match: page('/login'), view: LoginView },
  { match: page('/health'), view: HealthView },
  { match: page('/access'), view: AccessView },
  {
    match: (p) => {
      const target = parseApiPath(p);
      return target && !target.name ? { target, query: new URLSearchParams(p.split('?')[1] ?? '') } : undefined;
    },
    view: ListView,
  },
  {
    match: (p) => {
      const target = parseApiPath(p);
      return target?.name ? { target, query: new URLSearchParams(p.split('?')[1] ?? '') } : undefined;
    },
    view: ObjectView,
  },
];

/** The page for `path`: the matching route's view and props, else the home page. */
export function pageFor(path: string): { view: ComponentType<any>; props: Record<string, unknown> } {
  for (const r of routes) {
    const props = r.match(path);
    if (props) return { view: r.view, props };
  }
  return { view: HomeView, props: {} };
}
