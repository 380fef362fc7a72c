/**
 * AlwaysPullImages against a real server (spec 001 § Admission control): every container of a
 * created Pod, and of an updated Pod that brings a new image, is set to pull Always; subresources
 * and updates without new images are left alone (the latter shown on a Pod written before the
 * plugin was enabled, by restarting over the same data).
 */
import { expect } from 'chai';
import type { TestResponse } from '../../framework/client.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const PODS = '/api/v1/namespaces/default/pods';
const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);
type Container = { name: string; image: string; imagePullPolicy?: string };
const policies = (pod: { spec: { initContainers?: Container[]; containers: Container[]; ephemeralContainers?: Container[] } }) =>
  [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])].map((c) => `${c.name}=${c.imagePullPolicy}`);
const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    initContainers: [{ name: 'init', image: 'busybox:1', imagePullPolicy: 'IfNotPresent' }],
    containers: [
      { name: 'app', image: 'nginx:1', imagePullPolicy: 'Never' },
      { name: 'side', image: 'envoy:1' },
    ],
  },
});

describe('AlwaysPullImages admission against a real server (spec 001 § Admission control)', function () {
  this.timeout(60_000);
  let server: TestServer | undefined;
  after(async () => server?.stop());

  it(`a Pod written before the plugin is enabled keeps its policies${covers('001 § Admission control › AlwaysPullImages')}`, async () => {
    server = await startTestServer({ admission: { plugins: ['NamespaceLifecycle'] } });
    expectStatus(await server.admin.post(PODS, pod('old')), 201);
    const prefix = server.prefix;
    await server.stop();
    server = await startTestServer({ prefix, admission: { plugins: ['NamespaceLifecycle', 'AlwaysPullImages'] } });
    expect(policies((await server.admin.get(`${PODS}/old`)).body)).to.deep.equal(['init=IfNotPresent', 'app=Never', 'side=IfNotPresent']);
  });

  it('an update that brings no new image is left alone', async () => {
    const res = await server!.admin.patch(`${PODS}/old`, { metadata: { labels: { touched: 'yes' } } }, 'application/merge-patch+json');
    expectStatus(res, 200);
    expect(policies(res.body)).to.deep.equal(['init=IfNotPresent', 'app=Never', 'side=IfNotPresent']);
  });

  it('an update that brings a new image sets Always everywhere, which Pod update validation then refuses (as upstream)', async () => {
    const res = await server!.admin.patch(`${PODS}/old`, { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } }, 'application/strategic-merge-patch+json');
    expectStatus(res, 422);
    expect(res.body.message).to.contain('pod updates may not change fields other than');
    expect(res.body.message).to.contain('"Always"');
  });

  it(`a created Pod pulls Always in every container, dry run included${covers('001 § Admission control › AlwaysPullImages')}`, async () => {
    const dry = await server!.admin.post(`${PODS}?dryRun=All`, pod('dry'));
    expectStatus(dry, 201);
    expect(policies(dry.body)).to.deep.equal(['init=Always', 'app=Always', 'side=Always']);
    const res = await server!.admin.post(PODS, pod('new'));
    expectStatus(res, 201);
    expect(policies(res.body)).to.deep.equal(['init=Always', 'app=Always', 'side=Always']);
  });

  it('an image update of a Pod created with the plugin keeps Always', async () => {
    const res = await server!.admin.patch(`${PODS}/new`, { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } }, 'application/strategic-merge-patch+json');
    expectStatus(res, 200);
    expect(res.body.spec.containers[0].image).to.equal('nginx:2');
    expect(policies(res.body)).to.deep.equal(['init=Always', 'app=Always', 'side=Always']);
  });

  it('the ephemeralcontainers subresource is not mutated (upstream ignores subresources)', async () => {
    const current = (await server!.admin.get(`${PODS}/new`)).body;
    const ephemeralContainers = [{ name: 'debug', image: 'busybox:debug', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }];
    const res = await server!.admin.put(`${PODS}/new/ephemeralcontainers`, { ...current, spec: { ...current.spec, ephemeralContainers } });
    expectStatus(res, 200);
    expect(policies(res.body)).to.deep.equal(['init=Always', 'app=Always', 'side=Always', 'debug=IfNotPresent']);
  });
});
