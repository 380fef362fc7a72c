import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APISERVER_CONFIG_GROUP } from '../../../lib/apis/vendor.js';
import { startTestServer, useTestServer } from '../../framework/test-server.js';

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
const CMS = '/api/v1/namespaces/default/configmaps';

describe('admission chain against a real server (spec 001 § Admission control)', () => {
  describe('with AlwaysDeny after NamespaceLifecycle', () => {
    const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'AlwaysDeny'] } });

    it('rejects creates, dry-run creates included, with the plugin’s Status and stores nothing', async () => {
      for (const q of ['', '?dryRun=All']) {
        const res = await server().admin.post(`${CMS}${q}`, cm('denied'));
        expect(res.status).to.equal(403);
        expect(res.body).to.include({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
        expect(res.body.message).to.equal('configmaps "denied" is forbidden: admission control is denying all modifications');
      }
      expect((await server().admin.get(`${CMS}/denied`)).status).to.equal(404);
    });

    it('never runs for reads: get, list and watch answer', async () => {
      expect((await server().admin.get(CMS)).status).to.equal(200);
      expect((await server().admin.get('/api/v1/namespaces/default')).status).to.equal(200);
      const w = await server().admin.watch(`${CMS}?watch=1&timeoutSeconds=1`);
      w.close();
    });

    it('runs for updates, patches, applies and deletes', async () => {
      const ns = '/api/v1/namespaces/default';
      const cur = (await server().admin.get(ns)).body;
      expect((await server().admin.put(ns, { ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } } })).status).to.equal(403);
      expect((await server().admin.patch(ns, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json')).status).to.equal(403);
      expect((await server().admin.patch(`${ns}?fieldManager=t`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { x: 'y' } } }, 'application/apply-patch+yaml')).status).to.equal(403);
      // The mutating phase of a delete runs before the object is read, as upstream: 403, not 404.
      const del = await server().admin.delete(`${ns}/configmaps/absent`);
      expect(del.status).to.equal(403);
      expect(del.body.message).to.equal('configmaps "absent" is forbidden: admission control is denying all modifications');
    });

    it('runs NamespaceLifecycle first: a create in a missing namespace is 404, not AlwaysDeny’s 403', async () => {
      const res = await server().admin.post('/api/v1/namespaces/nowhere/configmaps', cm('x'));
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('namespaces "nowhere" not found');
    });
  });

  describe('--admission-control-config-file', () => {
    let dir = '';
    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'orch-admission-config-'));
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('refuses to start with a file of the wrong kind, naming the file', async () => {
      const file = path.join(dir, 'bad.yaml');
      await writeFile(file, `apiVersion: ${APISERVER_CONFIG_GROUP}/v1\nkind: Nope\n`);
      const err = await startTestServer({ admission: { configFile: file } }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Error);
      expect((err as Error).message).to.equal(`unable to read admission control configuration from "${file}" [no kind "Nope" is registered for version "${APISERVER_CONFIG_GROUP}/v1"]`);
    });

    it('refuses to start when a plugin’s configuration file is missing', async () => {
      const file = path.join(dir, 'missing-path.yaml');
      await writeFile(file, `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: nowhere.yaml\n`);
      const err = await startTestServer({ admission: { configFile: file } }).catch((e: unknown) => e);
      expect((err as Error).message).to.match(/^couldn't open admission plugin configuration .*nowhere\.yaml: ENOENT/);
    });
  });
});
