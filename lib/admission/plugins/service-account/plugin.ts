/**
 * ServiceAccount (spec 001 § Admission control, default-enabled; upstream v1.30's plugin of the
 * same name), for Pods only.
 *  - Mutating, Pod create: a pod naming no service account gets `default`; the ServiceAccount must
 *    exist (informer, then live reads: up to 10 of them 100–200 ms apart for `default`, which a
 *    controller creates asynchronously, 1 for any other); unless the pod's (else the
 *    ServiceAccount's) `automountServiceAccountToken` is false, the projected token volume is
 *    added and mounted (token-volume.ts); a pod without image pull secrets gets the
 *    ServiceAccount's. Mirror pods are not changed, only checked. Then the validating checks run.
 *  - Validating, Pod create: a mirror pod may reference no service account, no secret and no
 *    token projection; any other pod needs an existing ServiceAccount, and one that enforces its
 *    mountable secrets bounds the pod's secret references (mountable-secrets.ts).
 *    Pod update of the `ephemeralcontainers` subresource: the ephemeral containers' environment
 *    is bounded the same way.
 * Rejections are 403 Forbidden with upstream's messages.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Obj, obj, objs, str } from '../../../apis/core/v1/obj-access.js';
import { podSecretNames } from '../../../apis/core/v1/pod-references.js';
import { MIRROR_POD_ANNOTATION } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginFactory, Lister } from '../../plugin-deps.js';
import { enforcesMountableSecrets, ephemeralSecretReferenceViolation, secretReferenceViolation } from './mountable-secrets.js';
import { generateTokenVolumeName, mountServiceAccountToken } from './token-volume.js';

/** The service account of a pod that names none. */
export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';

/** How the plugin reads ServiceAccounts, and how long it waits for `default`. */
export interface ServiceAccountSource {
  /** The informer's view. */
  lister: Lister;
  /** A live read; null when absent. */
  get(namespace: string, name: string): Promise<Obj | null>;
  /** Live reads of `default` before giving up (upstream 10). */
  defaultAttempts: number;
  /** The pause between two reads, in ms (upstream a random 100–199 ms). */
  retryIntervalMs(): number;
}

const isMirrorPod = (pod: Obj): boolean => Object.hasOwn(obj(obj(pod.metadata)?.annotations) ?? {}, MIRROR_POD_ANNOTATION);

/** The ServiceAccount plugin (mutating and validating phases). */
export class ServiceAccount implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = 'ServiceAccount';

  /** @param generateName the token volume's name (random unless a test fixes it). */
  constructor(
    private readonly accounts: ServiceAccountSource,
    private readonly generateName: () => string = generateTokenVolumeName,
  ) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async admit(ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (ignored(a) || a.operation !== 'CREATE') return;
    const pod = a.object!;
    if (isMirrorPod(pod)) return this.validate(ctx, a);
    const spec = obj(pod.spec) ?? {};
    pod.spec = spec;
    if (str(spec.serviceAccountName) === '') spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
    const sa = await this.serviceAccount(a, str(spec.serviceAccountName));
    if (shouldAutomount(sa, spec)) mountServiceAccountToken(spec, this.generateName);
    const pullSecrets = objs(sa.imagePullSecrets);
    if (objs(spec.imagePullSecrets).length === 0 && pullSecrets.length > 0) spec.imagePullSecrets = pullSecrets.map((r) => ({ name: str(r.name) }));
    return this.validate(ctx, a);
  }

  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (ignored(a)) return;
    const pod = a.object!;
    const spec = obj(pod.spec) ?? {};
    const podName = str(obj(pod.metadata)?.name);
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      const sa = await this.namedServiceAccount(a, spec, podName);
      if (!enforcesMountableSecrets(sa)) return;
      const why = ephemeralSecretReferenceViolation(sa, spec);
      if (why) throw admissionForbidden(a, why);
      return;
    }
    if (a.operation !== 'CREATE') return;
    if (isMirrorPod(pod)) return validateMirrorPod(a, pod, spec);
    const sa = await this.namedServiceAccount(a, spec, podName);
    if (!enforcesMountableSecrets(sa)) return;
    const why = secretReferenceViolation(sa, spec);
    if (why) throw admissionForbidden(a, why);
  }

  /** The pod's ServiceAccount; 403 when the pod names none or it does not exist. */
  private async namedServiceAccount(a: AdmissionAttributes, spec: Obj, podName: string): Promise<Obj> {
    const name = str(spec.serviceAccountName);
    if (name === '') throw admissionForbidden(a, `no service account specified for pod ${a.namespace}/${podName}`);
    return this.serviceAccount(a, name);
  }

  /**
   * The ServiceAccount `name` of the request's namespace: from the informer, else from live reads.
   * @throws StatusError 403 `error looking up service account <ns>/<name>: <why>`.
   */
  private async serviceAccount(a: AdmissionAttributes, name: string): Promise<Obj> {
    const cached = this.accounts.lister.get(a.namespace, name);
    if (cached) return cached;
    const attempts = name === DEFAULT_SERVICE_ACCOUNT_NAME ? this.accounts.defaultAttempts : 1;
    const interval = this.accounts.retryIntervalMs();
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(interval);
      let sa: Obj | null;
      try {
        sa = await this.accounts.get(a.namespace, name);
      } catch (err) {
        throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (sa) return sa;
    }
    throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
  }
}

/** Not a Pod (or its `ephemeralcontainers` subresource) with an object. */
function ignored(a: AdmissionAttributes): boolean {
  return a.group !== '' || a.resource !== 'pods' || (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') || !a.object;
}

/** The pod's choice, else the ServiceAccount's, else true (upstream `shouldAutomount`). */
function shouldAutomount(sa: Obj, spec: Obj): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
}

/** What a mirror pod may not reference (upstream's order and messages). */
function validateMirrorPod(a: AdmissionAttributes, pod: Obj, spec: Obj): void {
  if (str(spec.serviceAccountName) !== '') throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
  if (podSecretNames(pod).length > 0) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
  for (const v of objs(spec.volumes)) {
    if (objs(obj(v.projected)?.sources).some((s) => obj(s.serviceAccountToken))) {
      throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
    }
  }
}

/** Factory of {@link ServiceAccount}; starts the ServiceAccount informer. */
export const serviceAccountPlugin: AdmissionPluginFactory = {
  name: 'ServiceAccount',
  create: (deps) => {
    const accounts = deps.resource('', 'serviceaccounts');
    return new ServiceAccount({
      lister: accounts.lister,
      get: (ns, name) => accounts.get(ns, name),
      defaultAttempts: 10,
      retryIntervalMs: () => 100 + Math.floor(Math.random() * 100),
    });
  },
};
