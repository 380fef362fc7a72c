/**
 * `--runtime-config` (issue #15 item 2): disabled group versions and resources are not installed
 * — gone from discovery and OpenAPI, 404 — and a bad key fails the start with upstream's message.
 */
import { expect } from 'chai';
import { useEtcd } from '../../framework/etcd.js';
import { startServerProcess } from '../../framework/server-process.js';
import { startTestServer, useTestServer } from '../../framework/test-server.js';

const FC = 'flowcontrol.apiserver.orch.io';

describe('--runtime-config (issue #15 item 2)', () => {
  describe(`${FC}/v1beta3=false`, () => {
    const server = useTestServer({ runtimeConfig: `${FC}/v1beta3=false` });

    it('removes v1beta3 from discovery and OpenAPI; its paths answer 404; v1 stays', async () => {
      const admin = server().admin;
      const group = (await admin.get(`/apis/${FC}`)).body;
      expect(group.versions.map((v: { version: string }) => v.version)).to.deep.equal(['v1']);
      const apis = (await admin.get('/apis')).body;
      const fc = apis.groups.find((g: { name: string }) => g.name === FC);
      expect(fc.versions.map((v: { version: string }) => v.version)).to.deep.equal(['v1']);
      const missing = await admin.get(`/apis/${FC}/v1beta3/flowschemas`);
      expect(missing.status).to.equal(404);
      expect((await admin.get(`/apis/${FC}/v1beta3`)).status).to.equal(404);
      expect((await admin.get('/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas')).status).to.equal(404);
      expect((await admin.get(`/apis/${FC}/v1/flowschemas/exempt`)).status).to.equal(200);
      const v2 = (await admin.get('/openapi/v2')).body;
      expect(Object.keys(v2.definitions).filter((d) => d.includes('flowcontrol.v1beta3'))).to.deep.equal([]);
      expect(Object.keys(v2.paths).filter((p) => p.includes('/v1beta3/'))).to.deep.equal([]);
      const v3 = (await admin.get('/openapi/v3')).body;
      expect(Object.keys(v3.paths)).to.not.include(`apis/${FC}/v1beta3`);
      expect(Object.keys(v3.paths)).to.include(`apis/${FC}/v1`);
    });
  });

  describe('api/all=false with the core group and flowcontrol v1 re-enabled', () => {
    const server = useTestServer({ runtimeConfig: `api/all=false,api/v1=true,${FC}/v1=true` });

    it('serves only the core group and flowcontrol v1', async () => {
      const admin = server().admin;
      expect((await admin.get('/api')).body.versions).to.deep.equal(['v1']);
      expect((await admin.get('/api/v1/namespaces/default')).status).to.equal(200);
      const groups = (await admin.get('/apis')).body.groups.map((g: { name: string; versions: Array<{ version: string }> }) => `${g.name}:${g.versions.map((v) => v.version).join(',')}`);
      expect(groups).to.deep.equal([`${FC}:v1`, 'flowcontrol.apiserver.k8s.io:v1']);
      expect((await admin.get('/apis/apps/v1/deployments')).status).to.equal(404);
      expect((await admin.get('/apis/autoscaling/v1')).status).to.equal(404);
    });
  });

  describe('one resource', () => {
    const server = useTestServer({ runtimeConfig: 'batch/v1/cronjobs=false' });

    it('batch/v1/cronjobs=false removes cronjobs only', async () => {
      const admin = server().admin;
      const names = (await admin.get('/apis/batch/v1')).body.resources.map((r: { name: string }) => r.name);
      expect(names).to.include('jobs');
      expect(names.filter((n: string) => n.startsWith('cronjobs'))).to.deep.equal([]);
      expect((await admin.get('/apis/batch/v1/namespaces/default/cronjobs')).status).to.equal(404);
    });
  });

  it('an unknown group fails the start naming it', async () => {
    let err: unknown;
    await startTestServer({ runtimeConfig: 'nope.example.com/v1=true' }).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(Error).with.property('message', 'unknown api groups nope.example.com');
  });

  it('the binary refuses an invalid key at start with upstream\'s message', async function () {
    this.timeout(90_000);
    let err: unknown;
    const { endpoint } = await useEtcd();
    await startServerProcess([`--etcd-servers=${endpoint}`, '--etcd-prefix=/runtime-config-test', '--runtime-config=apps']).catch((e: unknown) => (err = e));
    expect(String(err)).to.include('runtime-config invalid key apps');
  });
});
