/**
 * System metadata the store fills on create and carries over on update (upstream
 * `rest.BeforeCreate` / `rest.BeforeUpdate`): uid, creationTimestamp, generated names.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { formatTime } from '../../apimachinery/schema/decode.js';
import type { Obj } from '../../apis/define.js';

type Meta = Record<string, unknown>;

/** Characters of generated name suffixes (no vowels, no confusable digits), as upstream. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
/** Length of a generated name suffix. */
export const GENERATED_SUFFIX_LENGTH = 5;
/** Longest prefix kept from generateName so the result stays within 63 characters. */
const MAX_GENERATED_PREFIX = 63 - GENERATED_SUFFIX_LENGTH;

/** `generateName` + 5 random characters, the prefix cut to 58 characters (upstream SimpleNameGenerator). */
export function generateName(prefix: string): string {
  let s = prefix.length > MAX_GENERATED_PREFIX ? prefix.slice(0, MAX_GENERATED_PREFIX) : prefix;
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i++) s += ALPHANUMS[randomInt(ALPHANUMS.length)];
  return s;
}

/** The object's metadata, created when missing. */
export function metaOf(obj: Obj): Meta {
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  return obj.metadata as Meta;
}

/** Fills the fields the server owns on create; clears those a client may not set. */
export function fillCreateMetadata(obj: Obj, now: Date): void {
  const meta = metaOf(obj);
  meta.uid = randomUUID();
  meta.creationTimestamp = formatTime(now);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  delete meta.resourceVersion;
}

/** Carries over the fields an update may not change from the stored object. */
export function carryUpdateMetadata(obj: Obj, old: Obj): void {
  const meta = metaOf(obj);
  const oldMeta = metaOf(old);
  meta.generation = oldMeta.generation;
  if (!meta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
  delete meta.selfLink;
  if (meta.generation === undefined) delete meta.generation;
}
