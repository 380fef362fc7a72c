import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { AggregatedDiscoveryCache } from '../../../../lib/endpoints/discovery/aggregated-cache.js';
import { groupDiscoveries } from '../../../../lib/endpoints/discovery/aggregated.js';
import type { Store } from '../../../../lib/registry/generic/store.js';
import { servedInstaller, widgetKind } from '../openapi/fixture.js';

const widget = widgetKind(false);
const store = {} as Store;
const widgetEntry = { kind: widget, store, subresources: new Map<string, Store>([['status', store]]), selectableFields: new Set<string>() };

describe('aggregated discovery documents (issue #9; spec 000 § Other paths)', () => {
  it('lists the core group without a name, and its resources in the upstream field order', () => {
    const [core, ...rest] = groupDiscoveries(servedInstaller().groupVersions(), true);
    expect(rest).to.deep.equal([]);
    expect(core!.metadata).to.deep.equal({ creationTimestamp: null });
    const v1 = core!.versions[0]!;
    expect(Object.keys(v1)).to.deep.equal(['version', 'resources', 'freshness']);
    const pods = v1.resources.find((r) => r.resource === 'pods')!;
    expect(Object.keys(pods)).to.deep.equal(['resource', 'responseKind', 'scope', 'singularResource', 'verbs', 'shortNames', 'categories', 'subresources']);
    expect(Object.keys(pods.subresources![0]!)).to.deep.equal(['subresource', 'responseKind', 'verbs']);
    expect(Object.keys(pods.responseKind)).to.deep.equal(['group', 'version', 'kind']);
  });

  it('lists the named groups in plain discovery order, the upstream aliases after every vendor group', () => {
    // Upstream v1.30's order: APIService group priorities, the API registration group first.
    const vendorGroups = [
      'apiregistration.orch.io',
      'apps',
      'events.orch.io',
      'authentication.orch.io',
      'authorization.orch.io',
      'autoscaling',
      'batch',
      'certificates.orch.io',
      'networking.orch.io',
      'policy',
      'rbac.authorization.orch.io',
      'storage.orch.io',
      'admissionregistration.orch.io',
      'apiextensions.orch.io',
      'scheduling.orch.io',
      'coordination.orch.io',
      'node.orch.io',
      'discovery.orch.io',
      'flowcontrol.apiserver.orch.io',
    ];
    const aliasGroups = vendorGroups.filter((g) => g.endsWith('.orch.io')).map((g) => g.replace(/\.orch\.io$/, '.k8s.io'));
    const names = groupDiscoveries(servedInstaller().groupVersions(), false).map((g) => g.metadata.name);
    expect(names).to.deep.equal([...vendorGroups, ...aliasGroups]);
    expect(groupDiscoveries(servedInstaller(false).groupVersions(), false).map((g) => g.metadata.name)).to.deep.equal(vendorGroups);
  });

  it('caches each encoded document with the upper-case hex SHA-512 of its JSON, and rebuilds it when the served resources change', () => {
    const installer = servedInstaller(false);
    const cache = new AggregatedDiscoveryCache(installer);
    const first = cache.get(false, 'apidiscovery.orch.io/v2');
    expect(first.etag).to.equal(createHash('sha512').update(first.json).digest('hex').toUpperCase());
    expect(JSON.parse(first.json.toString())).to.deep.equal(first.document);
    expect(first.document.apiVersion).to.equal('apidiscovery.orch.io/v2');
    expect(cache.get(false, 'apidiscovery.orch.io/v2')).to.equal(first);
    const beta = cache.get(false, 'apidiscovery.orch.io/v2beta1');
    expect(beta.document.apiVersion).to.equal('apidiscovery.orch.io/v2beta1');
    expect(beta.document.items).to.deep.equal(first.document.items);
    expect(beta.etag).to.not.equal(first.etag);

    const core = cache.get(true, 'apidiscovery.orch.io/v2');
    installer.install(widgetEntry);
    expect(cache.get(true, 'apidiscovery.orch.io/v2').json.equals(core.json)).to.equal(true);
    const after = cache.get(false, 'apidiscovery.orch.io/v2');
    expect(after.etag).to.not.equal(first.etag);
    const example = after.document.items.find((g) => g.metadata.name === 'example.orch.io')!;
    expect(example.versions[0]!.resources).to.deep.equal([
      {
        resource: 'widgets',
        responseKind: { group: '', version: '', kind: 'Widget' },
        scope: 'Cluster',
        singularResource: 'widget',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Widget' }, verbs: ['get', 'patch', 'update'] }],
      },
    ]);
  });
});
