/**
 * DefaultIngressClass (spec 001 § Admission control): an Ingress created with neither
 * `spec.ingressClassName` (an empty string counts as set) nor the legacy class annotation gets the
 * name of the default IngressClass — the one annotated `ingressclass.<vendor>/is-default-class:
 * "true"`. No default class: no change. Several default classes: every such Ingress creation is
 * rejected, as spec 001 says (and upstream did before v1.28; v1.30 picks the newest instead), with
 * upstream's message `ingresses.networking.<vendor> "<name>" is forbidden: Internal error occurred:
 * <n> default IngressClasses were found, only 1 allowed` (403). Updates are ignored.
 */
import type { Obj } from '../../apis/define.js';
import { obj, str, strMap } from '../../apis/core/v1/obj-access.js';
import { NETWORKING_GROUP } from '../../apis/networking/v1/group.js';
import { canonicalGroup, DEFAULT_INGRESS_CLASS_ANNOTATION, INGRESS_CLASS_ANNOTATION } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory } from '../plugin-deps.js';

/** The IngressClasses of `classes` marked default (annotation value exactly `"true"`). */
export function defaultIngressClasses(classes: readonly Obj[]): Obj[] {
  return classes.filter((c) => strMap(obj(c.metadata)?.annotations)[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true');
}

/** The DefaultIngressClass admission plugin (mutating). */
export class DefaultIngressClass implements MutatingAdmissionPlugin {
  readonly name = 'DefaultIngressClass';

  /** @param ingressClasses the current IngressClasses (an informer cache's list). */
  constructor(private readonly ingressClasses: () => readonly Obj[]) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE';
  }

  /** @throws StatusError 403 when several IngressClasses are marked default. */
  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== '' || a.resource !== 'ingresses' || canonicalGroup(a.group) !== NETWORKING_GROUP || !a.object) return;
    const spec = obj(a.object.spec);
    if (spec?.ingressClassName != null) return;
    if (Object.hasOwn(strMap(obj(a.object.metadata)?.annotations), INGRESS_CLASS_ANNOTATION)) return;
    const defaults = defaultIngressClasses(this.ingressClasses());
    if (defaults.length === 0) return;
    if (defaults.length > 1) {
      throw admissionForbidden(a, `Internal error occurred: ${defaults.length} default IngressClasses were found, only 1 allowed`);
    }
    a.object.spec = { ...spec, ingressClassName: str(obj(defaults[0]!.metadata)?.name) };
  }
}

/** Factory of {@link DefaultIngressClass} (on by default): reads IngressClasses from their informer. */
export const defaultIngressClassPlugin: AdmissionPluginFactory = {
  name: 'DefaultIngressClass',
  create: (deps) => {
    const classes = deps.resource(NETWORKING_GROUP, 'ingressclasses');
    return new DefaultIngressClass(() => classes.lister.list());
  },
};
