import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/define.js';
import { isDeletionCandidate } from '../../../../lib/controllers/volume-protection/finalizer.js';
import { isVolumeInUse } from '../../../../lib/controllers/volume-protection/pv-controller.js';
import { podUsesClaim } from '../../../../lib/controllers/volume-protection/pvc-controller.js';

const claim = (name: string, owner?: string): Obj => ({
  metadata: { name, namespace: 'ns', ...(owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: owner, controller: true }] } : {}) },
});

function pod(volumes: Obj[], extra: { nodeName?: string; meta?: Obj } = { nodeName: 'n1' }): Obj {
  return { metadata: { name: 'p', namespace: 'ns', uid: 'uid-p', ...extra.meta }, spec: { nodeName: extra.nodeName, containers: [{ name: 'c' }], volumes } };
}

describe('PVC protection: which pods use a claim (upstream v1.30 podUsesPVC)', () => {
  it('counts a scheduled pod naming the claim in a persistentVolumeClaim volume', () => {
    expect(podUsesClaim(pod([{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }]), claim('data'))).to.equal(true);
    expect(podUsesClaim(pod([{ name: 'v', persistentVolumeClaim: { claimName: 'other' } }]), claim('data'))).to.equal(false);
    expect(podUsesClaim(pod([{ name: 'v', emptyDir: {} }]), claim('data'))).to.equal(false);
  });

  it('does not count a pod that is not scheduled', () => {
    expect(podUsesClaim(pod([{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }], {}), claim('data'))).to.equal(false);
  });

  it('counts an ephemeral volume only for the claim the pod controls, until the pod is shut down', () => {
    const eph = [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }];
    expect(podUsesClaim(pod(eph), claim('p-scratch', 'uid-p'))).to.equal(true);
    expect(podUsesClaim(pod(eph), claim('p-scratch', 'uid-other'))).to.equal(false);
    expect(podUsesClaim(pod(eph), claim('p-scratch'))).to.equal(false);
    const shutDown = pod(eph, { nodeName: 'n1', meta: { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 } });
    expect(podUsesClaim(shutDown, claim('p-scratch', 'uid-p'))).to.equal(false);
    const terminating = pod(eph, { nodeName: 'n1', meta: { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 } });
    expect(podUsesClaim(terminating, claim('p-scratch', 'uid-p'))).to.equal(true);
  });
});

describe('Storage protection finalizers', () => {
  it('a deletion candidate is being deleted and still carries the finalizer', () => {
    expect(isDeletionCandidate({ metadata: { deletionTimestamp: 't', finalizers: ['f'] } }, 'f')).to.equal(true);
    expect(isDeletionCandidate({ metadata: { finalizers: ['f'] } }, 'f')).to.equal(false);
    expect(isDeletionCandidate({ metadata: { deletionTimestamp: 't', finalizers: ['g'] } }, 'f')).to.equal(false);
  });

  it('a volume is in use while Bound', () => {
    expect(isVolumeInUse({ status: { phase: 'Bound' } })).to.equal(true);
    expect(isVolumeInUse({ status: { phase: 'Released' } })).to.equal(false);
    expect(isVolumeInUse({})).to.equal(false);
  });
});
