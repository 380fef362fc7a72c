import { expect } from 'chai';
import { compactVerify } from 'jose';
import { parse as parseYAML } from 'yaml';
import { BOOTSTRAP_TOKEN_SECRET_TYPE, PUBLIC_NAMESPACE, SYSTEM_NAMESPACE } from '../../../lib/apis/vendor.js';
import { eventually } from '../../framework/storage-contract.js';
import { type TestServer, usePKI, useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const SECRETS = `/api/v1/namespaces/${SYSTEM_NAMESPACE}/secrets`;
const CLUSTER_INFO = `/api/v1/namespaces/${PUBLIC_NAMESPACE}/configmaps/cluster-info`;
/** A request a bootstrap token is authenticated for but, outside system:masters, not allowed. */
const PROBE = '/api/v1/namespaces/default/configmaps';

/** Creates the token Secret of `<id>.<secret>` with `stringData` over the two required keys. */
async function createToken(server: TestServer, id: string, secret: string, data: Record<string, string> = {}) {
  const res = await server.admin.post(SECRETS, {
    metadata: { name: `bootstrap-token-${id}` },
    type: BOOTSTRAP_TOKEN_SECRET_TYPE,
    stringData: { 'token-id': id, 'token-secret': secret, ...data },
  });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

/** RFC 3339 UTC `ms` milliseconds from now, whole seconds. */
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d+Z$/, 'Z');

describe('bootstrap token authentication (spec 001 § Bootstrap tokens, --enable-bootstrap-token-auth)', () => {
  const server = useTestServer({ authentication: { enableBootstrapTokenAuth: true } });
  const probe = (token: string) => server().admin.get(PROBE, { creds: { token } });
  /** Waits until `token` authenticates (the Secrets informer has caught up to it). */
  const authenticates = (token: string) => eventually(async () => (await probe(token)).status === 403, 10_000, `${token} authenticates`);

  it(`authenticates a token as system:bootstrap:<id> (then authorization decides: 403 outside system:masters)${covers('001 § Methods › Bootstrap token')}`, async () => {
    await createToken(server(), 'abcdef', '0123456789abcdef', {
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': 'system:bootstrappers:workers',
    });
    await authenticates('abcdef.0123456789abcdef');
    const res = await probe('abcdef.0123456789abcdef');
    expect(res.body).to.include({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(res.body.message).to.equal(
      'configmaps is forbidden: User "system:bootstrap:abcdef" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
  });

  it(`rejects with 401 a token that is expired, not marked for authentication, or presented with the wrong secret${covers('001 § Bootstrap tokens › expiration', '001 § Bootstrap tokens › usage-bootstrap-authentication', '001 § Bootstrap tokens › token-secret')}`, async () => {
    await createToken(server(), 'expird', 'expiredexpired00', { 'usage-bootstrap-authentication': 'true', expiration: '2020-01-01T00:00:00Z' });
    await createToken(server(), 'nousag', 'nousagenousage00', { 'usage-bootstrap-authentication': 'false' });
    await createToken(server(), 'sentnl', 'sentinelsentinel', { 'usage-bootstrap-authentication': 'true' });
    // Watch events arrive in order: once the last Secret authenticates, the cache has the others.
    await authenticates('sentnl.sentinelsentinel');
    for (const token of ['expird.expiredexpired00', 'nousag.nousagenousage00', 'sentnl.sentinelsentine0', 'zzzzzz.sentinelsentinel']) {
      const res = await probe(token);
      expect(res.status, token).to.equal(401);
      expect(res.body, token).to.include({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    }
  });

  it('rejects a token once its Secret is deleted (after the 10 s success cache, as upstream)', async function () {
    this.timeout(30_000);
    await createToken(server(), 'delete', 'deletedeletedele', { 'usage-bootstrap-authentication': 'true' });
    await authenticates('delete.deletedeletedele');
    expect((await server().admin.delete(`${SECRETS}/bootstrap-token-delete`)).status).to.equal(200);
    await eventually(async () => (await probe('delete.deletedeletedele')).status === 401, 20_000, 'deleted token rejected');
  });

  it(`refuses on write, with 422, an auth-extra-groups entry outside system:bootstrappers:${covers('001 § Bootstrap tokens › auth-extra-groups')}`, async () => {
    const res = await server().admin.post(SECRETS, {
      metadata: { name: 'bootstrap-token-groups' },
      type: BOOTSTRAP_TOKEN_SECRET_TYPE,
      stringData: { 'token-id': 'groups', 'token-secret': '0123456789abcdef', 'auth-extra-groups': 'system:bootstrappers:ok,system:masters' },
    });
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
    const detail = 'bootstrap group "system:masters" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)';
    expect(res.body.details).to.deep.equal({
      name: 'bootstrap-token-groups',
      kind: 'Secret',
      causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "system:bootstrappers:ok,system:masters": ${detail}`, field: 'data[auth-extra-groups]' }],
    });
    expect(res.body.message).to.equal(`Secret "bootstrap-token-groups" is invalid: data[auth-extra-groups]: Invalid value: "system:bootstrappers:ok,system:masters": ${detail}`);
  });
});

describe('bootstrap tokens without --enable-bootstrap-token-auth; the tokencleaner controller (spec 001 § Bootstrap tokens)', () => {
  const server = useTestServer({ controllers: ['tokencleaner'] });

  it(`does not authenticate bootstrap tokens when the flag is off${covers('001 § Methods › Bootstrap token')}`, async () => {
    await createToken(server(), 'flgoff', '0123456789abcdef', { 'usage-bootstrap-authentication': 'true' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // 401 when another token method runs and nobody accepts the token; 403 for system:anonymous
    // when no token method is configured (the Authorization header is then not looked at).
    const res = await server().admin.get(PROBE, { creds: { token: 'flgoff.0123456789abcdef' } });
    expect(res.status).to.be.oneOf([401, 403]);
    expect(res.text).to.not.include('system:bootstrap:');
  });

  it('deletes a token Secret at its expiration and keeps the others', async () => {
    await createToken(server(), 'expire', '0123456789abcdef', { expiration: inMs(2_000) });
    await createToken(server(), 'future', '0123456789abcdef', { expiration: inMs(3_600_000) });
    await createToken(server(), 'noexp0', '0123456789abcdef');
    expect((await server().admin.get(`${SECRETS}/bootstrap-token-expire`)).status).to.equal(200);
    await eventually(async () => (await server().admin.get(`${SECRETS}/bootstrap-token-expire`)).status === 404, 8_000, 'expired token deleted');
    expect((await server().admin.get(`${SECRETS}/bootstrap-token-future`)).status).to.equal(200);
    expect((await server().admin.get(`${SECRETS}/bootstrap-token-noexp0`)).status).to.equal(200);
  });

  it('deletes a token Secret that is already expired when it is created', async () => {
    await createToken(server(), 'stale0', '0123456789abcdef', { expiration: '2020-01-01T00:00:00Z' });
    await eventually(async () => (await server().admin.get(`${SECRETS}/bootstrap-token-stale0`)).status === 404, 5_000, 'stale token deleted');
  });

  it('does not run the bootstrap signer unless enabled', async () => {
    expect((await server().admin.get(CLUSTER_INFO)).status).to.equal(404);
  });
});

describe('the bootstrapsigner controller (spec 001 § Bootstrap tokens: signing)', () => {
  const server = useTestServer({ controllers: ['bootstrapsigner'] });
  const clusterInfo = async () => (await server().admin.get(CLUSTER_INFO)).body as { data: Record<string, string> };
  const jwsKeys = (data: Record<string, string>) => Object.keys(data).filter((k) => k.startsWith('jws-kubeconfig-')).sort();

  /**
   * Verifies a detached JWS as a joining client does (spec 001 § Bootstrap tokens): payload
   * base64url (no `=`) between the dots, HS256 only, the full token `<id>.<secret>` as key.
   */
  async function verifies(detached: string, payload: string, token: string): Promise<boolean> {
    const [header, middle, signature] = detached.split('.');
    if (middle !== '') return false;
    const full = `${header}.${Buffer.from(payload, 'utf8').toString('base64url')}.${signature}`;
    return compactVerify(full, new TextEncoder().encode(token), { algorithms: ['HS256'] }).then(
      () => true,
      () => false,
    );
  }

  it('creates cluster-info with a kubeconfig naming the server URL and the CA that verifies it', async () => {
    await eventually(async () => (await server().admin.get(CLUSTER_INFO)).status === 200, 10_000, 'cluster-info created');
    const doc = parseYAML((await clusterInfo()).data.kubeconfig);
    const { pki } = await usePKI();
    expect(doc).to.deep.include({ apiVersion: 'v1', kind: 'Config' });
    expect(doc.clusters).to.have.length(1);
    expect(doc.clusters[0].cluster.server).to.equal(server().url);
    expect(Buffer.from(doc.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8')).to.equal(pki.caCertPem);
  });

  it(`signs the kubeconfig per signing token, verifiable by a joining client with that token only${covers('001 § Bootstrap tokens › usage-bootstrap-signing')}`, async () => {
    await createToken(server(), 'signer', 'signersecret0000', { 'usage-bootstrap-signing': 'true' });
    await createToken(server(), 'nosign', 'nosignsecret0000', { 'usage-bootstrap-authentication': 'true' });
    await eventually(async () => 'jws-kubeconfig-signer' in (await clusterInfo()).data, 10_000, 'signature written');
    const { data } = await clusterInfo();
    expect(jwsKeys(data)).to.deep.equal(['jws-kubeconfig-signer']);
    expect(await verifies(data['jws-kubeconfig-signer']!, data.kubeconfig!, 'signer.signersecret0000')).to.equal(true);
    expect(await verifies(data['jws-kubeconfig-signer']!, data.kubeconfig!, 'signersecret0000')).to.equal(false);
    expect(await verifies(data['jws-kubeconfig-signer']!, data.kubeconfig!, 'nosign.nosignsecret0000')).to.equal(false);
    expect(await verifies(data['jws-kubeconfig-signer']!, `${data.kubeconfig!} `, 'signer.signersecret0000')).to.equal(false);
  });

  it('re-signs an edited kubeconfig', async () => {
    await eventually(async () => 'jws-kubeconfig-signer' in (await clusterInfo()).data, 10_000, 'signature written');
    const edited = (await clusterInfo()).data.kubeconfig!.replace(server().url, 'https://example.invalid:6443');
    const res = await server().admin.patch(CLUSTER_INFO, { data: { kubeconfig: edited } }, 'application/merge-patch+json');
    expect(res.status).to.equal(200);
    await eventually(async () => {
      const { data } = await clusterInfo();
      return data.kubeconfig === edited && (await verifies(data['jws-kubeconfig-signer']!, edited, 'signer.signersecret0000'));
    }, 10_000, 'edited kubeconfig signed');
  });

  it(`removes the signature of a token that loses usage-bootstrap-signing${covers('001 § Bootstrap tokens › usage-bootstrap-signing')}`, async () => {
    await eventually(async () => 'jws-kubeconfig-signer' in (await clusterInfo()).data, 10_000, 'signature written');
    const res = await server().admin.patch(`${SECRETS}/bootstrap-token-signer`, { stringData: { 'usage-bootstrap-signing': 'false' } }, 'application/merge-patch+json');
    expect(res.status).to.equal(200);
    await eventually(async () => jwsKeys((await clusterInfo()).data).length === 0, 10_000, 'signature removed');
  });

  it(`removes the signature of a token when it expires${covers('001 § Bootstrap tokens › expiration')}`, async () => {
    await createToken(server(), 'shortl', 'shortlivedsecret', { 'usage-bootstrap-signing': 'true', expiration: inMs(2_000) });
    await eventually(async () => 'jws-kubeconfig-shortl' in (await clusterInfo()).data, 10_000, 'signature written');
    await eventually(async () => !('jws-kubeconfig-shortl' in (await clusterInfo()).data), 8_000, 'signature of the expired token removed');
    expect((await server().admin.get(`${SECRETS}/bootstrap-token-shortl`)).status).to.equal(200);
  });

  it('creates cluster-info again when it is deleted', async () => {
    const before = await server().admin.get(CLUSTER_INFO);
    expect((await server().admin.delete(CLUSTER_INFO)).status).to.equal(200);
    await eventually(async () => {
      const res = await server().admin.get(CLUSTER_INFO);
      return res.status === 200 && res.body.metadata.uid !== before.body.metadata.uid;
    }, 10_000, 'cluster-info recreated');
  });
});
