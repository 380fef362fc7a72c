/**
 * The console's API client (issue #22 § Served at /console/): every data request is an ordinary
 * API request with the user's own credentials, as kubectl makes it. Errors arrive as the
 * server's Status; `ApiError` carries its code, reason and message.
 */
import { getToken } from '../session';

/** A Status error answered by the server (or a network failure, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason: string = '',
    readonly details: Record<string, unknown> | undefined = undefined,
  ) {
    super(message);
  }
}

/** Options of one request. `query` values left undefined are omitted. */
export interface RequestOptions {
  method?: string;
  query?: Record<string, string | undefined>;
  /** A JSON value, or a string sent as it is (with `contentType`). */
  body?: unknown;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
}

/** A successful answer: the decoded JSON body and the server's `Warning` texts. */
export interface ApiResponse<T> {
  status: number;
  body: T;
  warnings: string[];
  headers: Headers;
}

/** `path` with `query` appended (undefined values left out). */
export function withQuery(path: string, query: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

function headersFor(opts: RequestOptions): Record<string, string> {
  const h: Record<string, string> = { Accept: opts.accept ?? 'application/json' };
  const token = getToken();
  if (token) h.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) h['Content-Type'] = opts.contentType ?? 'application/json';
  return h;
}

/** The texts of `Warning: 299 - "text"` headers (RFC 7234 warn-text, unquoted). */
export function warningsOf(headers: Headers): string[] {
  const raw = headers.get('Warning');
  if (!raw) return [];
  const out: string[] = [];
  const re = /\d{3} \S+ "((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) out.push(m[1]!.replace(/\\(.)/g, '$1'));
  return out;
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const s = JSON.parse(text) as { kind?: string; message?: string; reason?: string; details?: Record<string, unknown> };
    if (s.kind === 'Status') return new ApiError(res.status, s.message ?? res.statusText, s.reason ?? '', s.details);
  } catch {
    // not a Status: the text itself is the message
  }
  return new ApiError(res.status, text || res.statusText);
}

/** One API request; throws `ApiError` for any answer outside 2xx and for network failures. */
export async function api<T = unknown>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), {
      method: opts.method ?? 'GET',
      headers: headersFor(opts),
      body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
      signal: opts.signal,
      credentials: 'same-origin',
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, `network error: ${(e as Error).message}`);
  }
  if (!res.ok) throw await errorOf(res);
  const text = await res.text();
  const body = (text && (res.headers.get('Content-Type') ?? '').includes('json') ? JSON.parse(text) : text) as T;
  return { status: res.status, body, warnings: warningsOf(res.headers), headers: res.headers };
}

/** One watch event as the server writes it. */
export interface WatchEvent<T = Record<string, unknown>> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/**
 * Streams a watch (`watch=1` is added to `query`) and calls `onEvent` for each event until the
 * server ends it or `signal` aborts. Resolves when the stream ends; throws `ApiError` when the
 * watch is refused. An `ERROR` event (e.g. 410 Expired) is passed to `onEvent` like the others.
 */
export async function watch<T = Record<string, unknown>>(
  path: string,
  query: Record<string, string | undefined>,
  onEvent: (e: WatchEvent<T>) => void,
  signal: AbortSignal,
  accept?: string,
): Promise<void> {
  const res = await fetch(withQuery(path, { ...query, watch: '1' }), { headers: headersFor({ accept }), signal, credentials: 'same-origin' });
  if (!res.ok || !res.body) throw await errorOf(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      let nl = buf.indexOf('\n');
      while (nl >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) onEvent(JSON.parse(line) as WatchEvent<T>);
        nl = buf.indexOf('\n');
      }
    }
  } catch (e) {
    if ((e as Error).name !== 'AbortError') throw e;
  }
}
