/**
 * The ResourceQuota admission plugin (validating phase; upstream v1.30 `ResourceQuota`): every
 * create, and every update of the resources whose cost an update can change (Services,
 * PersistentVolumeClaims), in a namespace with ResourceQuotas is checked against them and its
 * cost reserved in their `status.used` before the object is stored (reserver.ts). Subresources,
 * cluster-scoped objects and the resources quota ignores (Events, reviews, bindings) are not
 * evaluated. A namespace without quotas costs one informer lookup (unless the configuration limits
 * resources: then every request is checked, as upstream). Spec 001 § Admission control.
 */
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginFactory } from '../../plugin-deps.js';
import { loadResourceQuotaConfig } from './config.js';
import { EvaluatorRegistry, isIgnoredResource } from './evaluators.js';
import { type QuotaAccess, QuotaReserver, type ReserverOptions } from './reserver.js';

/** The ResourceQuota plugin. */
export class ResourceQuotaAdmission implements ValidatingAdmissionPlugin {
  readonly name = 'ResourceQuota';
  private readonly registry = new EvaluatorRegistry();
  private readonly reserver: QuotaReserver;

  constructor(quotas: QuotaAccess, ctx: RequestContext, opts: ReserverOptions = {}) {
    this.reserver = new QuotaReserver(quotas, ctx, opts);
  }

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.namespace === '' || !a.object) return;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    if (isIgnoredResource(a.group, a.resource) || !this.reserver.needsCheck(a.namespace)) return;
    const evaluator = this.registry.get(a.group, a.resource);
    if (a.operation === 'UPDATE' && !evaluator.handlesUpdate) return;
    await this.reserver.reserve(
      a.namespace,
      { operation: a.operation, group: a.group, resource: a.resource, object: a.object, oldObject: a.oldObject },
      evaluator,
      a.dryRun,
    );
  }
}

/** The ResourceQuota plugin's factory (on by default); reads `limitedResources` from its configuration (config.ts). */
export const resourceQuotaPlugin: AdmissionPluginFactory = {
  name: 'ResourceQuota',
  create(deps) {
    const limited = loadResourceQuotaConfig(deps.config('ResourceQuota'));
    return new ResourceQuotaAdmission(deps.resource('', 'resourcequotas'), deps.systemContext, { limited });
  },
};
