/**
 * A list kept live (issue #22 § Lists are live): the first page as a Table (`limit`), then a watch
 * from that page's resourceVersion asking for Table rows too, so each event carries the row's
 * cells as kubectl prints them. A watch that ends is resumed from the last version seen; a 410
 * Expired (the version was compacted) or a failed watch re-lists and watches again; a watch
 * refused with 403 is shown and the list stays as read. "More" appends the next page (`continue`).
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type WatchEvent, api, watch } from '../../api/client';
import { loadConfig, tableAccept } from '../../api/config';
import { type ListState, type Table, appendPage, applyEvent, fromTable } from './rows';

/** What the list asks the server for: its API path, selectors and page size. */
export interface ListRequest {
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit: number;
  /** False when discovery says the resource cannot be watched: the list is read once. */
  watchable: boolean;
}

/** The live list: its state, the error of its list (e.g. 403), the watch's, and "More". */
export interface LiveTable {
  state?: ListState;
  error?: unknown;
  watchError?: unknown;
  /** True while a watch is open. */
  live: boolean;
  loadingMore: boolean;
  more(): void;
}

const RETRY_MS = 1000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Lists, then watches, `req` until the caller unmounts or `req` changes (issue #22 § Lists are live). */
export function useLiveTable(req: ListRequest): LiveTable {
  const [state, setState] = useState<ListState>();
  const [error, setError] = useState<unknown>();
  const [watchError, setWatchError] = useState<unknown>();
  const [live, setLive] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const stateRef = useRef<ListState>();
  stateRef.current = state;
  const { path, labelSelector, fieldSelector, limit, watchable } = req;
  const selectors = { labelSelector, fieldSelector };

  useEffect(() => {
    const ctl = new AbortController();
    const signal = ctl.signal;
    setState(undefined);
    setError(undefined);
    setWatchError(undefined);
    void (async () => {
      const accept = tableAccept(await loadConfig());
      while (!signal.aborted) {
        let rv: string;
        try {
          const { body } = await api<Table>(path, { accept, signal, query: { ...selectors, limit: String(limit) } });
          setState(fromTable(body));
          setError(undefined);
          rv = body.metadata?.resourceVersion ?? '';
        } catch (e) {
          if (!signal.aborted) setError(e);
          return;
        }
        if (!watchable) return;
        // Expired: list again at once, as a reflector does; failed: after a pause; forbidden: the list stays as read.
        const ended = await watchFrom(rv);
        if (ended === 'forbidden') return;
        if (ended === 'failed') await sleep(RETRY_MS, signal);
      }

      /** Watches from `rv`, resuming from the last version seen after a normal end; returns when the list must be read again. */
      async function watchFrom(rv: string): Promise<'expired' | 'failed' | 'forbidden'> {
        for (;;) {
          let ended: 'expired' | 'failed' | undefined;
          const started = Date.now();
          const onEvent = (ev: WatchEvent<Table & { code?: number; message?: string }>) => {
            if (ev.type === 'ERROR') {
              ended = ev.object.code === 410 ? 'expired' : 'failed';
              if (ended === 'failed') setWatchError(new ApiError(ev.object.code ?? 0, ev.object.message ?? 'watch error'));
              return;
            }
            rv = ev.object.metadata?.resourceVersion || rv;
            setWatchError(undefined);
            if (ev.type !== 'BOOKMARK') setState((s) => s && applyEvent(s, ev.type as 'ADDED' | 'MODIFIED' | 'DELETED', ev.object));
          };
          try {
            setLive(true);
            await watch(path, { ...selectors, resourceVersion: rv, allowWatchBookmarks: 'true' }, onEvent, signal, accept);
          } catch (e) {
            ended = e instanceof ApiError && e.status === 410 ? 'expired' : 'failed';
            if (!signal.aborted && ended === 'failed') setWatchError(e);
            if (e instanceof ApiError && e.status === 403) return 'forbidden';
          } finally {
            setLive(false);
          }
          if (signal.aborted) return 'expired';
          if (ended) return ended;
          // A watch the server ended at once is not resumed in a busy loop.
          if (Date.now() - started < RETRY_MS) await sleep(RETRY_MS, signal);
        }
      }
    })();
    return () => ctl.abort();
  }, [path, labelSelector, fieldSelector, limit, watchable]);

  const more = useCallback(() => {
    const token = stateRef.current?.continueToken;
    if (!token || loadingMore) return;
    setLoadingMore(true);
    void (async () => {
      try {
        const { body } = await api<Table>(path, { accept: tableAccept(await loadConfig()), query: { ...selectors, limit: String(limit), continue: token } });
        setState((s) => s && appendPage(s, body));
      } catch (e) {
        setError(e);
      } finally {
        setLoadingMore(false);
      }
    })();
  }, [path, labelSelector, fieldSelector, limit, loadingMore]);

  return { state, error, watchError, live, loadingMore, more };
}
