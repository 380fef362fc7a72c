/**
 * CertificateApproval against a real server (spec 001 § Admission control): approving a
 * CertificateSigningRequest through `approval` needs `approve` on its signer, by name or by the
 * domain wildcard, granted by RBAC to a static-token user.
 */
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { b64, csrPem } from '../../unit/apis/certificates/v1/csr-builder.js';
import { CERTIFICATES, CSRS, csrBody, expectStatus, grant, tokenFile, waitForGrant } from './csr-fixtures.js';
import { covers } from '../../conformance/covers.js';

const REQUEST = b64(csrPem('ec'));
const approved = (csr: { status?: object }) => ({ ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] } });

describe('CertificateApproval admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ tokens: tokenFile(['approver', 'wildcard', 'nosigner']), admission: { plugins: ['NamespaceLifecycle', 'CertificateApproval'] } });
  const as = (user: string) => server().admin.as({ token: `${user}-token` });

  before(async () => {
    const admin = server().admin;
    await grant(admin, 'approver', 'approval', 'approve', ['example.com/allowed']);
    await grant(admin, 'wildcard', 'approval', 'approve', ['wild.example/*']);
    await grant(admin, 'nosigner', 'approval', 'approve', []);
    for (const [name, signer] of [['allowed', 'example.com/allowed'], ['other', 'example.com/other'], ['wild', 'wild.example/any']] as const) {
      expectStatus(await admin.post(CSRS, csrBody(name, signer, REQUEST)), 201);
    }
    for (const user of ['approver', 'wildcard', 'nosigner']) await waitForGrant(as(user));
  });

  async function approve(user: string, name: string) {
    const csr = (await server().admin.get(`${CSRS}/${name}`)).body;
    return as(user).put(`${CSRS}/${name}/approval`, approved(csr));
  }

  it(`a user allowed to approve for the signer approves${covers('001 § Admission control › CertificateApproval')}`, async () => {
    const res = await approve('approver', 'allowed');
    expectStatus(res, 200);
    expect(res.body.status.conditions.map((c: { type: string }) => c.type)).to.deep.equal(['Approved']);
  });

  it('a user allowed to approve for the signer domain wildcard approves', async () => {
    expectStatus(await approve('wildcard', 'wild'), 200);
  });

  it(`a user without approve on the signer is refused with 403 and upstream Status, though RBAC lets them write approval${covers('001 § Admission control › CertificateApproval')}`, async () => {
    for (const user of ['nosigner', 'approver', 'wildcard']) {
      const res = await approve(user, 'other');
      expectStatus(res, 403);
      expect(res.body).to.deep.equal({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `certificatesigningrequests.${CERTIFICATES} "other" is forbidden: user not permitted to approve requests with signerName "example.com/other"`,
        reason: 'Forbidden',
        details: { name: 'other', group: CERTIFICATES, kind: 'certificatesigningrequests' },
        code: 403,
      });
    }
    expect((await server().admin.get(`${CSRS}/other`)).body.status).to.deep.equal({});
  });

  it('a merge patch of approval is checked too, and the admin (system:masters) may approve anything', async () => {
    const patch = { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }] } };
    expectStatus(await as('nosigner').patch(`${CSRS}/other/approval`, patch, 'application/merge-patch+json'), 403);
    expectStatus(await server().admin.patch(`${CSRS}/other/approval`, patch, 'application/merge-patch+json'), 200);
  });
});
