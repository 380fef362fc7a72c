/**
 * The login page (issue #22 § Login): a bearer-token field. The token is checked with a
 * SelfSubjectReview, kept in sessionStorage, and the console goes back to the page the user was
 * on (or home). A wrong token is refused here as "not logged in". The `#token=` shortcut is taken
 * at start (session.ts); a client certificate needs no login at all.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { ErrorBox } from '../components/error-box';
import { navigate } from '../router';
import { clearToken, setToken } from '../session';
import { returnTo } from '../util/return-to';
import { whoAmI } from '../util/whoami';

/** The login form (issue #22 § Login). */
export function LoginView(_props: Record<string, unknown>) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const token = ((e.currentTarget as HTMLFormElement).elements.namedItem('token') as HTMLInputElement).value.trim();
    if (!token) return;
    setBusy(true);
    setError(undefined);
    setToken(token);
    try {
      await whoAmI();
      navigate(returnTo());
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) clearToken();
      setError(err);
      setBusy(false);
    }
  };
  return (
    <section class="login">
      <h1>Log in</h1>
      <form class="login-form" onSubmit={submit}>
        <label for="login-token">Bearer token</label>
        <input id="login-token" name="token" type="password" autocomplete="off" spellcheck={false} required />
        <button type="submit" disabled={busy}>Log in</button>
      </form>
      {error !== undefined && <ErrorBox error={error} />}
      <p class="login-hint">
        The token stays in this tab (sessionStorage) and is sent only to this server. A link ending in <code>#token=…</code> logs in too. With a client
        certificate in the browser, no token is needed.
      </p>
    </section>
  );
}
