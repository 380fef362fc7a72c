/**
 * The object a page shows, kept current (issue #22 § One object): read with a GET, then a watch of
 * its collection with `fieldSelector=metadata.name=<name>` from the object's resourceVersion
 * replaces it on every change and marks it deleted on DELETED. A watch the server ends is resumed
 * from the last resourceVersion seen; an expired one (410) reads the object again.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, watch, type WatchEvent } from '../../api/client';
import { apiPath, type ApiTarget } from '../../router';

/** What `useObject` gives: the object as last seen, whether it is gone, the error of the read. */
export interface ObjectState {
  object?: Record<string, any>;
  deleted: boolean;
  error?: unknown;
  /** Reads the object again (after a save). */
  reload(): void;
}

type Obj = Record<string, any>;

/** The collection path of `target` (the object's namespace and resource, no name). issue #22 § One object. */
export function collectionPath(target: ApiTarget): string {
  return apiPath({ ...target, name: undefined });
}

/** Resolves after `ms`, or at once when `signal` aborts: the pause before a watch is resumed, so a server ending watches at once is not hammered. issue #22 § One object. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });
}

/** The pause before a watch that ended is resumed. */
export const RESUME_MS = 500;

async function follow(target: ApiTarget, rv: string, set: (o: Obj) => void, gone: () => void, signal: AbortSignal): Promise<void> {
  let from = rv;
  while (!signal.aborted) {
    let expired = false;
    const onEvent = (e: WatchEvent<Obj>) => {
      if (e.type === 'ERROR') {
        expired = true;
        return;
      }
      const next = e.object.metadata?.resourceVersion as string | undefined;
      if (next) from = next;
      if (e.type === 'MODIFIED' || e.type === 'ADDED') set(e.object);
      else if (e.type === 'DELETED') gone();
    };
    await watch<Obj>(collectionPath(target), { fieldSelector: `metadata.name=${target.name}`, resourceVersion: from, allowWatchBookmarks: 'true' }, onEvent, signal);
    if (expired && !signal.aborted) {
      const { body } = await api<Obj>(target.path, { signal });
      set(body);
      from = body.metadata?.resourceVersion ?? '';
    }
    await pause(RESUME_MS, signal);
  }
}

/** issue #22 § One object: the object at `target`, live. */
export function useObject(target: ApiTarget): ObjectState {
  const [object, setObject] = useState<Obj>();
  const [deleted, setDeleted] = useState(false);
  const [error, setError] = useState<unknown>();
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => {
    const ac = new AbortController();
    let read = false;
    const set = (o: Obj) => {
      setObject(o);
      setDeleted(false);
    };
    (async () => {
      const { body } = await api<Obj>(target.path, { signal: ac.signal });
      read = true;
      set(body);
      setError(undefined);
      await follow(target, body.metadata?.resourceVersion ?? '', set, () => setDeleted(true), ac.signal);
    })().catch((e: unknown) => {
      if (ac.signal.aborted) return;
      if (e instanceof ApiError && e.status === 404 && read) setDeleted(true);
      else setError(e);
    });
    return () => ac.abort();
  }, [target.path, generation]);

  return { object, deleted, error, reload };
}
