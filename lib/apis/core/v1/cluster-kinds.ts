/**
 * The core/v1 kinds of the cluster's plumbing — Namespace, Secret, Service, ServiceAccount,
 * Node, Event, Endpoints — for the catalogue (issue #2 item 5). ConfigMap and Pod are exported by
 * their own modules.
 */
import type { KindDefinition } from '../../define.js';
import { endpoints } from './endpoints.js';
import { event } from './event.js';
import { namespace } from './namespace.js';
import { node } from './node.js';
import { secret } from './secret.js';
import { service } from './service.js';
import { serviceAccount } from './service-account.js';

export { endpoints, event, namespace, node, secret, service, serviceAccount };

/** The kinds above, for registration in the catalogue. */
export const coreV1ClusterKinds: readonly KindDefinition[] = [namespace, secret, service, serviceAccount, node, event, endpoints];
