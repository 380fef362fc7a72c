/** An in-console link (issue #22 § URLs mirror the API): a real `/console/...` href, followed without a reload. */
import type { ComponentChildren } from 'preact';
import { BASE, navigate } from '../router';

/** A link to the console path `to` (e.g. `/api/v1/namespaces`); a plain click navigates in place, a modified click opens as the browser does (issue #22 § URLs mirror the API). */
export function Link({ to, children, class: cls, title }: { to: string; children: ComponentChildren; class?: string; title?: string }) {
  return (
    <a
      href={BASE + to}
      class={cls}
      title={title}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
