import { expect } from 'chai';
import type { BackendResponse } from '../../../../lib/endpoints/aggregator/backend-get.js';
import { REFRESH_MS, RemoteDiscoveryCache, convertResourceList } from '../../../../lib/endpoints/aggregator/remote-discovery.js';

const apiService = (rv = '1') => ({ metadata: { name: 'v1.w.example', resourceVersion: rv }, spec: { service: { namespace: 'n', name: 's' }, group: 'w.example', version: 'v1' } });
const LIST = {
  kind: 'APIResourceList',
  groupVersion: 'w.example/v1',
  resources: [
    { name: 'things', singularName: 'thing', namespaced: false, kind: 'Thing', verbs: ['get', 'list'], categories: ['all'] },
    { name: 'things/scale', singularName: '', namespaced: false, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'update'] },
  ],
};
const json = (body: unknown, contentType = 'application/json'): BackendResponse => ({ status: 200, contentType, body: JSON.stringify(body) });

describe('endpoints/aggregator remote discovery (spec 000 § Other paths; issue #20)', () => {
  it('converts an APIResourceList, nesting subresources under their parent', () => {
    expect(convertResourceList(LIST)).to.deep.equal([
      {
        resource: 'things',
        responseKind: { group: '', version: '', kind: 'Thing' },
        scope: 'Cluster',
        singularResource: 'thing',
        verbs: ['get', 'list'],
        categories: ['all'],
        subresources: [{ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'update'] }],
      },
    ]);
  });

  it('uses the aggregated list when the extension serves it', async () => {
    const paths: string[] = [];
    const resources = [{ resource: 'things', responseKind: { group: '', version: '', kind: 'Thing' }, scope: 'Cluster', singularResource: 'thing', verbs: ['get'] }];
    const cache = new RemoteDiscoveryCache(async (_a, path) => {
      paths.push(path);
      return json({ kind: 'APIGroupDiscoveryList', items: [{ metadata: { name: 'w.example' }, versions: [{ version: 'v1', resources, freshness: 'Current' }] }] }, 'application/json;g=apidiscovery;v=v2;as=APIGroupDiscoveryList');
    }, () => undefined);
    expect(await cache.get(apiService())).to.deep.equal({ version: 'v1', resources, freshness: 'Current' });
    expect(paths).to.deep.equal(['/apis']);
  });

  it('falls back to the version list, keeps it until it is old, and marks it Stale when a refresh fails', async () => {
    let now = 0;
    let fail = false;
    let fetches = 0;
    const errors: unknown[] = [];
    const cache = new RemoteDiscoveryCache(
      async (_a, path) => {
        fetches++;
        if (fail) throw new Error('down');
        return path === '/apis' ? json({ kind: 'APIGroupList', groups: [] }) : json(LIST);
      },
      (err) => errors.push(err),
      () => now,
    );
    expect((await cache.get(apiService()))?.freshness).to.equal('Current');
    expect(fetches).to.equal(2);
    now = REFRESH_MS - 1;
    await cache.get(apiService());
    expect(fetches).to.equal(2);
    now = REFRESH_MS;
    fail = true;
    const stale = await cache.get(apiService());
    expect(stale?.freshness).to.equal('Stale');
    expect(stale?.resources.map((r) => r.resource)).to.deep.equal(['things']);
    expect(errors).to.have.length(1);
  });

  it('fetches again at once when the APIService changed', async () => {
    let fetches = 0;
    const cache = new RemoteDiscoveryCache(async (_a, path) => {
      fetches++;
      return path === '/apis' ? json({ kind: 'APIGroupList', groups: [] }) : json(LIST);
    }, () => undefined, () => 0);
    await cache.get(apiService('1'));
    await cache.get(apiService('2'));
    expect(fetches).to.equal(4);
  });

  it('reports a version list answered with an error status', async () => {
    const errors: string[] = [];
    const cache = new RemoteDiscoveryCache(async (_a, path) => (path === '/apis' ? json({}) : { status: 403, contentType: 'application/json', body: '{}' }), (err) => errors.push((err as Error).message), () => 0);
    expect(await cache.get(apiService())).to.equal(undefined);
    expect(errors).to.deep.equal(['bad status from /apis/w.example/v1: 403']);
  });
});
