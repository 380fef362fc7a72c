/**
 * A user (lib/request/user.ts) in the wire form of `authentication.<vendor>/v1` UserInfo, as the
 * review kinds answer it (spec 001 § Principals and attributes).
 */
import type { Obj } from '../../apis/define.js';
import type { UserInfo } from '../../request/user.js';

/** `{username, uid, groups, extra}` of `user`, empty fields left out (Go's omitempty); copies, never shares. */
export function userInfoWire(user: UserInfo): Obj {
  const info: Obj = { username: user.name };
  if (user.uid) info.uid = user.uid;
  if (user.groups.length > 0) info.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) info.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  return info;
}
