/**
 * Who is logged in (issue #22 § Login): the server's own answer, a SelfSubjectReview (POST
 * `/apis/authentication.<domain>/v1/selfsubjectreviews`), so a bearer token and a client
 * certificate the browser presents are shown alike. Asked once per token.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import { loadConfig, vendorGroup } from '../api/config';
import { getToken } from '../session';

/** The user the server sees (`status.userInfo` of a SelfSubjectReview). */
export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
}

const asked = new Map<string, Promise<UserInfo>>();

/** The SelfSubjectReview answer for the current credentials (cached per token; a failure is not cached). Throws `ApiError` (issue #22 § Login). */
export function whoAmI(): Promise<UserInfo> {
  const key = getToken() ?? '';
  let p = asked.get(key);
  if (!p) {
    p = (async () => {
      const config = await loadConfig();
      const group = vendorGroup(config, 'authentication');
      const { body } = await api<{ status?: { userInfo?: UserInfo } }>(`/apis/${group}/v1/selfsubjectreviews`, {
        method: 'POST',
        body: { apiVersion: `${group}/v1`, kind: 'SelfSubjectReview' },
      });
      return body.status?.userInfo ?? {};
    })();
    asked.set(key, p);
    p.catch(() => asked.delete(key));
  }
  return p;
}

/** A hook: the logged-in user or the error of asking, re-asked when the token changes (issue #22 § Login). */
export function useWhoAmI(): { user?: UserInfo; error?: unknown } {
  const token = getToken();
  const [state, setState] = useState<{ user?: UserInfo; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    setState({});
    whoAmI().then(
      (user) => live && setState({ user }),
      (error) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  return state;
}

/**
 * True when a `useWhoAmI` answer means no one is logged in (issue #22 § Login): a 401 (a wrong
 * or expired token), a 403 with no token (the anonymous user may not ask), or the anonymous user.
 */
export function notLoggedIn(s: { user?: UserInfo; error?: unknown }): boolean {
  if (s.user) return s.user.username === 'system:anonymous';
  return s.error instanceof ApiError && (s.error.status === 401 || (s.error.status === 403 && !getToken()));
}
