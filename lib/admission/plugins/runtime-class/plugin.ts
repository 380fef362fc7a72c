/**
 * RuntimeClass (spec 001 § Admission control, default-enabled; upstream v1.30's plugin of the
 * same name), for Pod creates (no subresource) that set `spec.runtimeClassName`:
 *  - mutating: the class must exist (informer, then a live read); its `overhead.podFixed` becomes
 *    `spec.overhead` (a pod giving a different non-empty overhead is rejected); its
 *    `scheduling.nodeSelector` is merged into `spec.nodeSelector` (a key the pod sets to another
 *    value is rejected) and its `scheduling.tolerations` merged with the pod's (merge-tolerations.ts).
 *  - validating: a non-empty `spec.overhead` must equal the class's overhead, and needs a class
 *    that defines one.
 * Every rejection is 403 Forbidden with upstream's message.
 */
import { goQuote } from '../../../apimachinery/go-quote.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { type Obj, obj, objs, strMap } from '../../../apis/core/v1/obj-access.js';
import { vendorGroup } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginFactory, Lister } from '../../plugin-deps.js';
import { mergeTolerations } from './merge-tolerations.js';

const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
const OVERHEAD_WITHOUT_CLASS = 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';


/** Whether two resource lists have the same keys and equal quantities (`1000m` equals `1`); an unparsable quantity equals nothing. */
export function resourceListsEqual(a: Obj, b: Obj): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && quantitiesEqual(a[k], b[k]));
}

function quantitiesEqual(x: unknown, y: unknown): boolean {
  try {
    return Quantity.parse(String(x)).equals(Quantity.parse(String(y)));
  } catch {
    return false;
  }
}

/** The class's `overhead.podFixed` ({} when its overhead has none), or undefined when the class defines no overhead. */
function classOverhead(rc: Obj | null): Obj | undefined {
  const overhead = obj(rc?.overhead);
  return overhead ? (obj(overhead.podFixed) ?? {}) : undefined;
}

/** The pod's `spec.overhead` ({} when absent). */
const podOverhead = (spec: Obj): Obj => obj(spec.overhead) ?? {};

/** The RuntimeClass plugin (mutating and validating phases). */
export class RuntimeClass implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = 'RuntimeClass';

  /** @param classes the RuntimeClasses: the informer's view, and a live read (null when absent). */
  constructor(private readonly classes: { lister: Lister; get(name: string): Promise<Obj | null> }) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (ignored(a)) return;
    const spec = obj(a.object!.spec);
    const rc = spec ? await this.runtimeClass(a, spec) : null;
    if (!spec || !rc) return;
    const fixed = classOverhead(rc);
    if (fixed !== undefined) {
      if (Object.keys(podOverhead(spec)).length > 0 && !resourceListsEqual(fixed, podOverhead(spec))) throw admissionForbidden(a, OVERHEAD_MISMATCH);
      setOrDelete(spec, 'overhead', Object.keys(fixed).length > 0 ? { ...fixed } : undefined);
    }
    const scheduling = obj(rc.scheduling);
    if (!scheduling) return;
    const wanted = strMap(scheduling.nodeSelector);
    const selector = obj(spec.nodeSelector) ? { ...strMap(spec.nodeSelector) } : undefined;
    const merged = selector ?? { ...wanted };
    for (const [key, value] of Object.entries(wanted)) {
      if (selector && Object.hasOwn(selector, key) && selector[key] !== value) {
        throw admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${selector[key]}`);
      }
      merged[key] = value;
    }
    setOrDelete(spec, 'nodeSelector', Object.keys(merged).length > 0 ? merged : undefined);
    const tolerations = mergeTolerations(objs(spec.tolerations), objs(scheduling.tolerations));
    setOrDelete(spec, 'tolerations', tolerations.length > 0 ? tolerations : undefined);
  }

  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (ignored(a)) return;
    const spec = obj(a.object!.spec) ?? {};
    const rc = await this.runtimeClass(a, spec);
    const overhead = podOverhead(spec);
    if (Object.keys(overhead).length === 0) return;
    const fixed = classOverhead(rc);
    if (fixed === undefined) throw admissionForbidden(a, OVERHEAD_WITHOUT_CLASS);
    if (!resourceListsEqual(fixed, overhead)) throw admissionForbidden(a, OVERHEAD_MISMATCH);
  }

  /**
   * The class the pod names, or null when it names none.
   * @throws StatusError 403 `pod rejected: RuntimeClass "<name>" not found`.
   */
  private async runtimeClass(a: AdmissionAttributes, spec: Obj): Promise<Obj | null> {
    if (spec.runtimeClassName === undefined || spec.runtimeClassName === null) return null;
    const name = String(spec.runtimeClassName);
    const rc = this.classes.lister.get('', name) ?? (await this.classes.get(name));
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass ${goQuote(name)} not found`);
    return rc;
  }
}

/** Not a Pod create of the pod itself. */
function ignored(a: AdmissionAttributes): boolean {
  return a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object;
}

/** Sets `o[key]` to `value`, or removes the key when `value` is undefined. */
function setOrDelete(o: Obj, key: string, value: unknown): void {
  if (value === undefined) delete o[key];
  else o[key] = value;
}

/** Factory of {@link RuntimeClass}; starts the RuntimeClass informer. */
export const runtimeClassPlugin: AdmissionPluginFactory = {
  name: 'RuntimeClass',
  create: (deps) => {
    const classes = deps.resource(vendorGroup('node'), 'runtimeclasses');
    return new RuntimeClass({ lister: classes.lister, get: (name) => classes.get('', name) });
  },
};
