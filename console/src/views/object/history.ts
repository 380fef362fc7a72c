/**
 * An object's earlier versions, read through the API alone (issue #22 § History).
 *
 * How, against this server: the object's version at any revision R that etcd still holds is the
 * answer of an Exact list, `GET <collection>?fieldSelector=metadata.name=<name>&resourceVersion=R
 * &resourceVersionMatch=Exact`: the watch cache serves it from a snapshot when it has one and
 * otherwise hands it to etcd, which reads the key at R. The item's resourceVersion is the
 * revision that wrote that version, so asking again at that revision minus one gives the version
 * before it; the walk goes back, one list per version, until the list is empty (the object did
 * not exist yet: its creation is reached), holds an object with another uid (an earlier object of
 * the same name), or the server answers 410 Expired (etcd compacted that revision: history starts
 * at the oldest version read).
 *
 * A watch from an old resourceVersion does not reach as far: watches are served by the watch
 * cache alone, whose window starts at its last (re)list — the server's start — and keeps at most
 * 5 minutes of events; a watch from before it gets one ERROR event, 410 Expired, `too old
 * resource version: <asked> (<oldest>)`, and a watch from `<oldest>` replays only the changes
 * made since. The Exact lists reach every revision etcd has not compacted.
 */
import { api, ApiError } from '../../api/client';
import type { ApiTarget } from '../../router';
import { changedBy } from './changed-by';
import { collectionPath } from './use-object';

type Obj = Record<string, any>;

/** One version of the object: its revision, its content and who wrote it. */
export interface Version {
  rv: string;
  object: Obj;
  /** The managers whose managedFields entry this version added or changed (empty when unknown). */
  managers: string[];
  /** The time of that entry (or the creation time of the first version). */
  time: string;
  /** False when the managedFields do not tell which of `managers` wrote it. */
  certain: boolean;
}

/** How the walk ended. */
export type HistoryEnd = 'created' | 'compacted' | 'replaced' | 'capped';

/** The versions found, oldest first, and why there are no earlier ones. */
export interface History {
  versions: Version[];
  end: HistoryEnd;
}

/** Versions read at most (one list each). */
export const MAX_VERSIONS = 50;

async function versionAt(target: ApiTarget, rv: number, signal?: AbortSignal): Promise<Obj | undefined> {
  const query = { fieldSelector: `metadata.name=${target.name}`, resourceVersion: String(rv), resourceVersionMatch: 'Exact' };
  const { body } = await api<{ items?: Obj[] }>(collectionPath(target), { query, signal });
  return body.items?.[0];
}

/** issue #22 § History: the versions of `current` that the server still holds, oldest first. */
export async function readHistory(target: ApiTarget, current: Obj, signal?: AbortSignal): Promise<History> {
  const uid = current.metadata?.uid;
  const newestFirst: Obj[] = [current];
  let end: HistoryEnd = 'capped';
  while (newestFirst.length < MAX_VERSIONS) {
    const before = Number(newestFirst[newestFirst.length - 1]!.metadata?.resourceVersion) - 1;
    if (!(before > 0)) {
      end = 'created';
      break;
    }
    let older: Obj | undefined;
    try {
      older = await versionAt(target, before, signal);
    } catch (e) {
      if (e instanceof ApiError && e.status === 410) {
        end = 'compacted';
        break;
      }
      throw e;
    }
    if (!older) {
      end = 'created';
      break;
    }
    if (older.metadata?.uid !== uid) {
      end = 'replaced';
      break;
    }
    newestFirst.push(older);
  }
  const objects = newestFirst.reverse();
  const creationReached = end === 'created' || end === 'replaced';
  const versions = objects.map((object, i) => {
    const by = i === 0 && !creationReached ? { managers: [], time: '', certain: false } : changedBy(object, objects[i - 1]);
    return { rv: String(object.metadata?.resourceVersion ?? ''), object, ...by };
  });
  return { versions, end };
}
