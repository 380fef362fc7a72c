import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const MERGE = 'application/merge-patch+json';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

const budget = (name: string, spec: object = { minAvailable: 1, selector: { matchLabels: { app: name } } }) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name },
  spec,
});

describe('policy/v1 PodDisruptionBudget against the real server (issue #12 item 1)', () => {
  const server = useTestServer();
  const admin = () => server().admin;

  it('creates a budget: generation 1, status cleared to its zero counts', async () => {
    const res = await admin().post(PDBS, { ...budget('c1'), status: { disruptionsAllowed: 5, currentHealthy: 5, desiredHealthy: 1, expectedPods: 5 } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.metadata.generation).to.equal(1);
    expect(res.body.spec).to.deep.equal({ minAvailable: 1, selector: { matchLabels: { app: 'c1' } } });
    expect(res.body.status).to.deep.equal({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });

  it('gets, lists and deletes', async () => {
    await admin().post(PDBS, budget('c2'));
    expect((await admin().get(`${PDBS}/c2`)).body.metadata.name).to.equal('c2');
    const list = await admin().get(PDBS);
    expect(list.body.kind).to.equal('PodDisruptionBudgetList');
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('c2');
    const all = await admin().get('/apis/policy/v1/poddisruptionbudgets?fieldSelector=metadata.name=c2');
    expect(all.body.items).to.have.length(1);
    const del = await admin().delete(`${PDBS}/c2`);
    expect(del.status).to.equal(200);
    expect((await admin().get(`${PDBS}/c2`)).status).to.equal(404);
  });

  it('updates and patches the spec (mutable), bumping the generation and keeping the status', async () => {
    const created = (await admin().post(PDBS, budget('c3'))).body;
    const put = await admin().put(`${PDBS}/c3`, { ...created, spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'c3' } } }, status: { disruptionsAllowed: 9 } });
    expect(put.status, put.text).to.equal(200);
    expect(put.body.metadata.generation).to.equal(2);
    expect(put.body.spec).to.deep.equal({ selector: { matchLabels: { app: 'c3' } }, maxUnavailable: '50%' });
    expect(put.body.status.disruptionsAllowed).to.equal(0);
    const patched = await admin().patch(`${PDBS}/c3`, { spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow' } }, MERGE);
    expect(patched.status).to.equal(200);
    expect(patched.body.metadata.generation).to.equal(3);
    expect(patched.body.spec.unhealthyPodEvictionPolicy).to.equal('AlwaysAllow');
  });

  it('writes the status through the status subresource only', async () => {
    const created = (await admin().post(PDBS, budget('c4'))).body;
    const res = await admin().put(`${PDBS}/c4/status`, {
      ...created,
      spec: { minAvailable: 3 },
      status: { observedGeneration: 1, disruptionsAllowed: 2, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3, disruptedPods: { p: '2024-05-01T10:00:00Z' } },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec).to.deep.equal(created.spec);
    expect(res.body.status).to.deep.include({ disruptionsAllowed: 2, expectedPods: 3, disruptedPods: { p: '2024-05-01T10:00:00Z' } });
    expect(res.body.metadata.generation).to.equal(1);
    const negative = await admin().patch(`${PDBS}/c4/status`, { status: { currentHealthy: -1 } }, MERGE);
    expect(negative.status).to.equal(422);
    expect(negative.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'status.currentHealthy' }]);
  });

  it('answers 422 with upstream causes for an invalid spec', async () => {
    const res = await admin().post(PDBS, budget('c5', { minAvailable: '150%', selector: { matchLabels: { app: 'x' } }, unhealthyPodEvictionPolicy: 'Sometimes' }));
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ reason: 'Invalid' });
    expect(res.body.details).to.deep.include({ name: 'c5', group: 'policy', kind: 'PodDisruptionBudget' });
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "150%": must not be greater than 100%', field: 'spec.minAvailable' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"', field: 'spec.unhealthyPodEvictionPolicy' },
    ]);
    const both = await admin().post(PDBS, budget('c6', { minAvailable: 1, maxUnavailable: 1 }));
    expect(both.status).to.equal(422);
    expect(both.body.details.causes[0].message).to.match(/minAvailable and maxUnavailable cannot be both set$/);
  });

  it('prints the upstream table columns', async () => {
    await admin().post(PDBS, budget('c7', { maxUnavailable: '25%', selector: {} }));
    const res = await admin().get(`${PDBS}/c7`, { headers: { Accept: TABLE } });
    expect(res.status).to.equal(200);
    expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
    expect(res.body.rows[0].cells.slice(0, 4)).to.deep.equal(['c7', 'N/A', '25%', 0]);
  });

  it('is discovered as policy/v1 poddisruptionbudgets, short name pdb, with a status subresource', async () => {
    const res = await admin().get('/apis/policy/v1');
    expect(res.body.groupVersion).to.equal('policy/v1');
    const main = res.body.resources.find((r: { name: string }) => r.name === 'poddisruptionbudgets');
    expect(main).to.deep.include({ singularName: 'poddisruptionbudget', namespaced: true, kind: 'PodDisruptionBudget', shortNames: ['pdb'] });
    expect(main.verbs).to.deep.equal(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(res.body.resources.map((r: { name: string }) => r.name)).to.deep.equal(['poddisruptionbudgets', 'poddisruptionbudgets/status']);
  });
});
