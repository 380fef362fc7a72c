import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

describe('discovery (issue #2 item 8; spec 000 § Other paths)', () => {
  const server = useTestServer();

  it('serves APIVersions at /api', async () => {
    const res = await server().admin.get('/api');
    expect(res.body.kind).to.equal('APIVersions');
    expect(res.body.versions).to.deep.equal(['v1']);
    expect(res.body.serverAddressByClientCIDRs[0].clientCIDR).to.equal('0.0.0.0/0');
  });

  it('serves the core APIResourceList with verbs, short names and subresources', async () => {
    const res = await server().admin.get('/api/v1');
    expect(res.body).to.include({ kind: 'APIResourceList', groupVersion: 'v1' });
    const byName = new Map(res.body.resources.map((r: { name: string }) => [r.name, r]));
    expect(byName.get('configmaps')).to.deep.include({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
    });
    expect(byName.get('namespaces/status')).to.deep.include({ namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] });
    expect(byName.get('namespaces/finalize')).to.deep.include({ verbs: ['update'] });
  });

  it('serves APIGroupList, APIGroup and every advertised group version', async () => {
    const list = (await server().admin.get('/apis')).body;
    expect(list).to.include({ kind: 'APIGroupList', apiVersion: 'v1' });
    const groups = list.groups as { name: string; versions: { groupVersion: string }[]; preferredVersion: { groupVersion: string } }[];
    expect(groups.map((g) => g.name)).to.include.members(['coordination.orch.io', 'rbac.authorization.orch.io']);
    for (const g of groups) {
      const group = (await server().admin.get(`/apis/${g.name}`)).body;
      expect(group).to.include({ kind: 'APIGroup', name: g.name });
      expect(group.preferredVersion).to.deep.equal(g.preferredVersion);
      for (const v of g.versions) {
        const res = await server().admin.get(`/apis/${v.groupVersion}`);
        expect(res.status, v.groupVersion).to.equal(200);
        expect(res.body).to.include({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: v.groupVersion });
      }
    }
  });

  it('answers 404 for a group that is not served, and falls back to JSON for aggregated discovery', async () => {
    expect((await server().admin.get('/apis/nope.example.com')).status).to.equal(404);
    const res = await server().admin.get('/apis', { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' } });
    expect(res.status).to.equal(200);
    expect(res.body.kind).to.equal('APIGroupList');
  });

  it('serves /version', async () => {
    const res = await server().admin.get('/version');
    expect(res.body).to.include({ major: '1', minor: '30' });
    expect(res.body.gitVersion).to.match(/^v1\.30\./);
  });
});
