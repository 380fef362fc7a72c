import { expect } from 'chai';
import { CERTIFICATES_GROUP } from '../../../lib/apis/certificates/v1/index.js';
import { useTestServer } from '../../framework/test-server.js';
import { b64, certificatePem, csrPem } from '../../unit/apis/certificates/v1/csr-builder.js';

const MERGE = 'application/merge-patch+json';
const GV = `/apis/${CERTIFICATES_GROUP}/v1`;
const CSRS = `${GV}/certificatesigningrequests`;
const REQUEST = b64(csrPem('ec'));

const csr = (name: string, signerName = 'example.com/signer', extra: object = {}) => ({
  metadata: { name },
  spec: { request: REQUEST, signerName, usages: ['client auth'], expirationSeconds: 3600, ...extra },
});
const names = (res: { body: { items: { metadata: { name: string } }[] } }) => res.body.items.map((i) => i.metadata.name).sort();
const causes = (res: { body: { details: { causes: { field: string; message: string }[] } } }) => res.body.details.causes.map((c) => `${c.field}: ${c.message}`);
const approve = (obj: { status?: object }, type = 'Approved') => ({ ...obj, status: { conditions: [{ type, status: 'True', reason: 'Test', message: 'by the test' }] } });

describe('CertificateSigningRequest over HTTP (issue #12)', () => {
  const server = useTestServer();
  // Alice may create requests as a member of the privileged group, which the admin may impersonate.
  const asAlice = { headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes': 'read' } };

  it('discovery lists the resource, its short name and the approval and status subresources', async () => {
    const res = await server().admin.get(GV);
    expect(res.status).to.equal(200);
    expect(res.body.resources.map((r: { name: string }) => r.name)).to.deep.equal(['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status']);
    expect(res.body.resources[0]).to.deep.include({ kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'] });
    expect(res.body.resources[1]).to.deep.include({ kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] });
  });

  it('OpenAPI describes the approval subresource like status', async () => {
    const res = await server().admin.get(`/openapi/v3/apis/${CERTIFICATES_GROUP}/v1`);
    expect(res.status).to.equal(200);
    const path = res.body.paths[`${CSRS}/{name}/approval`];
    expect(Object.keys(path).filter((k) => ['get', 'put', 'patch'].includes(k)).sort()).to.deep.equal(['get', 'patch', 'put']);
    expect(path.put.operationId).to.equal('replaceCertificatesV1CertificateSigningRequestApproval');
    expect(res.body.paths[`${CSRS}/{name}/status`].put.operationId).to.equal('replaceCertificatesV1CertificateSigningRequestStatus');
  });

  it('create records the requesting user, not the client-sent one; get, list and delete', async () => {
    const created = await server().admin.post(CSRS, csr('c1', 'example.com/signer', { username: 'mallory', groups: ['system:masters'] }), asAlice);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec).to.deep.include({ username: 'alice', uid: 'u-1', groups: ['system:masters', 'system:authenticated'], extra: { scopes: ['read'] } });
    expect(created.body.status).to.deep.equal({});
    expect((await server().admin.get(`${CSRS}/c1`)).body.spec.username).to.equal('alice');
    expect(names(await server().admin.get(CSRS))).to.include('c1');
    expect((await server().admin.delete(`${CSRS}/c1`)).status).to.equal(200);
    expect((await server().admin.get(`${CSRS}/c1`)).status).to.equal(404);
  });

  it('an invalid request is 422 with the upstream causes', async () => {
    const res = await server().admin.post(CSRS, { metadata: { name: 'bad' }, spec: { request: b64('hi'), signerName: 'example.com', expirationSeconds: 60 } });
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ kind: 'Status', reason: 'Invalid' });
    expect(causes(res)).to.deep.equal([
      'spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST',
      'spec.usages: Required value',
      "spec.signerName: Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
  });

  it('selects by spec.signerName', async () => {
    await server().admin.post(CSRS, csr('sel-a', 'example.com/a'));
    await server().admin.post(CSRS, csr('sel-b', 'example.com/b'));
    expect(names(await server().admin.get(`${CSRS}?fieldSelector=spec.signerName%3Dexample.com%2Fb`))).to.deep.equal(['sel-b']);
  });

  it('main updates change metadata only: spec and status are kept', async () => {
    const created = (await server().admin.post(CSRS, csr('main'))).body;
    const res = await server().admin.put(`${CSRS}/main`, { ...approve(created), metadata: { ...created.metadata, labels: { a: 'b' } }, spec: { ...created.spec, signerName: 'example.com/other' } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.metadata.labels).to.deep.equal({ a: 'b' });
    expect(res.body.spec.signerName).to.equal('example.com/signer');
    expect(res.body.status).to.deep.equal({});
    const patched = await server().admin.patch(`${CSRS}/main`, { spec: { usages: ['server auth'] }, metadata: { annotations: { x: 'y' } } }, MERGE);
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.spec.usages).to.deep.equal(['client auth']);
  });

  it('approval approves (stamping the condition), never unapproves, and excludes Denied; status cannot approve', async () => {
    const created = (await server().admin.post(CSRS, csr('appr'))).body;
    const viaStatus = await server().admin.put(`${CSRS}/appr/status`, approve(created));
    expect(viaStatus.status).to.equal(422);
    expect(causes(viaStatus)).to.deep.equal(['status.conditions: Forbidden: updates may not add a condition of type "Approved"']);
    const approved = await server().admin.put(`${CSRS}/appr/approval`, approve(created));
    expect(approved.status, approved.text).to.equal(200);
    const [condition] = approved.body.status.conditions;
    expect(condition).to.include({ type: 'Approved', status: 'True', reason: 'Test' });
    expect(condition.lastUpdateTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await server().admin.get(`${CSRS}/appr/approval`)).body.status.conditions[0].type).to.equal('Approved');
    const removed = await server().admin.put(`${CSRS}/appr/approval`, { ...approved.body, status: { conditions: [] } });
    expect(removed.status).to.equal(422);
    expect(causes(removed)).to.deep.equal(['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
    const denied = await server().admin.patch(`${CSRS}/appr/approval`, { status: { conditions: [...approved.body.status.conditions, { type: 'Denied', status: 'True' }] } }, MERGE);
    expect(denied.status).to.equal(422);
    expect(causes(denied)).to.deep.equal(['status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']);
  });

  it('the certificate is set once, through status only', async () => {
    const created = (await server().admin.post(CSRS, csr('issue'))).body;
    const approved = (await server().admin.put(`${CSRS}/issue/approval`, approve(created))).body;
    const certificate = b64(certificatePem());
    const viaApproval = await server().admin.patch(`${CSRS}/issue/approval`, { status: { certificate } }, MERGE);
    expect(viaApproval.status, viaApproval.text).to.equal(200);
    expect(viaApproval.body.status.certificate).to.equal(undefined);
    const bad = await server().admin.patch(`${CSRS}/issue/status`, { status: { certificate: b64('junk') } }, MERGE);
    expect(bad.status).to.equal(422);
    expect(causes(bad)).to.deep.equal(['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']);
    const issued = await server().admin.patch(`${CSRS}/issue/status`, { status: { certificate } }, MERGE);
    expect(issued.status, issued.text).to.equal(200);
    expect(issued.body.status.certificate).to.equal(certificate);
    expect(issued.body.status.conditions).to.deep.equal(approved.status.conditions);
    const again = await server().admin.patch(`${CSRS}/issue/status`, { status: { certificate: b64(certificatePem()) } }, MERGE);
    expect(again.status).to.equal(422);
    expect(causes(again)).to.deep.equal(['status.certificate: Forbidden: updates may not modify existing certificate content']);
    const table = await server().admin.get(`${CSRS}/issue`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.body.rows[0].cells.slice(2)).to.deep.equal(['example.com/signer', created.spec.username, '60m', 'Approved,Issued']);
  });
});
