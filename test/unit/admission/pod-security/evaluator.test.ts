import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/core/v1/obj-access.js';
import type { LevelVersion } from '../../../../lib/admission/plugins/pod-security/api.js';
import { DEFAULT_CHECKS, Evaluator, forbiddenDetail, forbiddenReason } from '../../../../lib/admission/plugins/pod-security/evaluator.js';

const evaluator = new Evaluator(DEFAULT_CHECKS);
const at = (level: LevelVersion['level'], version: LevelVersion['version']): LevelVersion => ({ level, version });
const detail = (lv: LevelVersion, spec: Obj, meta: Obj = {}) => forbiddenDetail(evaluator.evaluate(lv, meta, spec));

/** A pod as `kubectl run` makes it: one container, no security context. */
const plain: Obj = { containers: [{ name: 'c', image: 'nginx' }] };
/** A pod that passes restricted. */
const hardened: Obj = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
};

describe('Pod Security evaluator (levels, versions, upstream message order)', () => {
  it('privileged runs no check; the newest revision is v1.29 and later versions and latest use it', () => {
    expect(evaluator.evaluate(at('privileged', 'latest'), {}, { hostPID: true })).to.deep.equal({ allowed: true, forbidden: [] });
    expect(evaluator.maxVersion).to.equal(29);
    const sysctl = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_fin_timeout', value: '1' }] } };
    expect(evaluator.evaluate(at('baseline', 30), {}, sysctl).allowed).to.equal(true);
    expect(evaluator.evaluate(at('baseline', 'latest'), {}, sysctl).allowed).to.equal(true);
    expect(detail(at('baseline', 28), sysctl)).to.equal('forbidden sysctls (net.ipv4.tcp_fin_timeout)');
  });

  it('restricted:latest on a plain pod: the four violations in upstream order', () => {
    expect(detail(at('restricted', 'latest'), plain)).to.equal(
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    expect(evaluator.evaluate(at('restricted', 'latest'), {}, hardened).allowed).to.equal(true);
    expect(evaluator.evaluate(at('baseline', 'latest'), {}, plain).allowed).to.equal(true);
  });

  it('baseline checks come first (sorted by id), restricted ones after; a restricted check replaces the baseline one it overrides', () => {
    const spec = {
      hostNetwork: true,
      volumes: [{ name: 'h', hostPath: { path: '/' } }],
      containers: [{ name: 'c', image: 'i', securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] }, seccompProfile: { type: 'Unconfined' } } }],
    };
    const baseline = evaluator.evaluate(at('baseline', 'latest'), {}, spec);
    expect(forbiddenReason(baseline)).to.equal('non-default capabilities, host namespaces, hostPath volumes, privileged, seccompProfile');
    const restricted = evaluator.evaluate(at('restricted', 'latest'), {}, spec);
    expect(forbiddenReason(restricted)).to.equal(
      'host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile',
    );
  });

  it('checks apply from the version they were introduced in', () => {
    const spec = { containers: [{ name: 'c', image: 'i', securityContext: { runAsUser: 0, runAsNonRoot: true, capabilities: { add: ['SYS_ADMIN'] } } }] };
    // v1.0: no allowPrivilegeEscalation (1.8), no capabilities_restricted (1.22: the baseline capabilities check stays), no runAsUser (1.23), no restricted seccomp (1.19).
    expect(forbiddenReason(evaluator.evaluate(at('restricted', 0), {}, spec))).to.equal('non-default capabilities');
    expect(forbiddenReason(evaluator.evaluate(at('restricted', 21), {}, spec))).to.equal('non-default capabilities, allowPrivilegeEscalation != false, seccompProfile');
    expect(forbiddenReason(evaluator.evaluate(at('restricted', 23), {}, spec))).to.equal('allowPrivilegeEscalation != false, unrestricted capabilities, runAsUser=0, seccompProfile');
  });

  it('an empty detail prints the reason alone', () => {
    expect(forbiddenDetail({ allowed: false, forbidden: [{ reason: 'a', detail: '' }, { reason: 'b', detail: 'x' }] })).to.equal('a, b (x)');
  });
});
