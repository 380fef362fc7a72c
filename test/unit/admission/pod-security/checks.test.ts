import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/core/v1/obj-access.js';
import type { Check, Forbidden } from '../../../../lib/admission/plugins/pod-security/check-helpers.js';
import { DEFAULT_CHECKS } from '../../../../lib/admission/plugins/pod-security/evaluator.js';

/** Runs check `id` at policy minor `minor` (the revision in force then) against a pod's metadata and spec. */
function run(id: string, spec: Obj, meta: Obj = {}, minor = 30): Forbidden | null {
  const check = DEFAULT_CHECKS.find((c: Check) => c.id === id);
  if (!check) throw new Error(`no check ${id}`);
  const rev = [...check.versions].reverse().find((v) => v.minimumVersion <= minor);
  if (!rev) throw new Error(`check ${id} has no revision at v1.${minor}`);
  return rev.check(meta, spec);
}

const c = (name: string, securityContext?: Obj, extra: Obj = {}): Obj => ({ name, image: 'i', ...(securityContext ? { securityContext } : {}), ...extra });

describe('Pod Security checks (upstream v1.30 policy, messages byte for byte)', () => {
  it('windowsHostProcess: pod and containers', () => {
    expect(run('windowsHostProcess', { securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('a', { windowsOptions: { hostProcess: true } }), c('b', { windowsOptions: { hostProcess: false } })] })).to.deep.equal({
      reason: 'hostProcess',
      detail: 'pod and container "a" must not set securityContext.windowsOptions.hostProcess=true',
    });
    expect(run('windowsHostProcess', { containers: [c('a', { windowsOptions: {} })] })).to.equal(null);
  });

  it('hostNamespaces: the set fields, sorted', () => {
    expect(run('hostNamespaces', { hostPID: true, hostNetwork: true, hostIPC: true, containers: [] })).to.deep.equal({ reason: 'host namespaces', detail: 'hostIPC, hostNetwork, hostPID' });
    expect(run('hostNamespaces', { hostNetwork: false })).to.equal(null);
  });

  it('privileged: init, regular and ephemeral containers, in that order', () => {
    const spec = { initContainers: [c('i', { privileged: true })], containers: [c('a', { privileged: true }), c('b', { privileged: false })], ephemeralContainers: [c('e', { privileged: true })] };
    expect(run('privileged', spec)).to.deep.equal({ reason: 'privileged', detail: 'containers "i", "a", "e" must not set securityContext.privileged=true' });
  });

  it('hostPathVolumes and hostPorts', () => {
    expect(run('hostPathVolumes', { volumes: [{ name: 'a', hostPath: { path: '/' } }, { name: 'b', emptyDir: {} }, { name: 'c', hostPath: { path: '/x' } }] })).to.deep.equal({ reason: 'hostPath volumes', detail: 'volumes "a", "c"' });
    expect(run('hostPorts', { containers: [c('a', undefined, { ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 90, hostPort: 10000 }] }), c('b', undefined, { ports: [{ containerPort: 1, hostPort: 0 }] })] })).to.deep.equal({
      reason: 'hostPort',
      detail: 'container "a" uses hostPorts 10000, 8080',
    });
  });

  it('capabilities_baseline: only the default set may be added', () => {
    const spec = { containers: [c('a', { capabilities: { add: ['NET_RAW', 'CHOWN', 'SYS_ADMIN'] } }), c('b', { capabilities: { add: ['KILL'] } })] };
    expect(run('capabilities_baseline', spec)).to.deep.equal({ reason: 'non-default capabilities', detail: 'container "a" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add' });
  });

  it('capabilities_restricted: drop ALL, add only NET_BIND_SERVICE; Windows pods exempt from v1.25', () => {
    const spec = { containers: [c('a'), c('b', { capabilities: { drop: ['NET_RAW'], add: ['NET_BIND_SERVICE', 'CHOWN'] } }), c('c', { capabilities: { drop: ['ALL'] } })] };
    expect(run('capabilities_restricted', spec)).to.deep.equal({
      reason: 'unrestricted capabilities',
      detail: 'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; container "b" must not include "CHOWN" in securityContext.capabilities.add',
    });
    const windows = { ...spec, os: { name: 'windows' } };
    expect(run('capabilities_restricted', windows, {}, 25)).to.equal(null);
    expect(run('capabilities_restricted', windows, {}, 24)).to.not.equal(null);
  });

  it('appArmorProfile: field types and annotations, in either spelling', () => {
    expect(run('appArmorProfile', { securityContext: { appArmorProfile: { type: 'Unconfined' } } })).to.deep.equal({ reason: 'forbidden AppArmor profile', detail: 'pod must not set AppArmor profile type to "Unconfined"' });
    expect(run('appArmorProfile', { containers: [c('foo', { appArmorProfile: { type: 'Unconfined' } }), c('ok', { appArmorProfile: { type: 'Localhost', localhostProfile: 'p' } })] })).to.deep.equal({
      reason: 'forbidden AppArmor profile',
      detail: 'container "foo" must not set AppArmor profile type to "Unconfined"',
    });
    const meta = {
      annotations: {
        'container.apparmor.security.beta.kubernetes.io/': 'bogus',
        'container.apparmor.security.beta.kubernetes.io/a': '',
        'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
        'container.apparmor.security.beta.kubernetes.io/d': 'localhost/foo',
        'container.apparmor.security.beta.kubernetes.io/e': 'unconfined',
        'container.apparmor.security.beta.orch.io/f': 'unknown',
      },
    };
    expect(run('appArmorProfile', {}, meta)).to.deep.equal({
      reason: 'forbidden AppArmor profiles',
      detail:
        'annotations must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/="bogus"", "container.apparmor.security.beta.kubernetes.io/e="unconfined"", "container.apparmor.security.beta.orch.io/f="unknown""',
    });
  });

  it('seLinuxOptions: types, user and role', () => {
    const spec = { securityContext: { seLinuxOptions: { type: 'bar', user: 'u' } }, containers: [c('a', { seLinuxOptions: { type: 'container_t', role: 'r' } }), c('b', { seLinuxOptions: { type: 'foo' } })] };
    expect(run('seLinuxOptions', spec)).to.deep.equal({
      reason: 'seLinuxOptions',
      detail: 'pod and containers "a", "b" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set',
    });
    expect(run('seLinuxOptions', { containers: [c('a', { seLinuxOptions: { type: 'container_init_t', level: 's0' } })] })).to.equal(null);
  });

  it('seccompProfile_baseline: annotations before v1.19, fields from v1.19', () => {
    const meta = { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/a': 'docker/default', 'container.seccomp.security.alpha.orch.io/b': 'x' } };
    const spec = { containers: [c('a'), c('b')] };
    expect(run('seccompProfile_baseline', spec, meta, 18)).to.deep.equal({
      reason: 'seccompProfile',
      detail: 'forbidden annotations container.seccomp.security.alpha.orch.io/b="x", seccomp.security.alpha.kubernetes.io/pod="unconfined"',
    });
    expect(run('seccompProfile_baseline', spec, meta, 19)).to.equal(null);
    expect(run('seccompProfile_baseline', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } })] })).to.deep.equal({
      reason: 'seccompProfile',
      detail: 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"',
    });
  });

  it('seccompProfile_restricted: required at pod or container level; Windows pods exempt from v1.25', () => {
    const spec = { containers: [c('a'), c('b', { seccompProfile: { type: 'RuntimeDefault' } }), c('c')] };
    expect(run('seccompProfile_restricted', spec)).to.deep.equal({ reason: 'seccompProfile', detail: 'pod or containers "a", "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"' });
    expect(run('seccompProfile_restricted', { ...spec, securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } } })).to.equal(null);
    expect(run('seccompProfile_restricted', { ...spec, os: { name: 'windows' } })).to.equal(null);
  });

  it('procMount and sysctls (safe set per version)', () => {
    expect(run('procMount', { containers: [c('a', { procMount: 'Unmasked' }), c('b', { procMount: 'Default' })] })).to.deep.equal({ reason: 'procMount', detail: 'container "a" must not set securityContext.procMount to "Unmasked"' });
    const spec = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '1' }, { name: 'net.ipv4.ip_local_reserved_ports', value: '1' }, { name: 'kernel.msgmax', value: '1' }] } };
    expect(run('sysctls', spec, {}, 26)).to.deep.equal({ reason: 'forbidden sysctls', detail: 'net.ipv4.tcp_keepalive_time, net.ipv4.ip_local_reserved_ports, kernel.msgmax' });
    expect(run('sysctls', spec, {}, 28)).to.deep.equal({ reason: 'forbidden sysctls', detail: 'net.ipv4.tcp_keepalive_time, kernel.msgmax' });
    expect(run('sysctls', spec, {}, 29)).to.deep.equal({ reason: 'forbidden sysctls', detail: 'kernel.msgmax' });
  });

  it('restrictedVolumes: the first restricted source of each volume, or unknown', () => {
    const spec = { volumes: [{ name: 'a', hostPath: { path: '/' } }, { name: 'b', configMap: { name: 'x' } }, { name: 'c', nfs: { server: 's', path: '/' } }, { name: 'd' }] };
    expect(run('restrictedVolumes', spec)).to.deep.equal({ reason: 'restricted volume types', detail: 'volumes "a", "c", "d" use restricted volume types "hostPath", "nfs", "unknown"' });
    expect(run('restrictedVolumes', { volumes: [{ name: 'a', gitRepo: { repository: 'r' } }] })).to.deep.equal({ reason: 'restricted volume types', detail: 'volume "a" uses restricted volume type "gitRepo"' });
  });

  it('allowPrivilegeEscalation, runAsNonRoot and runAsUser', () => {
    const spec = { containers: [c('a'), c('b', {}), c('c', { allowPrivilegeEscalation: true }), c('d', { allowPrivilegeEscalation: false })] };
    expect(run('allowPrivilegeEscalation', spec)).to.deep.equal({ reason: 'allowPrivilegeEscalation != false', detail: 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false' });
    expect(run('runAsNonRoot', { containers: [c('a'), c('b', { runAsNonRoot: true })] })).to.deep.equal({ reason: 'runAsNonRoot != true', detail: 'pod or container "a" must set securityContext.runAsNonRoot=true' });
    expect(run('runAsNonRoot', { securityContext: { runAsNonRoot: false }, containers: [c('a', { runAsNonRoot: false }), c('b')] })).to.deep.equal({
      reason: 'runAsNonRoot != true',
      detail: 'pod and container "a" must not set securityContext.runAsNonRoot=false',
    });
    expect(run('runAsNonRoot', { securityContext: { runAsNonRoot: true }, containers: [c('a')] })).to.equal(null);
    expect(run('runAsUser', { securityContext: { runAsUser: 0 }, containers: [c('a', { runAsUser: 0 }), c('b', { runAsUser: 1000 })] })).to.deep.equal({ reason: 'runAsUser=0', detail: 'pod and container "a" must not set runAsUser=0' });
  });
});
