/**
 * Which node agent a user is (spec 001 § Node authorization): node agents authenticate as
 * `system:node:<nodeName>` in group `system:nodes` (upstream's default node identifier, shared by
 * the Node authorizer and the NodeRestriction admission plugin).
 */
import type { UserInfo } from './user.js';

/** The group of every node agent. */
export const NODES_GROUP = 'system:nodes';
/** The prefix of a node agent's username; the rest is the node's name. */
export const NODE_USER_PREFIX = 'system:node:';

/** A user's node identity: `isNode` false for everyone else; `nodeName` '' when the username names no node. */
export interface NodeIdentity {
  isNode: boolean;
  nodeName: string;
}

/**
 * The node `user` acts for: a node only when its username has the `system:node:` prefix AND it is
 * in `system:nodes`; `nodeName` is the rest of the username (possibly empty: an unidentifiable node).
 */
export function nodeIdentity(user: UserInfo | undefined): NodeIdentity {
  if (!user || !user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.name.slice(NODE_USER_PREFIX.length) };
}
