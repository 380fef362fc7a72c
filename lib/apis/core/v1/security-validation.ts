/**
 * Validation of pod and container security contexts with the upstream paths and messages: user
 * and group ids, sysctls, seccomp and AppArmor profiles, Windows options, privilege escalation.
 * Privileged containers are allowed (the upstream `--allow-privileged` policy is not modelled).
 */
import { duplicate, type FieldError, type FieldPath, invalid, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isValidGroupID, isValidUserID } from '../../../apimachinery/validation/formats.js';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { list, num, obj, objs, str, type Obj } from './obj-access.js';
import { validateLocalDescendingPath } from './volume-validation.js';

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_RE = `^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`;
const reSysctl = new RegExp(SYSCTL_RE);
const IPC_SYSCTLS = new Set(['kernel.shm_rmid_forced', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni']);

function validateId(value: unknown, check: (n: number) => string[], path: FieldPath): FieldError[] {
  const n = num(value);
  return n === undefined ? [] : check(n).map((m) => invalid(path, n, m));
}

function validateSysctls(sc: Obj, spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(sc.sysctls).forEach((s, i) => {
    const name = str(s.name);
    const p = path.index(i).child('name');
    if (name && (name.length > 253 || !reSysctl.test(name))) errs.push(invalid(p, name, `must have at most 253 characters and match regex ${SYSCTL_RE}`));
    else if (name && seen.has(name)) errs.push(duplicate(p, name));
    const normalized = name.replaceAll('/', '.');
    if (spec.hostNetwork === true && normalized.startsWith('net.')) errs.push(invalid(p, name, "may not be specified when 'hostNetwork' is true"));
    if (spec.hostIPC === true && (IPC_SYSCTLS.has(normalized) || normalized.startsWith('fs.mqueue.')))
      errs.push(invalid(p, name, "may not be specified when 'hostIPC' is true"));
    seen.add(name);
  });
  return errs;
}

function validateSeccompProfile(sp: unknown, path: FieldPath): FieldError[] {
  const p = obj(sp);
  if (!p) return [];
  const errs: FieldError[] = [];
  if (!str(p.type)) errs.push(required(path.child('type'), 'type is required when seccompProfile is set'));
  if (p.type === 'Localhost') {
    if (typeof p.localhostProfile !== 'string') errs.push(required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(p.localhostProfile, path.child('localhostProfile')));
  } else if (p.localhostProfile !== undefined) {
    errs.push(invalid(path.child('localhostProfile'), p, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function validateAppArmorProfile(ap: unknown, path: FieldPath): FieldError[] {
  const p = obj(ap);
  if (!p) return [];
  const localhost = p.localhostProfile;
  switch (p.type) {
    case 'Localhost': {
      const need = required(path.child('localhostProfile'), 'must be set when AppArmor type is Localhost');
      if (typeof localhost !== 'string') return [need];
      const errs: FieldError[] = [];
      if (localhost.trim() !== localhost) errs.push(invalid(path.child('localhostProfile'), localhost, 'must not be padded with whitespace'));
      else if (localhost === '') errs.push(need);
      if (localhost.length > 4095) errs.push(tooLong(path.child('localhostProfile'), '', 4095));
      return errs;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      return localhost === undefined ? [] : [invalid(path.child('localhostProfile'), localhost, 'can only be set when AppArmor type is Localhost')];
    case undefined:
    case '':
      return [required(path.child('type'), 'type is required when appArmorProfile is set')];
    default:
      return [];
  }
}

function validateWindowsOptions(wo: unknown, path: FieldPath): FieldError[] {
  const w = obj(wo);
  if (!w) return [];
  const errs: FieldError[] = [];
  if (typeof w.gmsaCredentialSpecName === 'string')
    errs.push(...isDNS1123Subdomain(w.gmsaCredentialSpecName).map((m) => invalid(path.child('gmsaCredentialSpecName'), w.gmsaCredentialSpecName, m)));
  if (typeof w.gmsaCredentialSpec === 'string') {
    if (w.gmsaCredentialSpec.length === 0) errs.push(invalid(path.child('gmsaCredentialSpec'), '', 'gmsaCredentialSpec cannot be an empty string'));
    else if (w.gmsaCredentialSpec.length > 64 * 1024) errs.push(invalid(path.child('gmsaCredentialSpec'), w.gmsaCredentialSpec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  if (typeof w.runAsUserName === 'string') {
    const name = w.runAsUserName;
    const p = path.child('runAsUserName');
    if (name.length === 0) errs.push(invalid(p, name, 'runAsUserName cannot be an empty string'));
    else if ([...name].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) errs.push(invalid(p, name, 'runAsUserName cannot contain control characters'));
    else if (name.split('\\').length > 2) errs.push(invalid(p, name, 'runAsUserName cannot contain more than one backslash'));
  }
  return errs;
}

/**
 * Validates `spec.securityContext` (at `path`); `spec` gives the host namespace settings that
 * constrain sysctls and process namespace sharing.
 */
export function validatePodSecurityContext(securityContext: unknown, spec: Obj, path: FieldPath): FieldError[] {
  const sc = obj(securityContext);
  if (!sc) return [];
  const errs = [
    ...validateId(sc.fsGroup, isValidGroupID, path.child('fsGroup')),
    ...validateId(sc.runAsUser, isValidUserID, path.child('runAsUser')),
    ...validateId(sc.runAsGroup, isValidGroupID, path.child('runAsGroup')),
  ];
  list(sc.supplementalGroups).forEach((g, i) => errs.push(...validateId(g, isValidGroupID, path.child('supplementalGroups').index(i))));
  if (spec.shareProcessNamespace === true && spec.hostPID === true)
    errs.push(invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  errs.push(...validateSysctls(sc, spec, path.child('sysctls')));
  errs.push(...validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')));
  errs.push(...validateAppArmorProfile(sc.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}

/** Validates a container's `securityContext` at `path`; `hostUsers` is the pod's (default true). */
export function validateSecurityContext(securityContext: unknown, hostUsers: boolean, path: FieldPath): FieldError[] {
  const sc = obj(securityContext);
  if (!sc) return [];
  const errs = [...validateId(sc.runAsUser, isValidUserID, path.child('runAsUser')), ...validateId(sc.runAsGroup, isValidGroupID, path.child('runAsGroup'))];
  if (hostUsers && sc.procMount === 'Unmasked') errs.push(invalid(path.child('procMount'), sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  errs.push(...validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    if (list(obj(sc.capabilities)?.add).includes('CAP_SYS_ADMIN'))
      errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
  }
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')));
  errs.push(...validateAppArmorProfile(sc.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}
