import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureServingPKI } from '../../../lib/server/pki/serving-pki.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const TOKENS = ['admintoken,alice,uid-1,"system:masters,ops"', 'usertoken,bob,uid-2,devs'].join('\n');

describe('authentication and authorization (spec 001 § Authentication, § Authorization)', () => {
  const server = useTestServer({ tokens: TOKENS });

  it(`authenticates the admin client certificate (CN = user, O = group) and allows it everything${covers('001 § Methods › Client certificate')}`, async () => {
    const res = await server().admin.get('/api/v1/namespaces');
    expect(res.status).to.equal(200);
  });

  it(`authenticates a static token and allows a system:masters member${covers('001 § Methods › Static token file')}`, async () => {
    const res = await server().admin.get('/api/v1/namespaces', { creds: { token: 'admintoken' } });
    expect(res.status).to.equal(200);
  });

  it(`answers 403 with the upstream message for an authenticated user outside system:masters${covers('001 § Errors › 403 Forbidden')}`, async () => {
    const res = await server().admin.get('/api/v1/namespaces/default/configmaps', { creds: { token: 'usertoken' } });
    expect(res.status).to.equal(403);
    expect(res.body).to.include({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(res.body.message).to.equal(
      'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
  });

  it('names the object in a 403, and the namespace a namespace path carries (as upstream)', async () => {
    const res = await server().admin.get('/api/v1/namespaces/default', { creds: { token: 'usertoken' } });
    expect(res.body.message).to.equal('namespaces "default" is forbidden: User "bob" cannot get resource "namespaces" in API group "" in the namespace "default"');
  });

  it('says "at the cluster scope" for a cluster-scoped collection', async () => {
    const res = await server().admin.get('/api/v1/nodes', { creds: { token: 'usertoken' } });
    expect(res.body.message).to.equal('nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope');
  });

  it('answers 401 for a client certificate signed by another CA', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-foreign-pki-'));
    try {
      const foreign = await ensureServingPKI({ certDir: dir });
      const res = await server().admin.get('/api/v1/namespaces', { creds: { cert: foreign.adminCertPem, key: foreign.adminKeyPem } });
      expect(res.status).to.equal(401);
      expect(res.body.reason).to.equal('Unauthorized');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it(`answers 401 for an unknown bearer token even on public paths${covers('001 § Errors › 401 Unauthorized', '001 § Methods › Bearer token')}`, async () => {
    for (const path of ['/api/v1/namespaces', '/healthz']) {
      const res = await server().admin.get(path, { creds: { token: 'nope' } });
      expect(res.status).to.equal(401);
      expect(res.body).to.include({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
    }
  });

  it(`treats a request without credentials as system:anonymous${covers('001 § Methods › Anonymous')}`, async () => {
    const res = await server().anonymous.get('/api/v1/namespaces');
    expect(res.status).to.equal(403);
    expect(res.body.message).to.include('User "system:anonymous" cannot list resource "namespaces"');
  });

  it('lets anyone read health and version, and authenticated users read discovery', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) expect((await server().anonymous.get(path)).status, path).to.equal(200);
    const anonymousDiscovery = await server().anonymous.get('/api');
    expect(anonymousDiscovery.status).to.equal(403);
    expect(anonymousDiscovery.body.message).to.equal('forbidden: User "system:anonymous" cannot get path "/api"');
    for (const path of ['/api', '/api/v1', '/apis', '/apis/coordination.orch.io/v1']) {
      expect((await server().admin.get(path, { creds: { token: 'usertoken' } })).status, path).to.equal(200);
    }
  });
});

describe('anonymous authentication disabled (--anonymous-auth=false)', () => {
  const server = useTestServer({ anonymousAuth: false });

  it(`answers 401 to a request without credentials${covers('001 § Methods › Anonymous')}`, async () => {
    expect((await server().anonymous.get('/healthz')).status).to.equal(401);
  });
});
