/**
 * The namespaces the server creates at start and keeps from deletion (issue #2 item 7):
 * `default`, the system, public and node-lease namespaces.
 */
import { isReason } from '../apimachinery/errors.js';
import { applyDefaults } from '../apimachinery/schema/defaults.js';
import { NODE_LEASE_NAMESPACE, PUBLIC_NAMESPACE, SYSTEM_NAMESPACE } from '../apis/vendor.js';
import type { RequestContext } from '../request/context.js';
import { recordManagedFields } from '../registry/generic/managed-fields.js';
import type { Store } from '../registry/generic/store.js';

export const DEFAULT_NAMESPACE = 'default';
/** Created at every start when missing. */
export const SYSTEM_NAMESPACES = [DEFAULT_NAMESPACE, SYSTEM_NAMESPACE, PUBLIC_NAMESPACE, NODE_LEASE_NAMESPACE] as const;

/**
 * Creates the system namespaces that do not exist (AlreadyExists is fine: another replica won),
 * defaulted and with managed fields like any namespace created through the API.
 */
export async function ensureSystemNamespaces(ctx: RequestContext, namespaces: Store): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    try {
      const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
      applyDefaults(namespaces.strategy.kind.schema, ns);
      recordManagedFields(namespaces.strategy.kind, '', undefined, ns, ctx.userAgent);
      await namespaces.create(ctx, '', ns);
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) throw err;
    }
  }
}
