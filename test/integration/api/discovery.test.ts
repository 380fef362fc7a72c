import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

interface Group {
  name: string;
  versions: { groupVersion: string; version: string }[];
  preferredVersion: { groupVersion: string; version: string };
}

interface Resource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
  storageVersionHash?: string;
  shortNames?: string[];
  categories?: string[];
}

const VENDOR_SUFFIX = '.orch.io';
const UPSTREAM_SUFFIX = '.k8s.io';
const upstreamSpelling = (group: string) => `${group.slice(0, -VENDOR_SUFFIX.length)}${UPSTREAM_SUFFIX}`;

describe('discovery (issue #2 item 8; spec 000 § Other paths)', () => {
  const server = useTestServer();

  it('serves APIVersions at /api', async () => {
    const res = await server().admin.get('/api');
    expect(res.body.kind).to.equal('APIVersions');
    expect(res.body.versions).to.deep.equal(['v1']);
    expect(res.body.serverAddressByClientCIDRs[0].clientCIDR).to.equal('0.0.0.0/0');
  });

  it(`serves the core APIResourceList with verbs, short names and subresources${covers('000 § Terms › Resource type', '000 § Terms › Kind')}`, async () => {
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

  it('answers 404 for a group that is not served', async () => {
    expect((await server().admin.get('/apis/nope.example.com')).status).to.equal(404);
    expect((await server().admin.get('/apis/nope.example.com/v1')).status).to.equal(404);
  });

  it('serves /version', async () => {
    const res = await server().admin.get('/version');
    expect(res.body).to.include({ major: '1', minor: '30' });
    expect(res.body.gitVersion).to.match(/^v1\.30\./);
  });
});

describe('discovery of the upstream aliases (issue #9; spec 000 § Other paths)', () => {
  const server = useTestServer();

  it('lists every vendor group, then the upstream alias of each, in the same order', async () => {
    const names = ((await server().admin.get('/apis')).body.groups as Group[]).map((g) => g.name);
    const vendor = names.filter((n) => n.endsWith(VENDOR_SUFFIX));
    const aliases = names.filter((n) => n.endsWith(UPSTREAM_SUFFIX));
    expect(vendor).to.include('rbac.authorization.orch.io');
    expect(aliases).to.include('rbac.authorization.k8s.io');
    expect(aliases).to.deep.equal(vendor.map(upstreamSpelling));
    expect(names.indexOf(aliases[0]!)).to.be.greaterThan(names.indexOf(vendor[vendor.length - 1]!));
    expect(names.slice(-aliases.length)).to.deep.equal(aliases);
  });

  it('serves the APIGroup and APIResourceList of an alias like its vendor group, with the same storage version hashes', async () => {
    const group = (await server().admin.get('/apis/rbac.authorization.k8s.io')).body;
    expect(group).to.deep.equal({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'rbac.authorization.k8s.io',
      versions: [{ groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' },
    });
    const alias = await server().admin.get('/apis/rbac.authorization.k8s.io/v1');
    const vendor = await server().admin.get('/apis/rbac.authorization.orch.io/v1');
    expect(alias.status).to.equal(200);
    expect(alias.body).to.include({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'rbac.authorization.k8s.io/v1' });
    const aliasResources = alias.body.resources as Resource[];
    const vendorResources = vendor.body.resources as Resource[];
    expect(aliasResources.map((r) => r.name)).to.include.members(['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings']);
    expect(aliasResources).to.deep.equal(vendorResources);
    for (const r of aliasResources) expect(r.storageVersionHash, r.name).to.be.a('string').and.not.equal('');
  });

  it('answers the alias of every vendor group/version with the resources of the vendor one', async () => {
    const groups = (await server().admin.get('/apis')).body.groups as Group[];
    for (const g of groups.filter((x) => x.name.endsWith(VENDOR_SUFFIX))) {
      for (const v of g.versions) {
        const vendor = (await server().admin.get(`/apis/${v.groupVersion}`)).body;
        const alias = await server().admin.get(`/apis/${upstreamSpelling(g.name)}/${v.version}`);
        expect(alias.status, v.groupVersion).to.equal(200);
        // Short names and categories are the vendor group's only (kubectl would warn of an ambiguous short name).
        const withoutNames = (rs: Resource[]) => rs.map(({ shortNames: _s, categories: _c, ...r }) => r);
        expect(alias.body.resources, v.groupVersion).to.deep.equal(withoutNames(vendor.resources as Resource[]));
      }
    }
  });
});

describe('discovery without the upstream aliases (issue #9)', () => {
  const server = useTestServer({ upstreamAliases: false });

  it('lists no upstream spelling and answers 404 for it like for any unknown group', async () => {
    const names = ((await server().admin.get('/apis')).body.groups as Group[]).map((g) => g.name);
    expect(names).to.include('rbac.authorization.orch.io');
    expect(names.filter((n) => n.endsWith(UPSTREAM_SUFFIX))).to.deep.equal([]);
    expect((await server().admin.get('/apis/rbac.authorization.k8s.io')).status).to.equal(404);
    expect((await server().admin.get('/apis/rbac.authorization.k8s.io/v1')).status).to.equal(404);
    expect((await server().admin.get('/apis/rbac.authorization.orch.io/v1')).status).to.equal(200);
  });

  it('advertises the same storage version hashes as with the aliases on', async () => {
    const resources = (await server().admin.get('/apis/rbac.authorization.orch.io/v1')).body.resources as Resource[];
    const role = resources.find((r) => r.name === 'roles')!;
    expect(role.storageVersionHash).to.equal(createHash('sha256').update('rbac.authorization.orch.io/v1/Role').digest().subarray(0, 8).toString('base64'));
  });
});
