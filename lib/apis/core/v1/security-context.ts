/**
 * core/v1 security settings: container SecurityContext and pod-level PodSecurityContext with
 * the types they reach (Capabilities, SELinuxOptions, WindowsSecurityContextOptions,
 * SeccompProfile, AppArmorProfile, Sysctl). Field set and numbers as upstream v1.30.
 */
import { boolean, enumOf, field, int64, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { CORE } from './references.js';

/** POSIX capabilities added to and dropped from a container. */
export const capabilities = struct(`${CORE}.Capabilities`, {
  add: field(1, listOf(string, { listType: 'atomic' })),
  drop: field(2, listOf(string, { listType: 'atomic' })),
});

/** SELinux labels applied to a container. */
export const seLinuxOptions = struct(`${CORE}.SELinuxOptions`, {
  user: field(1, string),
  role: field(2, string),
  type: field(3, string),
  level: field(4, string),
});

/** Windows-specific options (GMSA, user name, host process). */
export const windowsSecurityContextOptions = struct(`${CORE}.WindowsSecurityContextOptions`, {
  gmsaCredentialSpecName: field(1, string, { pointer: true }),
  gmsaCredentialSpec: field(2, string, { pointer: true }),
  runAsUserName: field(3, string, { pointer: true }),
  hostProcess: field(4, boolean),
});

/** The profile types of seccomp and AppArmor, in upstream order. */
export const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** A seccomp profile: `type` (a union discriminator) and, for Localhost, the profile path. */
export const seccompProfile = struct(`${CORE}.SeccompProfile`, {
  type: field(1, enumOf(...PROFILE_TYPES), { omitEmpty: false }),
  localhostProfile: field(2, string, { pointer: true }),
});

/** An AppArmor profile: `type` and, for Localhost, the loaded profile name. */
export const appArmorProfile = struct(`${CORE}.AppArmorProfile`, {
  type: field(1, enumOf(...PROFILE_TYPES), { omitEmpty: false }),
  localhostProfile: field(2, string, { pointer: true }),
});

/** A namespaced kernel parameter set for the pod. */
export const sysctl = struct(`${CORE}.Sysctl`, {
  name: field(1, string, { required: true, omitEmpty: false }),
  value: field(2, string, { required: true, omitEmpty: false }),
});

/** Security settings of one container; they override the pod-level ones. */
export const securityContext = struct(
  `${CORE}.SecurityContext`,
  {
    capabilities: field(1, capabilities),
    privileged: field(2, boolean),
    seLinuxOptions: field(3, seLinuxOptions),
    windowsOptions: field(10, windowsSecurityContextOptions),
    runAsUser: field(4, int64),
    runAsGroup: field(8, int64),
    runAsNonRoot: field(5, boolean),
    readOnlyRootFilesystem: field(6, boolean),
    allowPrivilegeEscalation: field(7, boolean),
    procMount: field(9, enumOf('Default', 'Unmasked')),
    seccompProfile: field(11, seccompProfile),
    appArmorProfile: field(12, appArmorProfile),
  },
  { description: 'Security settings of a container; they take precedence over the pod-level ones.' },
);

/** Pod-level security attributes and container defaults (defaulted to `{}` in a PodSpec). */
export const podSecurityContext = struct(
  `${CORE}.PodSecurityContext`,
  {
    seLinuxOptions: field(1, seLinuxOptions),
    windowsOptions: field(8, windowsSecurityContextOptions),
    runAsUser: field(2, int64),
    runAsGroup: field(6, int64),
    runAsNonRoot: field(3, boolean),
    supplementalGroups: field(4, listOf(int64, { listType: 'atomic' })),
    fsGroup: field(5, int64),
    sysctls: field(7, listOf(sysctl, { listType: 'atomic' })),
    fsGroupChangePolicy: field(9, enumOf('Always', 'OnRootMismatch')),
    seccompProfile: field(10, seccompProfile),
    appArmorProfile: field(11, appArmorProfile),
  },
  { description: 'Pod-level security attributes and common container settings.' },
);
