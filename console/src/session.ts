/**
 * The console's credentials (issue #22 § Login): a bearer token kept in `sessionStorage` (never a
 * cookie, so no other site can make the browser send it), taken from the login form or from the
 * URL fragment `#token=<token>` (a fragment never reaches the server or its logs). Without a
 * token, requests go out bare: a client certificate the browser presents still authenticates them.
 */
const KEY = 'console.token';

/** Moves a `#token=` fragment into the session and removes it from the address bar. */
export function takeFragmentToken(): void {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!m) return;
  setToken(decodeURIComponent(m[1]!));
  history.replaceState(history.state, '', location.pathname + location.search);
}

/** The session's bearer token, or null. */
export function getToken(): string | null {
  return sessionStorage.getItem(KEY);
}

/** Stores `token` for this tab's session. */
export function setToken(token: string): void {
  sessionStorage.setItem(KEY, token.trim());
}

/** Forgets the token (log out). */
export function clearToken(): void {
  sessionStorage.removeItem(KEY);
}
