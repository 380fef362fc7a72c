/**
 * Priority (spec 001 § Admission control, default-enabled; upstream v1.30's plugin of the same
 * name). Mutating, Pods (no subresource):
 *  - create: `spec.priorityClassName` names a PriorityClass whose `value` becomes `spec.priority`
 *    and whose `preemptionPolicy` (when set) becomes `spec.preemptionPolicy`; no class named → the
 *    global default class (`globalDefault: true`, the lowest value if several) and its name, or
 *    priority 0 with PreemptLowerPriority when there is none. 403 Forbidden when the class does
 *    not exist, or when the pod already gives a different priority or preemption policy.
 *  - update: a priority or preemption policy the new object omits is kept from the stored pod.
 * Validating, PriorityClasses (create, update): a class may not become the global default while
 * another class is (403 Forbidden).
 * The system classes (`system-node-critical`, `system-cluster-critical`) are ordinary objects,
 * created at start by lib/controllers/priorityclass-bootstrap.
 */
import { type Obj, num, obj, str } from '../../apis/core/v1/obj-access.js';
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory, Lister, ResourceAccess } from '../plugin-deps.js';

const SCHEDULING_GROUP = vendorGroup('scheduling');

/** The priority of a pod when no class is named and no class is the global default. */
export const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0;

const nameOf = (o: Obj): string => str(obj(o.metadata)?.name);

/**
 * The global default class among `classes` (upstream `getDefaultPriorityClass`): the one with
 * `globalDefault: true`, the lowest value when a race left several; undefined when none.
 */
export function defaultPriorityClass(classes: readonly Obj[]): Obj | undefined {
  let found: Obj | undefined;
  for (const pc of classes) {
    if (pc.globalDefault === true && (!found || (num(found.value) ?? 0) > (num(pc.value) ?? 0))) found = pc;
  }
  return found;
}

/** The Priority plugin (mutating phase for Pods, validating phase for PriorityClasses). */
export class Priority implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = 'Priority';

  /**
   * @param classes the PriorityClasses: `lister` for the informer's view, `get` for a live read of
   *   a class the informer does not have yet (null when absent).
   */
  constructor(private readonly classes: { lister: Lister; get(name: string): Promise<Obj | null> }) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object) return;
    const spec = obj(a.object.spec) ?? {};
    a.object.spec = spec;
    if (a.operation === 'UPDATE') {
      const old = obj(obj(a.oldObject)?.spec) ?? {};
      if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    const { className, priority, preemptionPolicy } = await this.resolve(a, str(spec.priorityClassName));
    if (className !== undefined) spec.priorityClassName = className;
    if (typeof spec.priority === 'number' && spec.priority !== priority) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
      );
    }
    spec.priority = priority;
    if (preemptionPolicy === undefined) return;
    if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== preemptionPolicy) {
      throw admissionForbidden(
        a,
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = preemptionPolicy;
  }

  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (canonicalGroup(a.group) !== SCHEDULING_GROUP || a.resource !== 'priorityclasses' || a.subresource !== '' || !a.object) return;
    if (a.object.globalDefault !== true) return;
    const current = defaultPriorityClass(this.classes.lister.list());
    if (!current) return;
    if (a.operation === 'CREATE' || nameOf(current) !== nameOf(a.object)) {
      throw admissionForbidden(a, `PriorityClass ${nameOf(current)} is already marked as default. Only one default can exist`);
    }
  }

  /**
   * What a new pod naming `name` ('' for none) gets: the class name to set (the global default's,
   * when it names none and there is one),
   * the priority, and the preemption policy (undefined: leave the pod's).
   * @throws StatusError 403 when `name` names no class.
   */
  private async resolve(a: AdmissionAttributes, name: string): Promise<{ className?: string; priority: number; preemptionPolicy?: string }> {
    if (name === '') {
      const dpc = defaultPriorityClass(this.classes.lister.list());
      if (!dpc) return { priority: DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, preemptionPolicy: 'PreemptLowerPriority' };
      return { className: nameOf(dpc), priority: num(dpc.value) ?? 0, preemptionPolicy: optionalString(dpc.preemptionPolicy) };
    }
    const pc = this.classes.lister.get('', name) ?? (await this.classes.get(name));
    if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${name} was found`);
    return { priority: num(pc.value) ?? 0, preemptionPolicy: optionalString(pc.preemptionPolicy) };
  }
}

function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Factory of {@link Priority}; starts the PriorityClass informer. */
export const priorityPlugin: AdmissionPluginFactory = {
  name: 'Priority',
  create: (deps) => {
    const classes: ResourceAccess = deps.resource(SCHEDULING_GROUP, 'priorityclasses');
    return new Priority({ lister: classes.lister, get: (name) => classes.get('', name) });
  },
};
