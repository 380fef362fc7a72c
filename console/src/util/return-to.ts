/**
 * Where a login returns to (issue #22 § Login): the last console page shown other than the login
 * page itself, so that logging in from a "not logged in" box goes back to that page.
 */
let last: string | undefined;

/** Records `path` (a console path with its query) as the page to return to, unless it is the login page (issue #22 § Login). */
export function notePage(path: string): void {
  if (!/^\/login(?:[/?]|$)/.test(path)) last = path;
}

/** The page to go to after logging in: the last page noted, else home (issue #22 § Login). */
export function returnTo(): string {
  return last ?? '/';
}
