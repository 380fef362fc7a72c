/**
 * The namespaces the server creates at start and keeps from deletion (issue #2 item 7):
 * `default`, the system, public and node-lease namespaces.
 */
import { isReason } from '../apimachinery/errors.js';
import { NODE_LEASE_NAMESPACE, PUBLIC_NAMESPACE, SYSTEM_NAMESPACE } from '../apis/vendor.js';
import type { RequestContext } from '../request/context.js';
import type { Store } from '../registry/generic/store.js';

export const DEFAULT_NAMESPACE = 'default';
/** Created at every start when missing. */
export const SYSTEM_NAMESPACES = [DEFAULT_NAMESPACE, SYSTEM_NAMESPACE, PUBLIC_NAMESPACE, NODE_LEASE_NAMESPACE] as const;
/** May never be deleted (NamespaceLifecycle). */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set([DEFAULT_NAMESPACE, SYSTEM_NAMESPACE, PUBLIC_NAMESPACE]);

/** Creates the system namespaces that do not exist (AlreadyExists is fine: another replica won). */
export async function ensureSystemNamespaces(ctx: RequestContext, namespaces: Store): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    try {
      await namespaces.create(ctx, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) throw err;
    }
  }
}
