/**
 * ComponentStatus, read-only (upstream v1.30 `pkg/registry/core/componentstatus/rest.go`): get
 * and list probe the control plane's components when asked and store nothing. The list probes
 * them all concurrently and keeps those the label and field selectors match (the fields are
 * `metadata.name` and `metadata.namespace`, always ''), sorted by name; a get of a name that is
 * not a component is upstream's plain error, a 500 Status `Component not found: <name>` with
 * no reason.
 */
import { StatusError } from '../../../apimachinery/errors.js';
import { canonicalize } from '../../../apimachinery/schema/canonical.js';
import { COMPONENT_HEALTHY, componentStatus } from '../../../apis/core/v1/component-status.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { GetterLister, ListSelectors } from '../../rest/getter-lister.js';
import { type ComponentProbe, type ProbeOutcome, etcdProbe } from './probes.js';

/** Upstream `ToConditionStatus`: Success and Warning are True, Failure False, anything else Unknown. */
function conditionStatus(result: ProbeOutcome['result']): string {
  if (result === 'Success' || result === 'Warning') return 'True';
  return result === 'Failure' ? 'False' : 'Unknown';
}

/** The ComponentStatus of component `name` from its probe's outcome. */
export function componentStatusOf(name: string, outcome: ProbeOutcome): Obj {
  const condition = { type: COMPONENT_HEALTHY, status: conditionStatus(outcome.result), message: outcome.message, error: outcome.error };
  return canonicalize(componentStatus.schema, { kind: componentStatus.kind, apiVersion: componentStatus.apiVersion, metadata: { name }, conditions: [condition] });
}

/** Upstream's answer to a get of an unknown component: an error that is no API status, hence a 500. */
function componentNotFound(name: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Component not found: ${name}`, code: 500 });
}

/** The read-only ComponentStatus resource over the components `components()` names. */
export class ComponentStatusREST implements GetterLister {
  readonly kind = componentStatus;
  readonly fieldLabels = ['metadata.name', 'metadata.namespace'];

  constructor(private readonly components: () => ReadonlyMap<string, ComponentProbe>) {}

  async get(_ctx: RequestContext, _namespace: string, name: string): Promise<Obj> {
    const probe = this.components().get(name);
    if (!probe) throw componentNotFound(name);
    return componentStatusOf(name, await probe.check());
  }

  async list(_ctx: RequestContext, _namespace: string, selectors: ListSelectors): Promise<Obj> {
    const probed = await Promise.all([...this.components()].map(async ([name, probe]) => componentStatusOf(name, await probe.check())));
    const items = probed
      .filter((cs) => {
        const name = String((cs.metadata as Obj).name);
        return selectors.label.matches({}) && selectors.field.matches({ 'metadata.name': name, 'metadata.namespace': '' });
      })
      .sort((a, b) => (String((a.metadata as Obj).name) < String((b.metadata as Obj).name) ? -1 : 1));
    return { kind: componentStatus.listKind, apiVersion: componentStatus.apiVersion, metadata: {}, items };
  }
}

/**
 * The ComponentStatus resource of this server: one component, `etcd-0` (upstream names one
 * `etcd-<i>` per storage configuration; this server has one), probed by `readStorage` — one read
 * of the server's etcd. Upstream also lists `scheduler` and `controller-manager`, probing
 * `https://127.0.0.1:10259/healthz` and `:10257` on the assumption that its own scheduler and
 * controller manager run beside it on their default ports; this server has neither (its
 * controllers run in-process) and no such deployment convention, so those entries would always
 * read Unhealthy — or, worse, report the health of an unrelated process on those ports — and say
 * nothing about this control plane. They are left out.
 */
export function newComponentStatusREST(readStorage: () => Promise<unknown>): ComponentStatusREST {
  const components: ReadonlyMap<string, ComponentProbe> = new Map([['etcd-0', etcdProbe(readStorage)]]);
  return new ComponentStatusREST(() => components);
}
