/**
 * AlwaysPullImages (spec 001 § Admission control; upstream v1.30's plugin of the same name): every
 * container of a Pod created or updated — init containers, containers and ephemeral containers —
 * gets `imagePullPolicy: Always`, so that a node pulls (and so checks the credentials for) each
 * image instead of reusing one another pod pulled. Mutating and validating: the validating phase
 * rejects a Pod a later mutation left with another policy (403, one error per container, upstream's
 * `Unsupported value` field error). Subresources are ignored, and so is an update that brings no
 * image the old Pod did not have.
 */
import { aggregateMessage, StatusError } from '../../apimachinery/errors.js';
import { FieldPath, fieldErrorString, notSupported } from '../../apimachinery/field-errors.js';
import type { Obj } from '../../apis/define.js';
import { obj, objs, str } from '../../apis/core/v1/obj-access.js';
import type { RequestContext } from '../../request/context.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory } from '../plugin-deps.js';

const PULL_ALWAYS = 'Always';
/** The container lists of a pod spec, in upstream's visiting order (`VisitContainersWithPath`). */
const CONTAINER_FIELDS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Every container of `pod` with its field path (`spec.initContainers[0]` …), in upstream's order. */
export function podContainers(pod: Obj | null): { container: Obj; path: FieldPath }[] {
  const spec = obj(pod?.spec) ?? {};
  return CONTAINER_FIELDS.flatMap((field) => objs(spec[field]).map((container, i) => ({ container, path: FieldPath.of('spec', field).index(i) })));
}

/** True for an UPDATE whose new Pod uses only images the old Pod already had (upstream `isUpdateWithNoNewImages`). */
function isUpdateWithNoNewImages(a: AdmissionAttributes): boolean {
  if (a.operation !== 'UPDATE') return false;
  const old = new Set(podContainers(a.oldObject).map(({ container }) => str(container.image)));
  return podContainers(a.object).every(({ container }) => old.has(str(container.image)));
}

/** True when the plugin leaves the request alone: not the pods resource itself, or an update without new images. */
function shouldIgnore(a: AdmissionAttributes): boolean {
  return a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || !a.object || isUpdateWithNoNewImages(a);
}

/** The AlwaysPullImages admission plugin (mutating and validating). */
export class AlwaysPullImages implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = 'AlwaysPullImages';

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  /** Sets `imagePullPolicy: Always` on every container. */
  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (shouldIgnore(a)) return;
    for (const { container } of podContainers(a.object)) container.imagePullPolicy = PULL_ALWAYS;
  }

  /**
   * @throws StatusError 403 `pods "<name>" is forbidden: spec.containers[0].imagePullPolicy:
   * Unsupported value: "IfNotPresent": supported values: "Always"` (several: Go's aggregate
   * `[…, …]` of those messages).
   */
  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (shouldIgnore(a)) return;
    const errors = podContainers(a.object)
      .filter(({ container }) => container.imagePullPolicy !== PULL_ALWAYS)
      .map(({ container, path }) => admissionForbidden(a, fieldErrorString(notSupported(path.child('imagePullPolicy'), str(container.imagePullPolicy), [PULL_ALWAYS]))));
    if (errors.length === 0) return;
    if (errors.length === 1) throw errors[0]!;
    throw new StatusError({ ...errors[0]!.status, message: aggregateMessage(errors.map((e) => e.status.message ?? '')) });
  }
}

/** Factory of {@link AlwaysPullImages} (off by default). */
export const alwaysPullImagesPlugin: AdmissionPluginFactory = {
  name: 'AlwaysPullImages',
  create: () => new AlwaysPullImages(),
};
