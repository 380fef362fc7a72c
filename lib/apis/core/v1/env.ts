/**
 * core/v1 environment of a container: EnvVar with its value sources (downward API field and
 * resource selectors, ConfigMap and Secret keys) and EnvFromSource. As upstream v1.30; the
 * downward API `apiVersion` defaults to `v1` (`SetDefaults_ObjectFieldSelector`).
 */
import { boolean, field, quantity, string, struct } from '../../../apimachinery/schema/builder.js';
import { CORE, inlined, localObjectReference } from './references.js';

/** Selects a field of the pod (downward API). */
export const objectFieldSelector = struct(
  `${CORE}.ObjectFieldSelector`,
  {
    apiVersion: field(1, string, { default: 'v1' }),
    fieldPath: field(2, string, { required: true, omitEmpty: false }),
  },
  { mapType: 'atomic' },
);

/** Selects a resource request or limit of a container (downward API). */
export const resourceFieldSelector = struct(
  `${CORE}.ResourceFieldSelector`,
  {
    containerName: field(1, string),
    resource: field(2, string, { required: true, omitEmpty: false }),
    divisor: field(3, quantity, { omitEmpty: false }),
  },
  { mapType: 'atomic' },
);

/** Selects a key of a ConfigMap. */
export const configMapKeySelector = struct(
  `${CORE}.ConfigMapKeySelector`,
  {
    ...inlined(1, localObjectReference),
    key: field(2, string, { required: true, omitEmpty: false }),
    optional: field(3, boolean),
  },
  { mapType: 'atomic' },
);

/** Selects a key of a Secret. */
export const secretKeySelector = struct(
  `${CORE}.SecretKeySelector`,
  {
    ...inlined(1, localObjectReference),
    key: field(2, string, { required: true, omitEmpty: false }),
    optional: field(3, boolean),
  },
  { mapType: 'atomic' },
);

/** Where an environment variable's value comes from: exactly one source. */
export const envVarSource = struct(`${CORE}.EnvVarSource`, {
  fieldRef: field(1, objectFieldSelector),
  resourceFieldRef: field(2, resourceFieldSelector),
  configMapKeyRef: field(3, configMapKeySelector),
  secretKeyRef: field(4, secretKeySelector),
});

/** One environment variable of a container. */
export const envVar = struct(
  `${CORE}.EnvVar`,
  {
    name: field(1, string, { required: true, omitEmpty: false }),
    value: field(2, string),
    valueFrom: field(3, envVarSource),
  },
  { description: 'An environment variable of a container: a literal value or a reference.' },
);

/** Imports every key of a ConfigMap as environment variables. */
export const configMapEnvSource = struct(`${CORE}.ConfigMapEnvSource`, {
  ...inlined(1, localObjectReference),
  optional: field(2, boolean),
});

/** Imports every key of a Secret as environment variables. */
export const secretEnvSource = struct(`${CORE}.SecretEnvSource`, {
  ...inlined(1, localObjectReference),
  optional: field(2, boolean),
});

/** A ConfigMap or Secret whose keys become environment variables, with an optional prefix. */
export const envFromSource = struct(`${CORE}.EnvFromSource`, {
  prefix: field(1, string),
  configMapRef: field(2, configMapEnvSource),
  secretRef: field(3, secretEnvSource),
});
