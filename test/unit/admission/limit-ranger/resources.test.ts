import { expect } from 'chai';
import { podResources, resourceList } from '../../../../lib/admission/plugins/limit-ranger/resources.js';

const strings = (m: ReturnType<typeof resourceList>) => Object.fromEntries([...m].map(([k, v]) => [k, v.toString()]));
const c = (name: string, requests: Record<string, string>, extra: Record<string, unknown> = {}) => ({ name, resources: { requests, limits: requests }, ...extra });

describe('LimitRanger pod resources (upstream v1.30 podRequests / podLimits)', () => {
  it('ignores unparsable quantities and non-maps', () => {
    expect(strings(resourceList({ cpu: '1', memory: 'lots', pods: 3 }))).to.deep.equal({ cpu: '1', pods: '3' });
    expect(strings(resourceList('x'))).to.deep.equal({});
  });

  it('sums the containers, keeping a resource any of them names', () => {
    const pod = { spec: { containers: [c('a', { cpu: '500m' }), c('b', { cpu: '500m', memory: '1Gi' })] } };
    expect(strings(podResources(pod, 'requests'))).to.deep.equal({ cpu: '1', memory: '1Gi' });
  });

  it('raises the sum to the largest init container', () => {
    const pod = { spec: { containers: [c('a', { cpu: '1' })], initContainers: [c('i1', { cpu: '3' }), c('i2', { cpu: '2', memory: '1Gi' })] } };
    expect(strings(podResources(pod, 'limits'))).to.deep.equal({ cpu: '3', memory: '1Gi' });
  });

  it('counts restartable init containers with the containers and with the init containers after them', () => {
    const pod = {
      spec: {
        containers: [c('a', { cpu: '1' })],
        initContainers: [c('i1', { cpu: '2' }), c('side', { cpu: '1' }, { restartPolicy: 'Always' }), c('i2', { cpu: '2500m' })],
      },
    };
    // containers 1 + sidecar 1 = 2; init peaks: i1 2, side 1, i2 2.5 + 1 = 3.5.
    expect(strings(podResources(pod, 'requests'))).to.deep.equal({ cpu: '3500m' });
  });
});
