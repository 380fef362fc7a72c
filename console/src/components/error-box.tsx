/**
 * An error shown to the user (issue #22 § Served at /console/): a 403 reads "not allowed" with
 * the server's message, which names the verb and resource; a 401 asks for a login.
 */
import { ApiError } from '../api/client';
import { navigate } from '../router';

/** Renders `error` as text (never as HTML). */
export function ErrorBox({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <div class="error forbidden" role="alert">
        <strong>Not allowed.</strong> {error.message}
      </div>
    );
  }
  if (error instanceof ApiError && error.status === 401) {
    return (
      <div class="error unauthorized" role="alert">
        <strong>Not logged in.</strong> {error.message}{' '}
        <a href="/console/login" onClick={(e) => { e.preventDefault(); navigate('/login'); }}>Log in</a>
      </div>
    );
  }
  const text = error instanceof Error ? error.message : String(error);
  return (
    <div class="error" role="alert">
      {error instanceof ApiError && error.status ? `${error.status} ${error.reason}: ` : ''}
      {text}
    </div>
  );
}
