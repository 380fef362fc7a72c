/**
 * The home page (issue #22 § Served at /console/): the server's version (`/version`), who is
 * logged in, and where to go next: namespaces, Health and Access.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import { ErrorBox } from '../components/error-box';
import { Link } from '../util/link';
import { type UserInfo, notLoggedIn, useWhoAmI } from '../util/whoami';

function userText(user: UserInfo): string {
  return `${user.username ?? ''}${user.groups?.length ? ` (${user.groups.join(', ')})` : ''}`;
}

/** Why no one is shown as logged in: a 401 in the error box (with its link), the anonymous case in words. */
function LoginState({ who }: { who: { user?: UserInfo; error?: unknown } }) {
  if (who.error instanceof ApiError && who.error.status === 401) return <ErrorBox error={who.error} />;
  if (notLoggedIn(who)) {
    return (
      <p class="home-anonymous">
        No credentials were presented. <Link to="/login">Log in</Link> with a bearer token.
      </p>
    );
  }
  return who.error === undefined ? null : <ErrorBox error={who.error} />;
}

/** The home page (issue #22 § Served at /console/). */
export function HomeView(_props: Record<string, unknown>) {
  const [version, setVersion] = useState<{ gitVersion?: string; platform?: string } | undefined>();
  const [versionError, setVersionError] = useState<unknown>();
  const who = useWhoAmI();
  useEffect(() => {
    api<{ gitVersion?: string; platform?: string }>('/version').then(({ body }) => setVersion(body), setVersionError);
  }, []);
  const anonymous = notLoggedIn(who);
  return (
    <section class="home">
      <h1>Console</h1>
      <dl class="home-facts">
        <dt>Server version</dt>
        <dd class="home-version">{version ? `${version.gitVersion ?? ''} ${version.platform ?? ''}` : versionError ? '' : '…'}</dd>
        <dt>Logged in as</dt>
        <dd class="home-user">{anonymous ? 'not logged in' : who.user ? userText(who.user) : who.error ? '' : '…'}</dd>
      </dl>
      <LoginState who={who} />
      {who.error === undefined && versionError !== undefined && <ErrorBox error={versionError} />}
      <ul class="home-links">
        <li><Link to="/api/v1/namespaces">Namespaces</Link></li>
        <li><Link to="/health">Health</Link></li>
        <li><Link to="/access">Access</Link></li>
      </ul>
    </section>
  );
}
