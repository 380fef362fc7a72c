import { expect } from 'chai';
import { quotaCalculator } from '../../../../lib/admission/plugins/resource-quota/usage.js';
import type { Obj } from '../../../../lib/apis/define.js';

const calc = quotaCalculator();
const quota = (hard: Obj, status?: Obj, spec: Obj = {}): Obj => ({ metadata: { name: 'q', namespace: 'ns' }, spec: { hard, ...spec }, ...(status && { status }) });
const pod = (name: string, extra: Obj = {}): Obj => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] }, ...extra });

describe('ResourceQuota status calculation (upstream CalculateUsage / syncResourceQuota)', () => {
  it('sets hard from spec and counts the objects of every tracked resource', () => {
    const q = quota({ pods: '10', 'requests.cpu': '2', 'count/configmaps': '5', services: '3' });
    const objects = new Map<string, Obj[]>([
      ['/pods', [pod('a'), pod('b'), pod('done', { status: { phase: 'Succeeded' } })]],
      ['/configmaps', [{ metadata: { name: 'x' } }]],
      ['/services', []],
    ]);
    expect(calc.trackedResources(q).map((r) => `${r.group}/${r.resource}`).sort()).to.deep.equal(['/configmaps', '/pods', '/services']);
    const status = calc.status(q, (gr) => objects.get(`${gr.group}/${gr.resource}`), 0);
    expect(status).to.deep.equal({
      hard: { 'count/configmaps': '5', pods: '10', 'requests.cpu': '2', services: '3' },
      used: { 'count/configmaps': '1', pods: '2', 'requests.cpu': '200m', services: '0' },
    });
    expect(calc.differs(q, status)).to.equal(true);
    expect(calc.differs({ ...q, status: { hard: { ...status.hard, pods: '1e1' }, used: status.used } }, status), 'quantities compare by value').to.equal(false);
  });

  it('counts only the objects in all the quota scopes', () => {
    const q = quota({ pods: '10' }, undefined, { scopes: ['Terminating'] });
    const status = calc.status(q, () => [pod('a'), pod('job', { spec: { activeDeadlineSeconds: 5, containers: [] } })], 0);
    expect(status.used).to.deep.equal({ pods: '1' });
  });

  it('keeps the last amount of what cannot be measured and drops names no longer hard', () => {
    const q = quota({ 'count/widgets.example.com': '3', pods: '1' }, { hard: {}, used: { 'count/widgets.example.com': '2', secrets: '4' } });
    const status = calc.status(q, (gr) => (gr.resource === 'pods' ? [] : undefined), 0);
    expect(status.used).to.deep.equal({ 'count/widgets.example.com': '2', pods: '0' });
  });

  it('tells a recount that lowers usage, and the cost changes that ask for one', () => {
    const q = quota({ pods: '3' }, { hard: { pods: '3' }, used: { pods: '2' } });
    expect(calc.lowers(q, { hard: { pods: '3' }, used: { pods: '1' } })).to.equal(true);
    expect(calc.lowers(q, { hard: { pods: '3' }, used: { pods: '3' } })).to.equal(false);
    const pods = { group: '', resource: 'pods' };
    expect(calc.costState(pods, pod('a'), 0)).to.not.equal(calc.costState(pods, pod('a', { status: { phase: 'Failed' } }), 0));
    const svc = { group: '', resource: 'services' };
    expect(calc.costState(svc, { spec: { type: 'NodePort' } }, 0)).to.not.equal(calc.costState(svc, { spec: { type: 'ClusterIP' } }, 0));
  });
});
