/**
 * DefaultTolerationSeconds (spec 001 § Admission control, default-enabled; upstream v1.30's
 * plugin of the same name): every pod tolerates the node conditions not-ready and unreachable
 * for a bounded time. On a Pod create or update (not a subresource), a pod without a toleration
 * covering `node.<vendor>/not-ready:NoExecute` gets `{key, operator: Exists, effect: NoExecute,
 * tolerationSeconds: --default-not-ready-toleration-seconds}`, and likewise for
 * `node.<vendor>/unreachable` with `--default-unreachable-toleration-seconds` (both default 300).
 * A toleration covers the taint when its key is the taint's or empty and its effect is NoExecute
 * or empty (upstream's rule: operator and value are not looked at).
 */
import { type Obj, list, obj, objs, str } from '../../apis/core/v1/obj-access.js';
import { TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory } from '../plugin-deps.js';

/** Whether one of `tolerations` covers the NoExecute taint `key` (upstream's test, see above). */
export function toleratesNoExecute(tolerations: readonly Obj[], key: string): boolean {
  return tolerations.some((t) => (str(t.key) === key || str(t.key) === '') && (str(t.effect) === 'NoExecute' || str(t.effect) === ''));
}

/**
 * Appends the default not-ready and unreachable tolerations a pod lacks, in that order, to
 * `pod.spec.tolerations` (seconds as given). Mutates `pod`.
 */
export function addDefaultTolerations(pod: Obj, notReadySeconds: number, unreachableSeconds: number): void {
  const spec = obj(pod.spec) ?? {};
  const existing = objs(spec.tolerations);
  const added: Obj[] = [];
  for (const [key, seconds] of [
    [TAINT_NODE_NOT_READY, notReadySeconds],
    [TAINT_NODE_UNREACHABLE, unreachableSeconds],
  ] as const) {
    if (!toleratesNoExecute(existing, key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  }
  if (added.length === 0) return;
  pod.spec = spec;
  spec.tolerations = [...list(spec.tolerations), ...added];
}

/** The DefaultTolerationSeconds plugin (mutating phase). */
export class DefaultTolerationSeconds implements MutatingAdmissionPlugin {
  readonly name = 'DefaultTolerationSeconds';

  /** @param notReadySeconds, unreachableSeconds the tolerationSeconds of the two tolerations it adds. */
  constructor(
    private readonly notReadySeconds: number,
    private readonly unreachableSeconds: number,
  ) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object) return;
    addDefaultTolerations(a.object, this.notReadySeconds, this.unreachableSeconds);
  }
}

/** Factory of {@link DefaultTolerationSeconds}; the seconds come from the admission flags. */
export const defaultTolerationSecondsPlugin: AdmissionPluginFactory = {
  name: 'DefaultTolerationSeconds',
  create: (deps) => new DefaultTolerationSeconds(deps.options.defaultNotReadyTolerationSeconds, deps.options.defaultUnreachableTolerationSeconds),
};
