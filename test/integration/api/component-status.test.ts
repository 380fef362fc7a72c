/**
 * core/v1 componentstatuses against the real server (issue #12): a read-only resource probed when
 * read — discovery (`get`, `list`, short name `cs`, no storage version hash), get and list of
 * `etcd-0` with upstream's deprecation warning, the Table, selectors, the 405s and 404s of
 * upstream's router for what a Getter and Lister does not offer, and the OpenAPI operations.
 */
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const CS = '/api/v1/componentstatuses';
const WARNING = '299 - "v1 ComponentStatus is deprecated in v1.19+"';
const TABLE = 'application/json;as=Table;v=v1;g=meta.orch.io';
const ETCD = { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True' }] };

describe('core/v1 componentstatuses: a read-only resource (issue #12)', () => {
  const server = useTestServer();

  describe('discovery', () => {
    it('lists componentstatuses with verbs get and list, short name cs and no storage version hash', async () => {
      const res = await server().admin.get('/api/v1');
      const cs = (res.body.resources as Array<Record<string, unknown>>).find((r) => r.name === 'componentstatuses');
      expect(cs).to.deep.equal({ name: 'componentstatuses', singularName: 'componentstatus', namespaced: false, kind: 'ComponentStatus', verbs: ['get', 'list'], shortNames: ['cs'] });
    });

    it('lists it in aggregated discovery with scope Cluster', async () => {
      const res = await server().admin.get('/api', { headers: { Accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList' } });
      expect(res.status, res.text).to.equal(200);
      const resources = res.body.items[0].versions[0].resources as Array<Record<string, unknown>>;
      expect(resources.find((r) => r.resource === 'componentstatuses')).to.deep.equal({
        resource: 'componentstatuses',
        responseKind: { group: '', version: '', kind: 'ComponentStatus' },
        scope: 'Cluster',
        singularResource: 'componentstatus',
        verbs: ['get', 'list'],
        shortNames: ['cs'],
      });
    });
  });

  describe('get and list', () => {
    it('gets etcd-0, probed now: Healthy, with the deprecation warning', async () => {
      const res = await server().admin.get(`${CS}/etcd-0`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal(ETCD);
      expect(res.headers.warning).to.equal(WARNING);
    });

    it('lists the components: etcd-0 only, list metadata empty', async () => {
      const res = await server().admin.get(CS);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items: [ETCD] });
      expect(res.headers.warning).to.equal(WARNING);
    });

    it('answers a Table with upstream columns Name, Status, Message, Error', async () => {
      const res = await server().admin.get(CS, { headers: { Accept: TABLE } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Status', 'Message', 'Error']);
      expect(res.body.rows.map((r: { cells: string[] }) => r.cells)).to.deep.equal([['etcd-0', 'Healthy', '', '']]);
    });

    it('filters by field selector metadata.name and metadata.namespace, and by labels', async () => {
      const names = async (q: string) => ((await server().admin.get(`${CS}?${q}`)).body.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name);
      expect(await names('fieldSelector=metadata.name%3Detcd-0')).to.deep.equal(['etcd-0']);
      expect(await names('fieldSelector=metadata.name%3Dscheduler')).to.deep.equal([]);
      expect(await names('fieldSelector=metadata.namespace%3D')).to.deep.equal(['etcd-0']);
      expect(await names('labelSelector=tier%3Dcontrol-plane')).to.deep.equal([]);
    });

    it('rejects another field label with 400, as upstream field label conversion', async () => {
      const res = await server().admin.get(`${CS}?fieldSelector=status.phase%3DHealthy`);
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ reason: 'BadRequest', message: 'field label not supported: status.phase' });
    });

    it('answers a get of an unknown component with upstream 500 `Component not found`', async () => {
      const res = await server().admin.get(`${CS}/scheduler`);
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Component not found: scheduler', code: 500 });
      expect(res.headers.warning).to.equal(WARNING);
    });
  });

  describe('what a Getter and Lister does not offer (upstream router)', () => {
    const notAllowed = { reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource', code: 405 };
    const cases: Array<[string, string, string]> = [
      ['create', 'POST', CS],
      ['deletecollection', 'DELETE', CS],
      ['update', 'PUT', `${CS}/etcd-0`],
      ['patch', 'PATCH', `${CS}/etcd-0`],
      ['delete', 'DELETE', `${CS}/etcd-0`],
    ];
    for (const [verb, method, path] of cases) {
      it(`${verb} is 405 without the deprecation warning`, async () => {
        const res = await server().admin.request(method, path, { body: {}, contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' });
        expect(res.status).to.equal(405);
        expect(res.body).to.include(notAllowed);
        expect(res.headers.warning).to.equal(undefined);
      });
    }

    it('a watch is 405 MethodNotSupported from the list handler, with the deprecation warning', async () => {
      const res = await server().admin.get(`${CS}?watch=true`);
      expect(res.status).to.equal(405);
      expect(res.body).to.include({ reason: 'MethodNotAllowed', message: 'watch is not supported on resources of kind "componentstatuses"' });
      expect(res.headers.warning).to.equal(WARNING);
    });

    it('the legacy /watch/ path, a subresource and a namespaced path are 404', async () => {
      for (const path of ['/api/v1/watch/componentstatuses', `${CS}/etcd-0/status`, '/api/v1/namespaces/default/componentstatuses']) {
        const res = await server().admin.get(path);
        expect(res.status, path).to.equal(404);
      }
    });
  });

  describe('OpenAPI', () => {
    it('has the list path (parameters hoisted, no watch in the description) and the read path only', async () => {
      const doc = (await server().admin.get('/openapi/v2')).body;
      const paths = Object.keys(doc.paths).filter((p) => p.includes('componentstatuses'));
      expect(paths).to.deep.equal(['/api/v1/componentstatuses', '/api/v1/componentstatuses/{name}']);
      const list = doc.paths['/api/v1/componentstatuses'];
      expect(Object.keys(list)).to.deep.equal(['get', 'parameters']);
      expect(list.get).to.include({ operationId: 'listCoreV1ComponentStatus', description: 'list objects of kind ComponentStatus' });
      expect(list.get.parameters).to.equal(undefined);
      expect(list.parameters.length).to.equal(11);
      const read = doc.paths['/api/v1/componentstatuses/{name}'];
      expect(Object.keys(read)).to.deep.equal(['get', 'parameters']);
      expect(read.get).to.include({ operationId: 'readCoreV1ComponentStatus', description: 'read the specified ComponentStatus' });
    });
  });
});
