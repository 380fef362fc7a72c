import { expect } from 'chai';
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, pvSecretReferences } from '../../../../../lib/apis/core/v1/pod-references.js';

const pod = {
  metadata: { name: 'web', namespace: 'ns' },
  spec: {
    imagePullSecrets: [{ name: 'pull' }, { name: '' }],
    initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'init-env' } }] }],
    containers: [
      {
        name: 'c',
        envFrom: [{ configMapRef: { name: 'cm-env' } }, { secretRef: { name: 'sec-env' } }],
        env: [
          { name: 'A', valueFrom: { secretKeyRef: { name: 'sec-key', key: 'k' } } },
          { name: 'B', valueFrom: { configMapKeyRef: { name: 'cm-key', key: 'k' } } },
          { name: 'C', value: 'plain' },
        ],
      },
    ],
    ephemeralContainers: [{ name: 'e', env: [{ name: 'D', valueFrom: { secretKeyRef: { name: 'eph', key: 'k' } } }] }],
    volumes: [
      { name: 'v1', secret: { secretName: 'vol-secret' } },
      { name: 'v2', configMap: { name: 'vol-cm' } },
      { name: 'v3', projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }, { serviceAccountToken: { path: 't' } }] } },
      { name: 'v4', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
      { name: 'v5', rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'rbd-secret' } } },
      { name: 'v6', azureFile: { secretName: 'az-secret', shareName: 's' } },
      { name: 'v7', persistentVolumeClaim: { claimName: 'data' } },
      { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
    ],
    resourceClaims: [
      { name: 'gpu', source: { resourceClaimName: 'gpu-claim' } },
      { name: 'tpl', source: { resourceClaimTemplateName: 'tpl' } },
      { name: 'pending', source: { resourceClaimTemplateName: 'tpl' } },
    ],
  },
  status: { resourceClaimStatuses: [{ name: 'tpl', resourceClaimName: 'web-tpl-x' }] },
};

describe('objects a pod refers to (upstream VisitPodSecretNames and friends; spec 001 § Node authorization)', () => {
  it('finds the secrets of image pull secrets, every container kind and the secret-bearing volume sources', () => {
    expect(podSecretNames(pod)).to.have.members(['pull', 'init-env', 'sec-env', 'sec-key', 'eph', 'vol-secret', 'proj-secret', 'csi-secret', 'rbd-secret', 'az-secret']);
  });

  it('finds the config maps of env, envFrom, configMap volumes and projected sources', () => {
    expect(podConfigMapNames(pod)).to.have.members(['cm-env', 'cm-key', 'vol-cm', 'proj-cm']);
  });

  it('finds the claims of volumes, naming an ephemeral volume claim <pod>-<volume>', () => {
    expect(podClaimNames(pod)).to.have.members(['data', 'web-scratch']);
  });

  it('finds resource claims by name, or from the status for template claims (none while pending)', () => {
    expect(podResourceClaimNames(pod)).to.have.members(['gpu-claim', 'web-tpl-x']);
  });

  it('finds nothing in an empty pod', () => {
    expect([podSecretNames({}), podConfigMapNames({}), podClaimNames({}), podResourceClaimNames({})]).to.deep.equal([[], [], [], []]);
  });

  it("reads a volume's secrets in the claim's namespace unless the reference names one; controller-only CSI secrets are not node-visible", () => {
    const pv = {
      spec: {
        claimRef: { namespace: 'ns', name: 'data' },
        csi: { driver: 'd', volumeHandle: 'h', nodeStageSecretRef: { name: 'stage', namespace: 'csi' }, controllerPublishSecretRef: { name: 'ctrl', namespace: 'csi' } },
      },
    };
    expect(pvSecretReferences(pv)).to.deep.equal([
      { namespace: 'csi', name: 'ctrl', nodeVisible: false },
      { namespace: 'csi', name: 'stage', nodeVisible: true },
    ]);
    expect(pvSecretReferences({ spec: { claimRef: { namespace: 'ns' }, rbd: { secretRef: { name: 'r' } } } })).to.deep.equal([{ namespace: 'ns', name: 'r', nodeVisible: true }]);
  });
});
