/**
 * Legacy service-account token Secrets filled in by the tokens controller (spec 001 § Principals
 * and attributes: service-account "credentials held in Secrets", § Methods: Service account
 * token with `--service-account-lookup`; issue #20 with issue #10): a Secret of type
 * `<vendor>.io/service-account-token` annotated with an account's name gets `token`, `ca.crt` and
 * `namespace` and the account's uid annotation; the token authenticates as the account while the
 * Secret exists; a token Secret of a missing account, and the token Secrets of a deleted account,
 * are deleted.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_UID_ANNOTATION, SECRET_TYPE } from '../../../lib/apis/core/v1/secret-types.js';
import { LEGACY_SERVICE_ACCOUNT_ISSUER, legacyServiceAccountClaim, vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = 'legacy-tokens';
const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
const AUTHN = `/apis/${vendorGroup('authentication')}/v1`;
const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('legacy service-account token Secrets and the tokens controller (spec 001 § Methods: Service account token)', function () {
  this.timeout(60_000);
  const server = useTestServer({ controllers: ['serviceaccount-token'] });
  const admin = () => server().admin;

  before(async () => {
    expectStatus(await admin().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }), 201);
  });

  async function serviceAccount(name: string): Promise<{ name: string; uid: string }> {
    const res = await admin().post(`/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
    expectStatus(res, 201);
    return { name, uid: res.body.metadata.uid as string };
  }

  const tokenSecret = (name: string, account: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    type: SECRET_TYPE.serviceAccountToken,
    metadata: { name, annotations: { [SERVICE_ACCOUNT_NAME_ANNOTATION]: account } },
  });

  /** Polls GET `path` every 50 ms for up to 10 s until `done` accepts the answer. */
  async function until(path: string, done: (res: TestResponse) => boolean): Promise<TestResponse> {
    for (let i = 0; ; i++) {
      const res = await admin().get(path);
      if (done(res)) return res;
      if (i >= 200) throw new Error(`not within 10 s: ${res.status} ${res.text}`);
      await sleep(50);
    }
  }
  const filled = (res: TestResponse) => res.status === 200 && res.body.data?.token !== undefined;

  const whoami = (token: string) => admin().post(`${AUTHN}/selfsubjectreviews`, { apiVersion: `${vendorGroup('authentication')}/v1`, kind: 'SelfSubjectReview' }, { creds: { token } });

  it('fills in token, ca.crt and namespace and the uid annotation of a Secret naming an existing account', async () => {
    const robot = await serviceAccount('robot');
    expectStatus(await admin().post(SECRETS, tokenSecret('robot-token', 'robot')), 201);
    const secret = (await until(`${SECRETS}/robot-token`, filled)).body;
    expect(secret.metadata.annotations).to.deep.include({ [SERVICE_ACCOUNT_NAME_ANNOTATION]: 'robot', [SERVICE_ACCOUNT_UID_ANNOTATION]: robot.uid });
    expect(Buffer.from(secret.data.namespace, 'base64').toString()).to.equal(NS);
    expect(Buffer.from(secret.data['ca.crt'], 'base64').toString()).to.match(/^-----BEGIN CERTIFICATE-----/);
    const token = Buffer.from(secret.data.token, 'base64').toString();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).to.deep.equal({
      iss: LEGACY_SERVICE_ACCOUNT_ISSUER,
      sub: `system:serviceaccount:${NS}:robot`,
      [legacyServiceAccountClaim('namespace')]: NS,
      [legacyServiceAccountClaim('secret.name')]: 'robot-token',
      [legacyServiceAccountClaim('service-account.name')]: 'robot',
      [legacyServiceAccountClaim('service-account.uid')]: robot.uid,
    });
  });

  it('the token authenticates as the account while the Secret exists; deleting the Secret revokes it', async () => {
    const robot = await serviceAccount('builder');
    expectStatus(await admin().post(SECRETS, tokenSecret('builder-token', 'builder')), 201);
    const secret = (await until(`${SECRETS}/builder-token`, filled)).body;
    const token = Buffer.from(secret.data.token, 'base64').toString();
    const who = await whoami(token);
    expectStatus(who, 201);
    expect(who.body.status.userInfo).to.deep.include({ username: `system:serviceaccount:${NS}:builder`, uid: robot.uid });
    expect(who.body.status.userInfo.groups).to.include.members(['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated']);

    expectStatus(await admin().delete(`${SECRETS}/builder-token`), 200);
    // A successful authentication is cached for 10 s (as upstream): the revocation shows within that.
    for (let i = 0; i < 60 && (await whoami(token)).status === 201; i++) await sleep(250);
    const res = await whoami(token);
    expectStatus(res, 401);
    expect(res.body).to.deep.include({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
  });

  it('keeps a token the Secret already holds, and fills in only what is missing', async () => {
    await serviceAccount('keeper');
    const given = { ...tokenSecret('keeper-token', 'keeper'), data: { token: b64('given-token') } };
    expectStatus(await admin().post(SECRETS, given), 201);
    const secret = (await until(`${SECRETS}/keeper-token`, (r) => r.status === 200 && r.body.data?.namespace !== undefined)).body;
    expect(Buffer.from(secret.data.token, 'base64').toString()).to.equal('given-token');
  });

  it('deletes a token Secret whose account does not exist', async () => {
    expectStatus(await admin().post(SECRETS, tokenSecret('orphan-token', 'nobody')), 201);
    await until(`${SECRETS}/orphan-token`, (r) => r.status === 404);
  });

  it("deletes an account's token Secrets when the account is deleted, and no other Secret", async () => {
    await serviceAccount('leaving');
    await serviceAccount('staying');
    expectStatus(await admin().post(SECRETS, tokenSecret('leaving-token', 'leaving')), 201);
    expectStatus(await admin().post(SECRETS, tokenSecret('staying-token', 'staying')), 201);
    await until(`${SECRETS}/leaving-token`, filled);
    await until(`${SECRETS}/staying-token`, filled);
    expectStatus(await admin().delete(`/api/v1/namespaces/${NS}/serviceaccounts/leaving`), 200);
    await until(`${SECRETS}/leaving-token`, (r) => r.status === 404);
    expectStatus(await admin().get(`${SECRETS}/staying-token`), 200);
  });
});
