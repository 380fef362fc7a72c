import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { STORAGE_GROUP } from '../../../lib/apis/storage/v1/group.js';
import { BETA_STORAGE_CLASS_ANNOTATION, DEFAULT_STORAGE_CLASS_ANNOTATIONS } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CLAIMS = '/api/v1/namespaces/default/persistentvolumeclaims';
const CLASSES = `/apis/${STORAGE_GROUP}/v1/storageclasses`;
const [DEFAULT_ANNOTATION, , UPSTREAM_DEFAULT_ANNOTATION] = DEFAULT_STORAGE_CLASS_ANNOTATIONS as [string, string, string];

const claim = (name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const storageClass = (name: string, annotations: Record<string, string> = {}) => ({
  apiVersion: `${STORAGE_GROUP}/v1`,
  kind: 'StorageClass',
  metadata: { name, annotations },
  provisioner: 'example.com/disk',
});

describe('DefaultStorageClass admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'DefaultStorageClass'] } });

  /** The class a dry-run claim would get, polled until it is `want` (the plugin reads StorageClasses from an informer). */
  async function untilDefaultIs(want: string): Promise<void> {
    let got: unknown;
    for (let i = 0; i < 100; i++) {
      const res = await server().admin.post(`${CLAIMS}?dryRun=All`, claim('probe'));
      expect(res.status, res.text).to.equal(201);
      got = res.body.spec.storageClassName;
      if (got === want) return;
      await sleep(50);
    }
    throw new Error(`default class is ${String(got)}, not ${want}`);
  }

  it(`leaves a claim without a class when no StorageClass is default${covers('001 § Admission control › DefaultStorageClass')}`, async () => {
    expect((await server().admin.post(CLASSES, storageClass('plain'))).status).to.equal(201);
    await sleep(200);
    const res = await server().admin.post(CLAIMS, claim('none'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.storageClassName).to.equal(undefined);
  });

  it(`gives a claim without a class the default StorageClass${covers('001 § Admission control › DefaultStorageClass')}`, async () => {
    expect((await server().admin.post(CLASSES, storageClass('standard', { [DEFAULT_ANNOTATION]: 'true' }))).status).to.equal(201);
    await untilDefaultIs('standard');
    const res = await server().admin.post(CLAIMS, claim('defaulted'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.storageClassName).to.equal('standard');
    expect((await server().admin.get(`${CLAIMS}/defaulted`)).body.spec.storageClassName).to.equal('standard');
  });

  it('keeps the class a claim names, an explicit "" and the beta annotation', async () => {
    const named = await server().admin.post(CLAIMS, claim('named', { storageClassName: 'plain' }));
    expect(named.body.spec.storageClassName, named.text).to.equal('plain');
    const empty = await server().admin.post(CLAIMS, claim('empty', { storageClassName: '' }));
    expect(empty.body.spec.storageClassName, empty.text).to.equal('');
    const beta = await server().admin.post(CLAIMS, claim('beta', {}, { [BETA_STORAGE_CLASS_ANNOTATION]: 'plain' }));
    expect(beta.status, beta.text).to.equal(201);
    expect(beta.body.spec.storageClassName).to.equal(undefined);
  });

  it(`does not touch updates${covers('001 § Admission control › DefaultStorageClass')}`, async () => {
    const res = await server().admin.patch(`${CLAIMS}/none`, { metadata: { labels: { touched: 'yes' } } }, 'application/merge-patch+json');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.storageClassName).to.equal(undefined);
  });

  it(`rejects claims without a class while several classes are default (spec 001; upstream spelling of the annotation counts too)${covers('001 § Admission control › DefaultStorageClass')}`, async () => {
    expect((await server().admin.post(CLASSES, storageClass('zonal', { [UPSTREAM_DEFAULT_ANNOTATION]: 'true' }))).status).to.equal(201);
    let res = await server().admin.post(CLAIMS, claim('two-defaults'));
    for (let i = 0; i < 100 && res.status === 201; i++) {
      await server().admin.delete(`${CLAIMS}/two-defaults`);
      await sleep(50);
      res = await server().admin.post(CLAIMS, claim('two-defaults'));
    }
    expect(res.status, res.text).to.equal(403);
    expect(res.body.message).to.equal('persistentvolumeclaims "two-defaults" is forbidden: Internal error occurred: 2 default StorageClasses were found');
    const named = await server().admin.post(CLAIMS, claim('explicit-zonal', { storageClassName: 'zonal' }));
    expect(named.status, named.text).to.equal(201);
  });
});
