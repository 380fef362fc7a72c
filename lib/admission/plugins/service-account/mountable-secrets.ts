/**
 * The mountable-secrets rule of the ServiceAccount admission plugin (spec 001 § Admission
 * control; upstream v1.30 `limitSecretReferences` and `limitEphemeralContainerSecretReferences`):
 * a ServiceAccount annotated {@link ENFORCE_MOUNTABLE_SECRETS_ANNOTATION} `"true"` limits its pods
 * to the Secrets it lists in `secrets` (for secret volumes and environment references) and in
 * `imagePullSecrets` (for the pod's image pull secrets).
 */
import { type Obj, obj, objs, str } from '../../../apis/core/v1/obj-access.js';
import { ENFORCE_MOUNTABLE_SECRETS_ANNOTATION } from '../../../apis/vendor.js';

/** Go's strconv.ParseBool: the accepted spellings of true. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Whether the ServiceAccount enforces its mountable secrets (annotation parsed as Go's ParseBool; unparsable is false). */
export function enforcesMountableSecrets(sa: Obj): boolean {
  const annotations = obj(obj(sa.metadata)?.annotations) ?? {};
  return GO_TRUE.has(str(annotations[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION]));
}

/** The names of `list` (a list of `{name}` references). */
function refNames(refs: unknown): Set<string> {
  return new Set(objs(refs).map((r) => str(r.name)));
}

/**
 * Why a container's environment may not be used: the first `env[].valueFrom.secretKeyRef` or
 * `envFrom[].secretRef` naming a secret outside `mountable`, worded with `label` (`container`,
 * `init container`, `ephemeral container`); undefined when all are allowed.
 */
function containerEnvViolation(label: string, c: Obj, mountable: ReadonlySet<string>, saName: string): string | undefined {
  const tail = `is not allowed because service account ${saName} does not reference that secret`;
  for (const e of objs(c.env)) {
    const ref = obj(obj(e.valueFrom)?.secretKeyRef);
    if (ref && !mountable.has(str(ref.name))) {
      return `${label} ${str(c.name)} with envVar ${str(e.name)} referencing secret.secretName="${str(ref.name)}" ${tail}`;
    }
  }
  for (const e of objs(c.envFrom)) {
    const ref = obj(e.secretRef);
    if (ref && !mountable.has(str(ref.name))) return `${label} ${str(c.name)} with envFrom referencing secret.secretName="${str(ref.name)}" ${tail}`;
  }
  return undefined;
}

/**
 * Why the pod spec may not be created under `sa` (upstream's messages, first violation in
 * upstream's order: secret volumes, init containers, containers, image pull secrets), or
 * undefined when every reference is allowed.
 */
export function secretReferenceViolation(sa: Obj, spec: Obj): string | undefined {
  const saName = str(obj(sa.metadata)?.name);
  const mountable = refNames(sa.secrets);
  for (const v of objs(spec.volumes)) {
    const secret = obj(v.secret);
    if (secret && !mountable.has(str(secret.secretName))) {
      return `volume with secret.secretName="${str(secret.secretName)}" is not allowed because service account ${saName} does not reference that secret`;
    }
  }
  for (const c of objs(spec.initContainers)) {
    const why = containerEnvViolation('init container', c, mountable, saName);
    if (why) return why;
  }
  for (const c of objs(spec.containers)) {
    const why = containerEnvViolation('container', c, mountable, saName);
    if (why) return why;
  }
  const pullSecrets = refNames(sa.imagePullSecrets);
  const pull = objs(spec.imagePullSecrets);
  for (let i = 0; i < pull.length; i++) {
    const name = str(pull[i]!.name);
    if (!pullSecrets.has(name)) {
      return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** As {@link secretReferenceViolation}, for the ephemeral containers of the spec (an `ephemeralcontainers` update). */
export function ephemeralSecretReferenceViolation(sa: Obj, spec: Obj): string | undefined {
  const saName = str(obj(sa.metadata)?.name);
  const mountable = refNames(sa.secrets);
  for (const c of objs(spec.ephemeralContainers)) {
    const why = containerEnvViolation('ephemeral container', c, mountable, saName);
    if (why) return why;
  }
  return undefined;
}
