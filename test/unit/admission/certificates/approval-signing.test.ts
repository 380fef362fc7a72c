import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { CertificateApproval } from '../../../../lib/admission/plugins/certificates/approval.js';
import { CertificateSigning } from '../../../../lib/admission/plugins/certificates/signing.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { upstreamAlias, vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import type { UserInfo } from '../../../../lib/request/user.js';
import { admissionAttrs, rejection } from '../attrs.js';
import { fakeAuthorizer, quietLog } from './fakes.js';

const BOB: UserInfo = { name: 'bob', groups: ['devs'] };
const GROUP = vendorGroup('certificates');
const csr = (signerName: string, certificate?: string): Obj => ({
  metadata: { name: 'c1' },
  spec: { signerName, request: 'cmVx', usages: ['client auth'] },
  status: certificate === undefined ? {} : { certificate },
});
const authz = fakeAuthorizer({ 'bob approve example.com/ok': 'Allow', 'bob sign example.com/ok': 'Allow', 'bob approve wild.example/*': 'Allow', 'bob sign wild.example/*': 'Allow' });

function update(a: Partial<AdmissionAttributes>): AdmissionAttributes {
  return admissionAttrs(BOB, { operation: 'UPDATE', group: GROUP, resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', name: 'c1', ...a });
}

/** `<code> <message>` of the rejection, or '' when admitted. */
async function outcome(plugin: CertificateApproval | CertificateSigning, a: AdmissionAttributes): Promise<string> {
  return rejection(plugin.validate(internalContext(BOB), a));
}

describe('CertificateApproval admission (spec 001 § Admission control)', () => {
  const plugin = new CertificateApproval(authz, quietLog());

  it('handles updates only', () => {
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].filter((op) => plugin.handles(op as never))).to.deep.equal(['UPDATE']);
  });

  it('admits an approval by a user allowed to approve for the signer, by name or by domain wildcard', async () => {
    expect(await outcome(plugin, update({ subresource: 'approval', object: csr('example.com/ok'), oldObject: csr('example.com/ok') }))).to.equal('');
    expect(await outcome(plugin, update({ subresource: 'approval', object: csr('wild.example/any'), oldObject: csr('wild.example/any') }))).to.equal('');
  });

  it('rejects an approval for a signer the user may not approve for, with the status and message of upstream', async () => {
    const a = update({ subresource: 'approval', object: csr('example.com/other'), oldObject: csr('example.com/other') });
    let err: StatusError | undefined;
    try {
      await plugin.validate(internalContext(BOB), a);
    } catch (e) {
      err = e as StatusError;
    }
    expect(err?.status).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `certificatesigningrequests.${GROUP} "c1" is forbidden: user not permitted to approve requests with signerName "example.com/other"`,
      reason: 'Forbidden',
      details: { name: 'c1', group: GROUP, kind: 'certificatesigningrequests' },
      code: 403,
    });
  });

  it('checks the signer of the new object, so that switching signers cannot dodge the check', async () => {
    expect(await outcome(plugin, update({ subresource: 'approval', object: csr('example.com/other'), oldObject: csr('example.com/ok') }))).to.match(/^403 .*signerName "example.com\/other"$/);
  });

  it('ignores the main resource, the status subresource, other resources and a group spelled as the upstream alias is still checked', async () => {
    const denied = csr('example.com/other');
    expect(await outcome(plugin, update({ object: denied, oldObject: denied }))).to.equal('');
    expect(await outcome(plugin, update({ subresource: 'status', object: denied, oldObject: denied }))).to.equal('');
    expect(await outcome(plugin, update({ resource: 'configmaps', group: '', subresource: 'approval', object: denied, oldObject: denied }))).to.equal('');
    expect(await outcome(plugin, update({ group: upstreamAlias(GROUP)!, subresource: 'approval', object: denied, oldObject: denied }))).to.match(/^403 /);
  });
});

describe('CertificateSigning admission (spec 001 § Admission control)', () => {
  const plugin = new CertificateSigning(authz, quietLog());

  it('handles updates only', () => {
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].filter((op) => plugin.handles(op as never))).to.deep.equal(['UPDATE']);
  });

  it('admits setting the certificate by a user allowed to sign for the signer, by name or by wildcard', async () => {
    expect(await outcome(plugin, update({ subresource: 'status', object: csr('example.com/ok', 'Y2VydA=='), oldObject: csr('example.com/ok') }))).to.equal('');
    expect(await outcome(plugin, update({ subresource: 'status', object: csr('wild.example/x', 'Y2VydA=='), oldObject: csr('wild.example/x') }))).to.equal('');
  });

  it('rejects a certificate change by a user who may not sign for the stored signer', async () => {
    expect(await outcome(plugin, update({ subresource: 'status', object: csr('example.com/ok', 'Y2VydA=='), oldObject: csr('example.com/other') }))).to.equal(
      `403 certificatesigningrequests.${GROUP} "c1" is forbidden: user not permitted to sign requests with signerName "example.com/other"`,
    );
    expect(await outcome(plugin, update({ subresource: 'status', object: csr('example.com/other'), oldObject: csr('example.com/other', 'Y2VydA==') }))).to.match(/^403 /);
    expect(await outcome(plugin, update({ subresource: 'status', object: csr('example.com/other', ''), oldObject: csr('example.com/other') }))).to.match(/^403 /);
  });

  it('admits status updates that leave the certificate as it is, and ignores other subresources', async () => {
    const other = csr('example.com/other', 'Y2VydA==');
    expect(await outcome(plugin, update({ subresource: 'status', object: { ...other, status: { certificate: 'Y2VydA==', conditions: [] } }, oldObject: other }))).to.equal('');
    expect(await outcome(plugin, update({ subresource: 'approval', object: csr('example.com/other', 'eA=='), oldObject: csr('example.com/other') }))).to.equal('');
    expect(await outcome(plugin, update({ object: csr('example.com/other', 'eA=='), oldObject: csr('example.com/other') }))).to.equal('');
  });
});
