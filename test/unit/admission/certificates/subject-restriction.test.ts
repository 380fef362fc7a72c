import { expect } from 'chai';
import forge from 'node-forge';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { requestOrganizations } from '../../../../lib/admission/plugins/certificates/csr-subject.js';
import { APISERVER_CLIENT_SIGNER, CertificateSubjectRestriction } from '../../../../lib/admission/plugins/certificates/subject-restriction.js';
import { signerName, vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import type { UserInfo } from '../../../../lib/request/user.js';
import { admissionAttrs, rejection } from '../attrs.js';
import { commonName, csrWithSubject, organization } from './csr-subject-builder.js';

const BOB: UserInfo = { name: 'bob', groups: ['devs'] };
const GROUP = vendorGroup('certificates');
const plugin = new CertificateSubjectRestriction();
const b64 = (text: string) => Buffer.from(text, 'binary').toString('base64');

function create(request: string, signer = APISERVER_CLIENT_SIGNER, a: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return admissionAttrs(BOB, {
    group: GROUP,
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    name: 'c1',
    object: { metadata: { name: 'c1' }, spec: { request: b64(request), signerName: signer, usages: ['client auth'] } },
    ...a,
  });
}

async function outcome(a: AdmissionAttributes): Promise<string> {
  return rejection(plugin.validate(internalContext(BOB), a));
}

describe('CertificateSubjectRestriction admission (spec 001 § Admission control)', () => {
  const masters = csrWithSubject([commonName('eve'), organization('devs'), organization('system:masters')]);

  it('the API server client signer is the vendor spelling of upstream kube-apiserver-client', () => {
    expect(APISERVER_CLIENT_SIGNER).to.equal(signerName('apiserver-client'));
  });

  it('handles creations only', () => {
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].filter((op) => plugin.handles(op as never))).to.deep.equal(['CREATE']);
  });

  it('rejects a system:masters request to the API server client signer with 403 and upstream message', async () => {
    expect(await outcome(create(masters))).to.equal(
      `403 certificatesigningrequests.${GROUP} "c1" is forbidden: use of ${APISERVER_CLIENT_SIGNER} signer with system:masters group is not allowed`,
    );
  });

  it('admits other organizations, other signers, updates and other resources', async () => {
    expect(await outcome(create(csrWithSubject([commonName('system:masters'), organization('devs'), organization('system:masters-ish')])))).to.equal('');
    expect(await outcome(create(masters, 'example.com/signer'))).to.equal('');
    expect(await outcome(create(masters, signerName('apiserver-client-kubelet')))).to.equal('');
    expect(await outcome(create(masters, APISERVER_CLIENT_SIGNER, { operation: 'UPDATE' }))).to.equal('');
    expect(await outcome(create(masters, APISERVER_CLIENT_SIGNER, { subresource: 'status' }))).to.equal('');
    expect(await outcome(create(masters, APISERVER_CLIENT_SIGNER, { resource: 'configmaps', group: '' }))).to.equal('');
  });

  it('a request that is not a PEM certificate request: 403 failed to parse CSR, as upstream', async () => {
    expect(await outcome(create('not pem'))).to.equal(
      `403 certificatesigningrequests.${GROUP} "c1" is forbidden: failed to parse CSR: PEM block type must be CERTIFICATE REQUEST`,
    );
    const certificate = forge.pem.encode({ type: 'CERTIFICATE', body: 'x' });
    expect(await outcome(create(certificate))).to.match(/failed to parse CSR: PEM block type must be CERTIFICATE REQUEST$/);
    expect(await outcome(create(forge.pem.encode({ type: 'CERTIFICATE REQUEST', body: '\x30\x03\x02' })))).to.match(/failed to parse CSR: asn1: /);
  });
  it('names the object by generateName when it has no name yet', async () => {
    const a = create(masters, APISERVER_CLIENT_SIGNER, { name: '' });
    a.object!.metadata = { generateName: 'csr-' };
    expect(await outcome(a)).to.match(/^403 certificatesigningrequests\.\S+ "csr-" is forbidden/);
  });
});

describe('certificate request subject organizations', () => {
  const { Type } = forge.asn1;

  it('reads every O value in order, whatever RDN it is in', () => {
    expect(requestOrganizations(Buffer.from(csrWithSubject([organization('a'), commonName('x'), organization('système')])))).to.deep.equal(['a', 'système']);
    expect(requestOrganizations(Buffer.from(csrWithSubject([commonName('x')])))).to.deep.equal([]);
  });

  it('decodes the string types Go accepts (PrintableString, IA5String, BMPString)', () => {
    const o = (tag: number, bytes: string) => ({ oid: '2.5.4.10', tag, bytes });
    const bmp = Buffer.from('system:masters', 'utf16le').swap16().toString('binary');
    const pem = csrWithSubject([o(Type.PRINTABLESTRING, 'p'), o(Type.IA5STRING, 'i'), o(Type.BMPSTRING, bmp), o(Type.OCTETSTRING, 'skipped')]);
    expect(requestOrganizations(Buffer.from(pem))).to.deep.equal(['p', 'i', 'system:masters']);
  });

  it('refuses values Go refuses, with its wording', () => {
    const o = (tag: number, bytes: string) => ({ oid: '2.5.4.10', tag, bytes });
    expect(() => requestOrganizations(Buffer.from(csrWithSubject([o(Type.UTF8, '\xff')])))).to.throw('asn1: syntax error: invalid UTF-8 string');
    expect(() => requestOrganizations(Buffer.from(csrWithSubject([o(Type.PRINTABLESTRING, 'a_b')])))).to.throw('asn1: syntax error: PrintableString contains invalid character');
    expect(() => requestOrganizations(Buffer.from(csrWithSubject([o(Type.BMPSTRING, 'abc')])))).to.throw('invalid BMPString');
  });

  it('refuses DER that is not a certification request', () => {
    const pem = (body: string) => Buffer.from(forge.pem.encode({ type: 'CERTIFICATE REQUEST', body }));
    expect(() => requestOrganizations(pem('\x30\x05\x02'))).to.throw('asn1: syntax error: data truncated');
    expect(() => requestOrganizations(pem('\x02\x01\x00'))).to.throw("asn1: structure error: tags don't match");
    expect(() => requestOrganizations(pem('\x30\x00'))).to.throw("asn1: structure error: tags don't match");
  });
});
