/**
 * The service-account token volume the ServiceAccount admission plugin adds to a new pod (spec
 * 001 § Admission control; upstream v1.30 `mountServiceAccountToken` and `TokenVolumeSource`):
 * a projected volume `kube-api-access-<5 random characters>` of a bound token, the root CA bundle
 * and the namespace, mounted read-only in every init and regular container (not ephemeral ones)
 * at {@link SERVICE_ACCOUNT_TOKEN_MOUNT_PATH}.
 */
import { randomInt } from 'node:crypto';
import { type Obj, list, objs, str } from '../../../apis/core/v1/obj-access.js';
import { ROOT_CA_CONFIGMAP_NAME, SERVICE_ACCOUNT_TOKEN_MOUNT_PATH } from '../../../apis/vendor.js';

/** The name prefix of the token volume (upstream `kube-api-access`, followed by `-`). */
export const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
/**
 * The token's lifetime in seconds (upstream `WarnOnlyBoundTokenExpirationSeconds`, one hour and
 * seven seconds: the issuer recognises it and may extend it).
 */
export const TOKEN_EXPIRATION_SECONDS = 3607;
/** The projected volume's file mode (0644, upstream `ProjectedVolumeSourceDefaultMode`, set explicitly). */
export const TOKEN_VOLUME_DEFAULT_MODE = 420;

/** Characters of generated name suffixes (no vowels, no confusable digits), as upstream's name generator. */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `kube-api-access-` followed by 5 random characters. */
export function generateTokenVolumeName(): string {
  let s = TOKEN_VOLUME_PREFIX;
  for (let i = 0; i < 5; i++) s += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return s;
}

/** A new projected volume source of the token, the root CA bundle and the namespace (upstream's exact shape). */
export function tokenVolumeSource(): Obj {
  return {
    defaultMode: TOKEN_VOLUME_DEFAULT_MODE,
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: ROOT_CA_CONFIGMAP_NAME, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/**
 * Mounts the token volume in every init and regular container of `spec` that mounts nothing at
 * the token path yet, and adds the volume when a container got the mount. A volume whose name
 * starts with `kube-api-access-` is taken as the token volume (mounted, not added again).
 * Mutates `spec`.
 * @param generateName the new volume's name (called only when there is no token volume yet).
 */
export function mountServiceAccountToken(spec: Obj, generateName: () => string = generateTokenVolumeName): void {
  const existing = objs(spec.volumes).find((v) => str(v.name).startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName = existing ? str(existing.name) : generateName();
  let needsVolume = false;
  for (const c of [...objs(spec.initContainers), ...objs(spec.containers)]) {
    if (objs(c.volumeMounts).some((m) => str(m.mountPath) === SERVICE_ACCOUNT_TOKEN_MOUNT_PATH)) continue;
    c.volumeMounts = [...list(c.volumeMounts), { name: volumeName, readOnly: true, mountPath: SERVICE_ACCOUNT_TOKEN_MOUNT_PATH }];
    needsVolume = true;
  }
  if (!existing && needsVolume) spec.volumes = [...list(spec.volumes), { name: volumeName, projected: tokenVolumeSource() }];
}
