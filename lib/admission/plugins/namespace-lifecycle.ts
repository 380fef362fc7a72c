/**
 * NamespaceLifecycle: no new objects in a namespace that does not exist (404) or is terminating
 * (403); the namespaces the server creates at start may not be deleted (issue #2 item 7; spec 001
 * § Admission control, default-enabled plugins).
 */
import { StatusError, newForbidden, newNotFound } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { PUBLIC_NAMESPACE, SYSTEM_NAMESPACE } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../interface.js';
import { type AdmissionPluginFactory, cachedOrLive } from '../plugin-deps.js';

/** Looks a namespace up: from a cache first, then (when absent there) with a live read. */
export interface NamespaceGetter {
  get(name: string): Promise<Obj | null>;
}

const NAMESPACES = { group: '', resource: 'namespaces' };

/** The NamespaceLifecycle plugin (runs in the mutating phase so it precedes validation, as upstream). */
export class NamespaceLifecycle implements MutatingAdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  constructor(
    private readonly namespaces: NamespaceGetter,
    private readonly immortal: ReadonlySet<string>,
  ) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'DELETE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.operation === 'DELETE' && a.resource === 'namespaces' && a.subresource === '' && this.immortal.has(a.name)) {
      throw newForbidden({ group: a.group, resource: a.resource }, a.name, 'this namespace may not be deleted');
    }
    if (a.operation !== 'CREATE' || a.namespace === '') return;
    if (a.resource === 'namespaces' && a.group === '') return;
    const ns = await this.namespaces.get(a.namespace);
    if (!ns) throw newNotFound(NAMESPACES, a.namespace);
    const phase = (ns.status as Obj | undefined)?.phase;
    if (phase === 'Terminating' || (ns.metadata as Obj | undefined)?.deletionTimestamp) {
      const err = newForbidden(
        { group: a.group, resource: a.resource },
        a.name,
        `unable to create new content in namespace ${a.namespace} because it is being terminated`,
      );
      throw withTerminatingCause(err, a.namespace);
    }
  }
}

function withTerminatingCause(err: StatusError, namespace: string): StatusError {
  err.status.details = {
    ...err.status.details,
    causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
  };
  return err;
}

/** The namespaces that may never be deleted (upstream's immortal namespaces: default, the system and public ones). */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', SYSTEM_NAMESPACE, PUBLIC_NAMESPACE]);

/** The NamespaceLifecycle factory: reads namespaces through their informer (lib/admission/plugins/index.ts). */
export const namespaceLifecyclePlugin: AdmissionPluginFactory = {
  name: 'NamespaceLifecycle',
  create(deps) {
    const namespaces = deps.resource('', 'namespaces');
    return new NamespaceLifecycle({ get: (name) => cachedOrLive(namespaces, '', name) }, IMMORTAL_NAMESPACES);
  },
};
