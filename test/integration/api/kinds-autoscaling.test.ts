import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const HPAS = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const HPAS_V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const MERGE = 'application/merge-patch+json';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

const autoscaler = (name: string, spec: object = {}) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 4, ...spec },
});

describe('autoscaling HorizontalPodAutoscaler against the real server (issue #12 item 1)', () => {
  const server = useTestServer();
  const admin = () => server().admin;

  it('creates an autoscaler with upstream defaults visible; status cleared; no generation', async () => {
    const res = await admin().post(HPAS, { ...autoscaler('c1'), status: { desiredReplicas: 9 } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.metadata.generation).to.equal(undefined);
    expect(res.body.spec).to.deep.equal({
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 4,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
    expect(res.body.status).to.deep.equal({ desiredReplicas: 0, currentMetrics: null });
  });

  it('gets, lists with a field selector, and deletes', async () => {
    await admin().post(HPAS, autoscaler('c2'));
    expect((await admin().get(`${HPAS}/c2`)).body.metadata.name).to.equal('c2');
    const all = await admin().get('/apis/autoscaling/v2/horizontalpodautoscalers?fieldSelector=metadata.name=c2');
    expect(all.body.kind).to.equal('HorizontalPodAutoscalerList');
    expect(all.body.items).to.have.length(1);
    const del = await admin().delete(`${HPAS}/c2`);
    expect(del.status).to.equal(200);
    expect((await admin().get(`${HPAS}/c2`)).status).to.equal(404);
    expect((await admin().get(`${HPAS_V1}/c2`)).status).to.equal(404);
  });

  it('updates and patches the spec, keeping the status; refuses a PUT of a missing autoscaler', async () => {
    const created = (await admin().post(HPAS, autoscaler('c3'))).body;
    const put = await admin().put(`${HPAS}/c3`, { ...created, spec: { ...created.spec, maxReplicas: 8 }, status: { desiredReplicas: 5 } });
    expect(put.status, put.text).to.equal(200);
    expect(put.body.spec.maxReplicas).to.equal(8);
    expect(put.body.status.desiredReplicas).to.equal(0);
    const patched = await admin().patch(`${HPAS}/c3`, { spec: { behavior: { scaleUp: { selectPolicy: 'Disabled' } } } }, MERGE);
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.spec.behavior.scaleUp).to.deep.equal({ stabilizationWindowSeconds: 0, selectPolicy: 'Disabled', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] });
    expect(patched.body.spec.behavior.scaleDown).to.deep.equal({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
    expect((await admin().put(`${HPAS}/missing`, autoscaler('missing'))).status).to.equal(404);
  });

  it('writes the status through the status subresource only', async () => {
    const created = (await admin().post(HPAS, autoscaler('c4'))).body;
    const status = {
      observedGeneration: 1,
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '250m', averageUtilization: 90 } } }],
      conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'SucceededRescale' }],
    };
    const res = await admin().put(`${HPAS}/c4/status`, { ...created, spec: { ...created.spec, maxReplicas: 99 }, status });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.maxReplicas).to.equal(4);
    expect(res.body.status).to.deep.equal(status);
    const negative = await admin().patch(`${HPAS}/c4/status`, { status: { desiredReplicas: -1 } }, MERGE);
    expect(negative.status).to.equal(422);
    expect(negative.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'status.desiredReplicas' }]);
  });

  it('answers 422 with upstream causes for an invalid spec', async () => {
    const res = await admin().post(HPAS, autoscaler('c5', { scaleTargetRef: { kind: 'Deployment' }, minReplicas: 5, behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 0 }] } } }));
    expect(res.status).to.equal(422);
    expect(res.body.reason).to.equal('Invalid');
    expect(res.body.message).to.match(/^HorizontalPodAutoscaler\.autoscaling "c5" is invalid: \[spec\.maxReplicas: /);
    expect(res.body.details).to.deep.include({ name: 'c5', group: 'autoscaling', kind: 'HorizontalPodAutoscaler' });
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueInvalid', message: 'Invalid value: 4: must be greater than or equal to `minReplicas`', field: 'spec.maxReplicas' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.scaleTargetRef.name' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than zero', field: 'spec.behavior.scaleUp.policies[0].periodSeconds' },
    ]);
  });

  it('prints the upstream Table in either version', async () => {
    await admin().post(HPAS, autoscaler('c6', { minReplicas: 2, metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] }));
    for (const path of [HPAS, HPAS_V1]) {
      const table = await admin().get(`${path}/c6`, { headers: { Accept: TABLE } });
      expect(table.status).to.equal(200);
      expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
      expect(table.body.rows[0].cells.slice(0, 6)).to.deep.equal(['c6', 'Deployment/web', '<unknown>/10', '2', 4, 0]);
    }
  });

  it('is discovered with short name hpa, category all and a status subresource', async () => {
    const list = (await admin().get('/apis/autoscaling/v2')).body;
    const hpa = list.resources.find((r: { name: string }) => r.name === 'horizontalpodautoscalers');
    expect(hpa).to.deep.include({ kind: 'HorizontalPodAutoscaler', namespaced: true, shortNames: ['hpa'], categories: ['all'] });
    expect(list.resources.map((r: { name: string }) => r.name)).to.include('horizontalpodautoscalers/status');
  });
});
