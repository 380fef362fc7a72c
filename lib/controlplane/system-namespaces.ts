/**
 * The namespaces the server creates at start and keeps from deletion (issue #2 item 7):
 * `default`, the system, public and node-lease namespaces.
 */
import { createIfMissing } from '../controllers/writes.js';
import { NODE_LEASE_NAMESPACE, PUBLIC_NAMESPACE, SYSTEM_NAMESPACE } from '../apis/vendor.js';
import type { RequestContext } from '../request/context.js';
import type { Store } from '../registry/generic/store.js';

export const DEFAULT_NAMESPACE = 'default';
/** Created at every start when missing. */
export const SYSTEM_NAMESPACES = [DEFAULT_NAMESPACE, SYSTEM_NAMESPACE, PUBLIC_NAMESPACE, NODE_LEASE_NAMESPACE] as const;

/**
 * Creates the system namespaces that do not exist (AlreadyExists is fine: another replica won),
 * defaulted and with managed fields like any namespace created through the API; whether one exists
 * is read from the watch cache (see {@link createIfMissing}).
 * @throws StatusError from the store other than NotFound and AlreadyExists.
 */
export async function ensureSystemNamespaces(ctx: RequestContext, namespaces: Store): Promise<void> {
  await Promise.all(SYSTEM_NAMESPACES.map((name) => createIfMissing(ctx, namespaces, '', { metadata: { name } })));
}
