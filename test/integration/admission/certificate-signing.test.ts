/**
 * CertificateSigning against a real server (spec 001 § Admission control): setting
 * `status.certificate` of a CertificateSigningRequest needs `sign` on its signer, by name or by the
 * domain wildcard, granted by RBAC to a static-token user; other status updates need no such verb.
 */
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { b64, certificatePem, csrPem } from '../../unit/apis/certificates/v1/csr-builder.js';
import { CERTIFICATES, CSRS, csrBody, expectStatus, grant, tokenFile, waitForGrant } from './csr-fixtures.js';
import { covers } from '../../conformance/covers.js';

const REQUEST = b64(csrPem('ec'));
const CERTIFICATE = b64(certificatePem());
const APPROVED = { type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' };

describe('CertificateSigning admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ tokens: tokenFile(['signer', 'wildcard', 'nosigner']), admission: { plugins: ['NamespaceLifecycle', 'CertificateSigning'] } });
  const as = (user: string) => server().admin.as({ token: `${user}-token` });

  before(async () => {
    const admin = server().admin;
    await grant(admin, 'signer', 'status', 'sign', ['example.com/allowed']);
    await grant(admin, 'wildcard', 'status', 'sign', ['wild.example/*']);
    await grant(admin, 'nosigner', 'status', 'sign', []);
    for (const [name, signer] of [['allowed', 'example.com/allowed'], ['other', 'example.com/other'], ['wild', 'wild.example/any']] as const) {
      expectStatus(await admin.post(CSRS, csrBody(name, signer, REQUEST)), 201);
      const csr = (await admin.get(`${CSRS}/${name}`)).body;
      expectStatus(await admin.put(`${CSRS}/${name}/approval`, { ...csr, status: { conditions: [APPROVED] } }), 200);
    }
    for (const user of ['signer', 'wildcard', 'nosigner']) await waitForGrant(as(user));
  });

  let step = 0;
  /** PUTs the CSR's status with `certificate` (undefined: unchanged) and a new condition, as `user`. */
  async function putStatus(user: string, name: string, certificate?: string) {
    const csr = (await server().admin.get(`${CSRS}/${name}`)).body;
    const conditions = [...csr.status.conditions, { type: `Step${++step}`, status: 'True', reason: user }];
    return as(user).put(`${CSRS}/${name}/status`, { ...csr, status: { ...csr.status, conditions, ...(certificate !== undefined && { certificate }) } });
  }

  it('a user without sign on the signer may still update other status fields', async () => {
    const res = await putStatus('nosigner', 'other');
    expectStatus(res, 200);
    expect(res.body.status.certificate).to.equal(undefined);
  });

  it(`a user without sign on the signer cannot set the certificate: 403 with upstream Status${covers('001 § Admission control › CertificateSigning')}`, async () => {
    for (const user of ['nosigner', 'signer', 'wildcard']) {
      const res = await putStatus(user, 'other', CERTIFICATE);
      expectStatus(res, 403);
      expect(res.body).to.deep.include({
        message: `certificatesigningrequests.${CERTIFICATES} "other" is forbidden: user not permitted to sign requests with signerName "example.com/other"`,
        reason: 'Forbidden',
        details: { name: 'other', group: CERTIFICATES, kind: 'certificatesigningrequests' },
        code: 403,
      });
    }
    expect((await server().admin.get(`${CSRS}/other`)).body.status.certificate).to.equal(undefined);
  });

  it(`a user allowed to sign for the signer, or for its domain wildcard, sets the certificate${covers('001 § Admission control › CertificateSigning')}`, async () => {
    const res = await putStatus('signer', 'allowed', CERTIFICATE);
    expectStatus(res, 200);
    expect(res.body.status.certificate).to.equal(CERTIFICATE);
    expectStatus(await putStatus('wildcard', 'wild', CERTIFICATE), 200);
  });

  it('once issued, status updates that keep the certificate need no sign permission', async () => {
    expectStatus(await putStatus('nosigner', 'allowed'), 200);
  });
});
