/**
 * Who is logged in, and the Log out action (issue #22 § Login). Without a token the browser may
 * still present a client certificate: the server's SelfSubjectReview says who that is.
 */
import { navigate } from '../../router';
import { clearToken, getToken } from '../../session';
import { Link } from '../../util/link';
import { notLoggedIn, useWhoAmI } from '../../util/whoami';

/** The user box of the navigation (issue #22 § Login): the user's name, or "Not logged in" with a link to the login page. */
export function UserBox() {
  const who = useWhoAmI();
  const { user, error } = who;
  const token = getToken();
  const logOut = () => {
    clearToken();
    navigate('/login');
  };
  if (notLoggedIn(who)) {
    return (
      <div class="nav-user" data-state="anonymous">
        Not logged in. <Link to="/login">Log in</Link>
      </div>
    );
  }
  return (
    <div class="nav-user" data-state={user ? 'user' : error ? 'error' : 'loading'}>
      {user ? <span class="nav-username" title={(user.groups ?? []).join(', ')}>{user.username}</span> : error ? <span class="nav-user-error">{(error as Error).message}</span> : '…'}
      {token ? (
        <button type="button" class="nav-logout" onClick={logOut}>Log out</button>
      ) : (
        <Link to="/login" class="nav-login">Log in</Link>
      )}
    </div>
  );
}
