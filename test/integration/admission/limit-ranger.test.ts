import { expect } from 'chai';
import { LIMIT_RANGER_ANNOTATION } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const pod = (name: string, containers: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers, ...extra },
});
const claim = (name: string, storage: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
});

describe('LimitRanger admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'LimitRanger'] } });
  let n = 0;

  /** A fresh namespace holding one LimitRange with `limits` (created before anything else in it). */
  async function namespaceWith(limits: Record<string, unknown>[]): Promise<string> {
    const ns = `lr-${++n}`;
    const created = await server().admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    expect(created.status, created.text).to.equal(201);
    if (limits.length > 0) {
      const res = await server().admin.post(`/api/v1/namespaces/${ns}/limitranges`, { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits' }, spec: { limits } });
      expect(res.status, res.text).to.equal(201);
    }
    return ns;
  }

  it('gives containers and init containers the defaults of the namespace and says so in an annotation', async () => {
    const ns = await namespaceWith([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }]);
    const res = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('app', [{ name: 'app', image: 'busybox' }], { initContainers: [{ name: 'setup', image: 'busybox', resources: { limits: { cpu: '1' } } }] }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.containers[0].resources).to.deep.equal({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(res.body.spec.initContainers[0].resources).to.deep.equal({ limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '1', memory: '128Mi' } });
    expect(res.body.metadata.annotations).to.deep.equal({
      [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; memory request for init container setup; memory limit for init container setup',
    });
  });

  it('defaults the request from a default limit alone (the LimitRange is defaulted so)', async () => {
    const ns = await namespaceWith([{ type: 'Container', default: { memory: '64Mi' } }]);
    const lr = await server().admin.get(`/api/v1/namespaces/${ns}/limitranges/limits`);
    expect(lr.body.spec.limits[0].defaultRequest).to.deep.equal({ memory: '64Mi' });
    const res = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('app', [{ name: 'app', image: 'busybox' }]));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.containers[0].resources).to.deep.equal({ limits: { memory: '64Mi' }, requests: { memory: '64Mi' } });
    expect(res.body.metadata.annotations[LIMIT_RANGER_ANNOTATION]).to.equal('LimitRanger plugin set: memory request for container app; memory limit for container app');
  });

  it('rejects a container over the maximum with 403 and every violation', async () => {
    const ns = await namespaceWith([{ type: 'Container', max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '4' } }]);
    const res = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('big', [{ name: 'app', image: 'busybox', resources: { requests: { cpu: '250m' }, limits: { cpu: '2', memory: '2Gi' } } }]));
    expect(res.status, res.text).to.equal(403);
    expect(res.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(res.body.message).to.equal(
      'pods "big" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi, ' +
        'cpu max limit to request ratio per Container is 4, but provided ratio is 8.000000]',
    );
    expect(res.body.details).to.deep.equal({ name: 'big', kind: 'pods' });
    expect((await server().admin.get(`/api/v1/namespaces/${ns}/pods/big`)).status).to.equal(404);
  });

  it('rejects a pod below a minimum, and one whose containers together exceed a Pod maximum', async () => {
    const ns = await namespaceWith([
      { type: 'Container', min: { cpu: '100m' } },
      { type: 'Pod', max: { cpu: '1' } },
    ]);
    const small = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('small', [{ name: 'app', image: 'busybox', resources: { requests: { cpu: '50m' }, limits: { cpu: '50m' } } }]));
    expect(small.status, small.text).to.equal(403);
    expect(small.body.message).to.equal('pods "small" is forbidden: minimum cpu usage per Container is 100m, but request is 50m');
    const two = [0, 1].map((i) => ({ name: `c${i}`, image: 'busybox', resources: { limits: { cpu: '600m' } } }));
    const wide = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, { ...pod('', two), metadata: { generateName: 'wide-' } });
    expect(wide.status, wide.text).to.equal(403);
    expect(wide.body.message).to.match(/^pods "wide-[a-z0-9]{5}" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m$/);
    const fits = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('fits', [{ name: 'app', image: 'busybox', resources: { limits: { cpu: '900m' } } }]));
    expect(fits.status, fits.text).to.equal(201);
  });

  it('bounds claims on create and on update', async () => {
    const ns = await namespaceWith([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }]);
    const path = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
    const tiny = await server().admin.post(path, claim('tiny', '500Mi'));
    expect(tiny.status, tiny.text).to.equal(403);
    expect(tiny.body.message).to.equal('persistentvolumeclaims "tiny" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
    const huge = await server().admin.post(path, claim('huge', '20Gi'));
    expect(huge.status, huge.text).to.equal(403);
    expect(huge.body.message).to.equal('persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
    const ok = await server().admin.post(path, claim('ok', '5Gi'));
    expect(ok.status, ok.text).to.equal(201);
    // Only a bound claim may change its request; bind it, then grow it past the maximum.
    const bound = await server().admin.put(`${path}/ok/status`, { ...ok.body, status: { phase: 'Bound', capacity: { storage: '5Gi' } } });
    expect(bound.status, bound.text).to.equal(200);
    const grown = await server().admin.patch(`${path}/ok`, { spec: { resources: { requests: { storage: '11Gi' } } } }, 'application/merge-patch+json');
    expect(grown.status, grown.text).to.equal(403);
    expect(grown.body.message).to.equal('persistentvolumeclaims "ok" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 11Gi');
  });

  it('leaves pods of a namespace without LimitRanges as they are', async () => {
    const ns = await namespaceWith([]);
    const res = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('plain', [{ name: 'app', image: 'busybox' }]));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.containers[0].resources).to.deep.equal({});
    expect(res.body.metadata.annotations).to.equal(undefined);
  });
});
