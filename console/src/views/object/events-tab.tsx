/**
 * The Events tab (issue #22 § One object, its events): the core v1 Events whose `involvedObject`
 * is this object, found by `fieldSelector=involvedObject.uid=<uid>` in its namespace (all
 * namespaces for a cluster-scoped object), kept live by a watch from the list's resourceVersion.
 * Events written through the events group (`regarding`) are the same stored objects, so they show
 * here too. Columns as `kubectl describe` prints them: TYPE, REASON, AGE, FROM, MESSAGE.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, watch, type WatchEvent } from '../../api/client';
import { ErrorBox } from '../../components/error-box';
import { ageOf } from '../../util/age';
import { useNow } from '../../util/now';
import type { ObjectTabProps } from './tabs';
import { pause, RESUME_MS } from './use-object';

type Event = Record<string, any>;

/** When an event last happened: lastTimestamp, eventTime, or its creation. issue #22 § One object. */
export function lastSeen(e: Event): string | undefined {
  return e.lastTimestamp ?? e.series?.lastObservedTime ?? e.eventTime ?? e.metadata?.creationTimestamp;
}

/** Who reported it: the source component (and host), else the reporting controller. issue #22 § One object. */
export function reporter(e: Event): string {
  const component = e.source?.component ?? e.reportingComponent ?? '';
  const host = e.source?.host ?? e.reportingInstance ?? '';
  return host && component ? `${component}, ${host}` : component || host;
}

/** issue #22 § One object: the events about this object, live. */
export function EventsTab({ object }: ObjectTabProps) {
  const [events, setEvents] = useState<Map<string, Event>>();
  const [error, setError] = useState<unknown>();
  const now = useNow();
  const uid = object.metadata?.uid as string;
  const ns = object.metadata?.namespace as string | undefined;

  useEffect(() => {
    const ac = new AbortController();
    const path = ns ? `/api/v1/namespaces/${encodeURIComponent(ns)}/events` : '/api/v1/events';
    const fieldSelector = `involvedObject.uid=${uid}`;
    (async () => {
      const { body } = await api<{ metadata: { resourceVersion: string }; items: Event[] }>(path, { query: { fieldSelector }, signal: ac.signal });
      let seen = new Map(body.items.map((e) => [e.metadata.uid as string, e]));
      setEvents(seen);
      let rv = body.metadata.resourceVersion;
      while (!ac.signal.aborted) {
        let expired = false;
        await watch<Event>(path, { fieldSelector, resourceVersion: rv, allowWatchBookmarks: 'true' }, (ev: WatchEvent<Event>) => {
          if (ev.type === 'ERROR') return void (expired = true);
          rv = ev.object.metadata?.resourceVersion ?? rv;
          if (ev.type === 'BOOKMARK') return;
          seen = new Map(seen);
          if (ev.type === 'DELETED') seen.delete(ev.object.metadata.uid);
          else seen.set(ev.object.metadata.uid, ev.object);
          setEvents(seen);
        }, ac.signal);
        if (expired) {
          const again = await api<{ metadata: { resourceVersion: string }; items: Event[] }>(path, { query: { fieldSelector }, signal: ac.signal });
          seen = new Map(again.body.items.map((e) => [e.metadata.uid as string, e]));
          setEvents(seen);
          rv = again.body.metadata.resourceVersion;
        }
        await pause(RESUME_MS, ac.signal);
      }
    })().catch((e: unknown) => ac.signal.aborted || setError(e));
    return () => ac.abort();
  }, [uid, ns]);

  if (error) return <ErrorBox error={error} />;
  if (!events) return <p class="muted">Loading events…</p>;
  const rows = [...events.values()].sort((a, b) => (lastSeen(a) ?? '').localeCompare(lastSeen(b) ?? ''));
  if (rows.length === 0) return <p class="muted events-none">No events about this object.</p>;
  return (
    <table class="events">
      <thead>
        <tr><th>TYPE</th><th>REASON</th><th>AGE</th><th>FROM</th><th>MESSAGE</th></tr>
      </thead>
      <tbody>
        {rows.map((e) => (
          <tr key={e.metadata.uid} class={e.type === 'Warning' ? 'event warning' : 'event'}>
            <td>{e.type ?? ''}</td>
            <td>{e.reason ?? ''}</td>
            <td title={lastSeen(e)}>{ageOf(lastSeen(e) ?? '', now) ?? ''}{(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}</td>
            <td>{reporter(e)}</td>
            <td class="event-message">{e.message ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
