/**
 * CertificateSubjectRestriction against a real server (spec 001 § Admission control): a
 * CertificateSigningRequest to the API server client signer asking for the group (organization)
 * `system:masters` is refused at creation; real PEM requests made with node-forge.
 */
import { expect } from 'chai';
import { APISERVER_CLIENT_SIGNER } from '../../../lib/admission/plugins/certificates/subject-restriction.js';
import { useTestServer } from '../../framework/test-server.js';
import { commonName, csrWithSubject, organization } from '../../unit/admission/certificates/csr-subject-builder.js';
import { CERTIFICATES, CSRS, csrBody, expectStatus } from './csr-fixtures.js';
import { covers } from '../../conformance/covers.js';

const b64 = (pem: string) => Buffer.from(pem).toString('base64');
const MASTERS = b64(csrWithSubject([commonName('mallory'), organization('devs'), organization('system:masters')]));

describe('CertificateSubjectRestriction admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'CertificateSubjectRestriction'] } });

  it(`refuses a system:masters request to the API server client signer with 403 and upstream Status${covers('001 § Admission control › CertificateSubjectRestriction')}`, async () => {
    const res = await server().admin.post(CSRS, csrBody('masters', APISERVER_CLIENT_SIGNER, MASTERS));
    expectStatus(res, 403);
    expect(res.body).to.deep.include({
      message: `certificatesigningrequests.${CERTIFICATES} "masters" is forbidden: use of ${APISERVER_CLIENT_SIGNER} signer with system:masters group is not allowed`,
      reason: 'Forbidden',
      details: { name: 'masters', group: CERTIFICATES, kind: 'certificatesigningrequests' },
      code: 403,
    });
    expectStatus(await server().admin.get(`${CSRS}/masters`), 404);
  });

  it('refuses it under generateName too, naming the generated name (validation runs after it is generated, as upstream)', async () => {
    const body = csrBody('', APISERVER_CLIENT_SIGNER, MASTERS) as { metadata: object };
    const res = await server().admin.post(CSRS, { ...body, metadata: { generateName: 'csr-' } });
    expectStatus(res, 403);
    expect(res.body.message, res.text).to.match(/^certificatesigningrequests\.\S+ "csr-[a-z0-9]{5}" is forbidden: use of /);
  });

  it(`admits other groups for that signer, and system:masters for other signers${covers('001 § Admission control › CertificateSubjectRestriction')}`, async () => {
    expectStatus(await server().admin.post(CSRS, csrBody('devs', APISERVER_CLIENT_SIGNER, b64(csrWithSubject([commonName('alice'), organization('devs')])))), 201);
    expectStatus(await server().admin.post(CSRS, csrBody('elsewhere', 'example.com/signer', MASTERS)), 201);
  });

  it('a request that is not PEM is refused by validation (422) before admission, as upstream', async () => {
    const res = await server().admin.post(CSRS, csrBody('garbage', APISERVER_CLIENT_SIGNER, b64('not a pem')));
    expectStatus(res, 422);
    expect(res.body.message).to.contain('PEM block type must be CERTIFICATE REQUEST');
  });
});
