import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseYAML } from 'yaml';
import { kubectl, kubectlOk } from '../../framework/kubectl.js';
import { type TestServer, useTestServer } from '../../framework/test-server.js';
import type { APIResource } from '../../../lib/endpoints/discovery/documents.js';

/** What kubectl 1.30 and client-go send to `/api` and `/apis`. */
const KUBECTL_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const VENDOR_DISCOVERY = 'apidiscovery.orch.io';
const UPSTREAM_DISCOVERY = 'apidiscovery.k8s.io';

const accept = (g: string, v: string, mediaType = 'application/json') => `${mediaType};g=${g};v=${v};as=APIGroupDiscoveryList`;


interface ResourceDiscovery {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: string;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind: { group: string; version: string; kind: string }; verbs: string[] }[];
}

interface GroupDiscovery {
  metadata: { name?: string };
  versions: { version: string; resources: ResourceDiscovery[]; freshness: string }[];
}

/** Checks one aggregated version against the plain APIResourceList of the same group/version. */
function expectSameResources(where: string, aggregated: ResourceDiscovery[], plain: APIResource[]): void {
  const byName = new Map(aggregated.map((r) => [r.resource, r]));
  const mains = plain.filter((r) => !r.name.includes('/'));
  expect(aggregated.map((r) => r.resource), where).to.have.members(mains.map((r) => r.name));
  for (const p of mains) {
    const expected: ResourceDiscovery = {
      resource: p.name,
      responseKind: { group: '', version: '', kind: p.kind },
      scope: p.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: p.singularName,
      verbs: p.verbs,
    };
    if (p.shortNames) expected.shortNames = p.shortNames;
    if (p.categories) expected.categories = p.categories;
    const subs = plain.filter((s) => s.name.startsWith(`${p.name}/`));
    if (subs.length > 0) {
      // A subresource of another group's kind (serviceaccounts/token) names it in both documents.
      expected.subresources = subs.map((s) => ({ subresource: s.name.slice(p.name.length + 1), responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind }, verbs: s.verbs }));
    }
    expect(byName.get(p.name), `${where} ${p.name}`).to.deep.equal(expected);
  }
}

/** Checks `/api` and `/apis` answered as aggregated discovery in `g`/`v` against plain discovery. */
async function expectAggregatedDiscovery(s: TestServer, g: string, v: string): Promise<void> {
  const core = await s.admin.get('/api', { headers: { Accept: accept(g, v) } });
  expect(core.status).to.equal(200);
  expect(core.headers['content-type']).to.equal(`application/json;g=${g};v=${v};as=APIGroupDiscoveryList`);
  expect(core.body).to.include({ kind: 'APIGroupDiscoveryList', apiVersion: `${g}/${v}` });
  expect(core.body.metadata).to.deep.equal({});
  const coreItems = core.body.items as GroupDiscovery[];
  expect(coreItems).to.have.length(1);
  expect(coreItems[0]!.metadata).to.not.have.property('name');
  expect(coreItems[0]!.versions.map((x) => x.version)).to.deep.equal((await s.admin.get('/api')).body.versions);
  for (const version of coreItems[0]!.versions) {
    expect(version.freshness).to.equal('Current');
    expectSameResources(`${g}/${v} /api/${version.version}`, version.resources, (await s.admin.get(`/api/${version.version}`)).body.resources);
  }

  const named = await s.admin.get('/apis', { headers: { Accept: accept(g, v) } });
  expect(named.status).to.equal(200);
  expect(named.headers['content-type']).to.equal(`application/json;g=${g};v=${v};as=APIGroupDiscoveryList`);
  expect(named.body).to.include({ kind: 'APIGroupDiscoveryList', apiVersion: `${g}/${v}` });
  const items = named.body.items as GroupDiscovery[];
  const plainGroups = (await s.admin.get('/apis')).body.groups as { name: string; versions: { groupVersion: string; version: string }[] }[];
  expect(items.map((i) => i.metadata.name)).to.deep.equal(plainGroups.map((p) => p.name));
  for (const [i, item] of items.entries()) {
    const plain = plainGroups[i]!;
    expect(item.versions.map((x) => x.version), plain.name).to.deep.equal(plain.versions.map((x) => x.version));
    for (const [j, version] of item.versions.entries()) {
      expect(version.freshness).to.equal('Current');
      expectSameResources(`${g}/${v} ${plain.versions[j]!.groupVersion}`, version.resources, (await s.admin.get(`/apis/${plain.versions[j]!.groupVersion}`)).body.resources);
    }
  }
}

describe('aggregated discovery (issue #9; spec 000 § Other paths)', () => {
  const server = useTestServer();

  for (const g of [VENDOR_DISCOVERY, UPSTREAM_DISCOVERY]) {
    for (const v of ['v2', 'v2beta1']) {
      it(`serves APIGroupDiscoveryList ${g}/${v} at /api and /apis with every resource of plain discovery`, async () => {
        await expectAggregatedDiscovery(server(), g, v);
      });
    }
  }

  it('answers what kubectl asks with apidiscovery.k8s.io/v2: pods/status as a subresource, vendor groups before the aliases', async () => {
    const core = await server().admin.get('/api', { headers: { Accept: KUBECTL_ACCEPT } });
    expect(core.body.apiVersion).to.equal('apidiscovery.k8s.io/v2');
    const pods = (core.body.items[0] as GroupDiscovery).versions[0]!.resources.find((r) => r.resource === 'pods')!;
    expect(pods).to.include({ scope: 'Namespaced', singularResource: 'pod' });
    expect(pods.responseKind).to.deep.equal({ group: '', version: '', kind: 'Pod' });
    expect(pods.subresources).to.deep.include({ subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] });
    const names = ((await server().admin.get('/apis', { headers: { Accept: KUBECTL_ACCEPT } })).body.items as GroupDiscovery[]).map((i) => i.metadata.name!);
    expect(names.indexOf('rbac.authorization.orch.io')).to.be.within(0, names.indexOf('rbac.authorization.k8s.io') - 1);
    expect(names.findLastIndex((n) => n.endsWith('.orch.io'))).to.be.lessThan(names.findIndex((n) => n.endsWith('.k8s.io')));
  });

  it('sends a quoted ETag and Vary: Accept, and answers 304 to a matching If-None-Match', async () => {
    for (const p of ['/api', '/apis']) {
      const first = await server().admin.get(p, { headers: { Accept: KUBECTL_ACCEPT } });
      const etag = first.headers.etag!;
      expect(etag, p).to.match(/^"[0-9A-F]{128}"$/);
      expect(first.headers.vary, p).to.match(/\bAccept\b/);
      const again = await server().admin.get(p, { headers: { Accept: KUBECTL_ACCEPT } });
      expect(again.headers.etag, p).to.equal(etag);
      const cached = await server().admin.get(p, { headers: { Accept: KUBECTL_ACCEPT, 'If-None-Match': etag } });
      expect(cached.status, p).to.equal(304);
      expect(cached.text, p).to.equal('');
      expect(cached.headers.etag, p).to.equal(etag);
      const stale = await server().admin.get(p, { headers: { Accept: KUBECTL_ACCEPT, 'If-None-Match': '"0"' } });
      expect(stale.status, p).to.equal(200);
      expect(stale.body.kind, p).to.equal('APIGroupDiscoveryList');
      const other = await server().admin.get(p, { headers: { Accept: accept(UPSTREAM_DISCOVERY, 'v2beta1') } });
      expect(other.headers.etag, p).to.not.equal(etag);
    }
    const plain = await server().admin.get('/apis');
    expect(plain.headers.vary).to.match(/\bAccept\b/);
  });

  it('serves YAML when asked for it by name, and pretty JSON with ?pretty=true', async () => {
    const json = await server().admin.get('/apis', { headers: { Accept: accept(VENDOR_DISCOVERY, 'v2') } });
    const yaml = await server().admin.get('/apis', { headers: { Accept: accept(VENDOR_DISCOVERY, 'v2', 'application/yaml') } });
    expect(yaml.headers['content-type']).to.equal(`application/yaml;g=${VENDOR_DISCOVERY};v=v2;as=APIGroupDiscoveryList`);
    expect(parseYAML(yaml.text)).to.deep.equal(json.body);
    const pretty = await server().admin.get('/apis?pretty=true', { headers: { Accept: accept(VENDOR_DISCOVERY, 'v2') } });
    expect(pretty.text).to.contain('\n  "items": [');
    expect(pretty.body).to.deep.equal(json.body);
  });

  it('skips an aggregated clause it does not serve for the next one, and answers 406 when none is left', async () => {
    const fallback = await server().admin.get('/apis', { headers: { Accept: `${accept(VENDOR_DISCOVERY, 'v1')},application/json` } });
    expect(fallback.status).to.equal(200);
    expect(fallback.body.kind).to.equal('APIGroupList');
    expect((await server().admin.get('/api', { headers: { Accept: accept('apidiscovery.example.com', 'v2') } })).status).to.equal(406);
    const group = await server().admin.get('/apis/rbac.authorization.k8s.io', { headers: { Accept: KUBECTL_ACCEPT } });
    expect(group.body.kind).to.equal('APIGroup');
  });

  it('lets the stock kubectl discover through it: api-resources lists both spellings without per-group requests', async function () {
    this.timeout(60_000);
    const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'orch-kubectl-cache-'));
    try {
      const res = await kubectl(server().kubeconfig, ['--cache-dir', cacheDir, 'api-resources', '-v=6']);
      expect(res.code, res.stderr).to.equal(0);
      const rows = res.stdout.split('\n').map((l) => l.trim().split(/\s+/));
      const apiVersionsOf = (name: string) => rows.filter((r) => r[0] === name).map((r) => r.find((c) => c.includes('/') || c === 'v1'));
      expect(apiVersionsOf('roles')).to.have.members(['rbac.authorization.orch.io/v1', 'rbac.authorization.k8s.io/v1']);
      expect(apiVersionsOf('pods')).to.deep.equal(['v1']);
      expect(res.stderr).to.match(/GET \S+\/apis\?timeout=\S+ 200 OK/);
      expect(res.stderr, 'kubectl fell back to per-group discovery').to.not.match(/GET \S+\/apis\/rbac\.authorization/);
      expect(JSON.parse(await kubectlOk(server().kubeconfig, ['--cache-dir', cacheDir, 'get', '--raw', '/apis'])).kind).to.equal('APIGroupList');
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('aggregated discovery without the upstream aliases (issue #9)', () => {
  const server = useTestServer({ upstreamAliases: false });

  it('serves the vendor spelling only: the upstream one falls back to plain JSON, or 406 without a fallback', async () => {
    await expectAggregatedDiscovery(server(), VENDOR_DISCOVERY, 'v2');
    for (const p of ['/api', '/apis']) {
      const res = await server().admin.get(p, { headers: { Accept: KUBECTL_ACCEPT } });
      expect(res.status, p).to.equal(200);
      expect(res.headers['content-type'], p).to.equal('application/json');
      expect(res.body.kind, p).to.equal(p === '/api' ? 'APIVersions' : 'APIGroupList');
      expect((await server().admin.get(p, { headers: { Accept: accept(UPSTREAM_DISCOVERY, 'v2') } })).status, p).to.equal(406);
    }
    const items = (await server().admin.get('/apis', { headers: { Accept: accept(VENDOR_DISCOVERY, 'v2') } })).body.items as GroupDiscovery[];
    expect(items.map((i) => i.metadata.name).filter((n) => n?.endsWith('.k8s.io'))).to.deep.equal([]);
  });
});
