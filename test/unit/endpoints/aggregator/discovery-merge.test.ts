import { expect } from 'chai';
import { upstreamAlias, vendorGroup } from '../../../../lib/apis/vendor.js';
import type { APIGroupDiscovery } from '../../../../lib/endpoints/discovery/aggregated.js';
import { mergeGroupDiscoveries, mergeGroupVersions, remoteGroups, versionOf } from '../../../../lib/endpoints/aggregator/discovery-merge.js';

const remote = (group: string, version: string, gp: number, vp: number, service = true) => ({
  metadata: { name: `${version}.${group}` },
  spec: { service: service ? { namespace: 'ns', name: 's' } : null, group, version, groupPriorityMinimum: gp, versionPriority: vp },
});

describe('endpoints/aggregator discovery merge (spec 000 § Other paths; issue #20)', () => {
  it('orders remote groups by their highest groupPriorityMinimum, then name; versions by versionPriority, then kube-aware order', () => {
    const groups = remoteGroups([
      remote('b.example', 'v1', 100, 10),
      remote('a.example', 'v1', 100, 10),
      remote('c.example', 'v1beta1', 50, 5),
      remote('c.example', 'v1', 500, 5),
      remote('c.example', 'v2', 50, 20),
      remote('local.example', 'v1', 900, 1, false),
    ]);
    expect(groups.map((g) => [g.name, g.priority, g.apiServices.map(versionOf)])).to.deep.equal([
      ['c.example', 500, ['v2', 'v1', 'v1beta1']],
      ['a.example', 100, ['v1']],
      ['b.example', 100, ['v1']],
    ]);
  });

  it('places remote groups among the local ones by rank, before the upstream aliases; a local group keeps its place and gains the remote versions', () => {
    const local = new Map<string, string[]>([
      [vendorGroup('apiregistration'), ['v1']],
      ['apps', ['v1']],
      ['batch', ['v1']],
      [upstreamAlias(vendorGroup('apiregistration'))!, ['v1']],
    ]);
    const merged = mergeGroupVersions(local, remoteGroups([remote('early.example', 'v1', 17900, 1), remote('late.example', 'v1', 100, 1), remote('batch', 'v2', 10, 1)]));
    expect([...merged]).to.deep.equal([
      [vendorGroup('apiregistration'), ['v1']],
      ['early.example', ['v1']],
      ['apps', ['v1']],
      ['batch', ['v1', 'v2']],
      ['late.example', ['v1']],
      [upstreamAlias(vendorGroup('apiregistration'))!, ['v1']],
    ]);
  });

  it('merges aggregated groups without touching the local documents, leaving out groups with no version read', () => {
    const apps: APIGroupDiscovery = { metadata: { name: 'apps', creationTimestamp: null }, versions: [{ version: 'v1', resources: [], freshness: 'Current' }] };
    const local = [apps];
    const groups = remoteGroups([remote('apps', 'v9', 1, 1), remote('x.example', 'v1', 1, 1), remote('unread.example', 'v1', 1, 1)]);
    const out = mergeGroupDiscoveries(local, groups, (g) => (g.name === 'unread.example' ? [] : [{ version: versionOf(g.apiServices[0]!), resources: [], freshness: 'Current' }]));
    expect(out.map((g) => [g.metadata.name, g.versions.map((v) => v.version)])).to.deep.equal([
      ['apps', ['v1', 'v9']],
      ['x.example', ['v1']],
    ]);
    expect(apps.versions).to.have.length(1);
  });
});
