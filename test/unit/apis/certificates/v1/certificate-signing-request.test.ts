import { expect } from 'chai';
import type { FieldError } from '../../../../../lib/apimachinery/field-errors.js';
import {
  CERTIFICATES_GROUP,
  certificateSigningRequest,
  certificatesV1Kinds,
  validateCSRApprovalUpdate,
  validateCSRStatusUpdate,
  validateCSRUpdate,
} from '../../../../../lib/apis/certificates/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { signerName, vendorGroup } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, variant } from '../../kind-pipeline.js';
import { b64, certificatePem, csrPem } from './csr-builder.js';

const REQUEST = b64(csrPem('ec'));
const CERT = b64(certificatePem());
const minimal = (): Obj => ({
  kind: 'CertificateSigningRequest',
  metadata: { name: 'csr-1' },
  spec: { request: REQUEST, signerName: 'example.com/signer', usages: ['client auth'] },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(certificateSigningRequest, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(certificateSigningRequest, defaulted(mutate)));
const cond = (type: string, extra: Obj = {}): Obj => ({ type, status: 'True', ...extra });
const withStatus = (status: Obj): Obj => variant(defaulted((o) => ((o.metadata as Obj).resourceVersion = '1')), (o) => (o.status = status));

describe('certificates/v1 CertificateSigningRequest: definition (issue #12)', () => {
  it('declares the upstream discovery facts', () => {
    expect(CERTIFICATES_GROUP).to.equal(vendorGroup('certificates'));
    expect(certificateSigningRequest).to.include({
      group: CERTIFICATES_GROUP, version: 'v1', kind: 'CertificateSigningRequest', resource: 'certificatesigningrequests',
      singular: 'certificatesigningrequest', namespaced: false, statusSubresource: true, nameRule: 'pathSegment',
    });
    expect(certificateSigningRequest.shortNames).to.deep.equal(['csr']);
    expect(Object.keys(certificateSigningRequest.fieldSelectors)).to.deep.equal(['spec.signerName']);
    expect(certificateSigningRequest.fieldSelectors['spec.signerName']!(minimal())).to.equal('example.com/signer');
    expect(certificatesV1Kinds).to.deep.equal([certificateSigningRequest]);
  });

  it('applies no defaults and validates clean (ECDSA, RSA and Ed25519 requests)', () => {
    const csr = minimal();
    expect(decodeAndDefault(certificateSigningRequest, csr)).to.deep.equal({ unknownFields: [] });
    expect(csr).to.deep.equal(minimal());
    for (const kind of ['ec', 'rsa', 'ed25519'] as const) expect(errorsOf((o) => (spec(o).request = b64(csrPem(kind)))), kind).to.deep.equal([]);
  });

  it('accepts any path-segment name', () => {
    expect(errorsOf((o) => ((o.metadata as Obj).name = 'Node_CSR:1'))).to.deep.equal([]);
    expect(errorsOf((o) => ((o.metadata as Obj).name = 'a/b'))).to.deep.equal(['metadata.name: Invalid value: "a/b": may not contain \'/\'']);
  });

  it('decodes the complete fixture with no unknown field, sets every field and validates clean', () => {
    const csr = { apiVersion: certificateSigningRequest.apiVersion, ...fixture('certificate-signing-request') };
    expect(decodeAndDefault(certificateSigningRequest, csr)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(certificateSigningRequest.schema, csr, ['metadata.namespace'])).to.deep.equal([]);
    expect(messages(validateCreate(certificateSigningRequest, csr))).to.deep.equal([]);
  });
});

describe('certificates/v1 CertificateSigningRequest: validation (upstream validateCertificateSigningRequest)', () => {
  const badBlock = b64('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n');
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the request is required', (o) => delete spec(o).request, ['spec.request: Required value']],
    ['the request is a CERTIFICATE REQUEST PEM block (bad value shown as Go bytes)', (o) => (spec(o).request = b64('hi')), [
      'spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST',
    ]],
    ['another PEM block type is refused', (o) => (spec(o).request = badBlock), [
      `spec.request: Invalid value: []byte{${[...Buffer.from(badBlock, 'base64')].map((b) => `0x${b.toString(16)}`).join(', ')}}: PEM block type must be CERTIFICATE REQUEST`,
    ]],
    ['usages are required', (o) => delete spec(o).usages, ['spec.usages: Required value']],
    ['usages are known key usages', (o) => (spec(o).usages = ['client auth', 'flying']), [
      'spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
    ]],
    ['usages are unique', (o) => (spec(o).usages = ['client auth', 'client auth']), ['spec.usages[1]: Duplicate value: "client auth"']],
    ['the signer name is required', (o) => delete spec(o).signerName, ['spec.signerName: Required value']],
    ['the signer name has one slash', (o) => (spec(o).signerName = 'example.com'), [
      "spec.signerName: Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
    ]],
    ['the signer domain has two labels', (o) => (spec(o).signerName = 'example/signer'), ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']],
    ['signer domain labels are DNS labels', (o) => (spec(o).signerName = 'Example.com/signer'), [
      "spec.signerName: Invalid value: \"Example.com\": validating label \"Example\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ['signer path labels are DNS subdomains', (o) => (spec(o).signerName = 'example.com/Signer'), [
      "spec.signerName: Invalid value: \"Signer\": validating label \"Signer\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['the legacy-unknown signer is refused', (o) => (spec(o).signerName = signerName('legacy-unknown')), [
      `spec.signerName: Invalid value: "${signerName('legacy-unknown')}": the legacy signerName is not allowed via this API version`,
    ]],
    ['the requested duration is at least 600 seconds', (o) => (spec(o).expirationSeconds = 599), [
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  for (const [kind, error] of [['ec', 'x509: ECDSA verification failure'], ['rsa', 'crypto/rsa: verification error'], ['ed25519', 'x509: Ed25519 verification failure']] as const) {
    it(`the request signature must verify (${kind}: ${error})`, () => {
      const request = csrPem(kind, 'x', true);
      const bytes = [...Buffer.from(request)].map((b) => `0x${b.toString(16)}`).join(', ');
      expect(errorsOf((o) => (spec(o).request = b64(request)))).to.deep.equal([`spec.request: Invalid value: []byte{${bytes}}: ${error}`]);
    });
  }
});

describe('certificates/v1 CertificateSigningRequest: conditions and certificate (upstream update validation)', () => {
  const cases: [string, (csr: Obj, old: Obj) => FieldError[], Obj, Obj, string[]][] = [
    ['approval may add Approved', validateCSRApprovalUpdate, {}, { conditions: [cond('Approved')] }, []],
    ['approval may add Denied', validateCSRApprovalUpdate, {}, { conditions: [cond('Denied')] }, []],
    ['Approved and Denied are mutually exclusive', validateCSRApprovalUpdate, { conditions: [cond('Approved')] }, { conditions: [cond('Approved'), cond('Denied')] }, [
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]],
    ['one condition per type', validateCSRApprovalUpdate, {}, { conditions: [cond('Approved'), cond('Approved')] }, ['status.conditions[1].type: Duplicate value: "Approved"']],
    ['Approved, Denied and Failed are True only', validateCSRApprovalUpdate, {}, { conditions: [cond('Approved', { status: 'False' })] }, [
      'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
    ]],
    ['other conditions take True, False or Unknown', validateCSRStatusUpdate, {}, { conditions: [cond('Custom', { status: 'Maybe' })] }, [
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    ]],
    ['Approved may never be removed', validateCSRApprovalUpdate, { conditions: [cond('Approved')] }, {}, ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']],
    ['Failed may never be removed', validateCSRStatusUpdate, { conditions: [cond('Failed')] }, {}, ['status.conditions: Forbidden: updates may not remove a condition of type "Failed"']],
    ['status may add Failed', validateCSRStatusUpdate, {}, { conditions: [cond('Failed')] }, []],
    ['status may not add Approved', validateCSRStatusUpdate, {}, { conditions: [cond('Approved')] }, ['status.conditions: Forbidden: updates may not add a condition of type "Approved"']],
    ['the main resource may not add Denied', validateCSRUpdate, {}, { conditions: [cond('Denied')] }, ['status.conditions: Forbidden: updates may not add a condition of type "Denied"']],
    ['status may set the certificate', validateCSRStatusUpdate, { conditions: [cond('Approved')] }, { conditions: [cond('Approved')], certificate: CERT }, []],
    ['status may not change a set certificate', validateCSRStatusUpdate, { certificate: CERT }, { certificate: b64(certificatePem()) }, [
      'status.certificate: Forbidden: updates may not modify existing certificate content',
    ]],
    ['approval may not set the certificate', validateCSRApprovalUpdate, {}, { certificate: CERT }, ['status.certificate: Forbidden: updates may not set certificate content']],
    ['the main resource may not set the certificate', validateCSRUpdate, {}, { certificate: CERT }, ['status.certificate: Forbidden: updates may not set certificate content']],
    ['the certificate has a PEM block', validateCSRStatusUpdate, {}, { certificate: b64('not pem') }, [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]],
    ['the certificate has only CERTIFICATE blocks', validateCSRStatusUpdate, {}, { certificate: b64('-----BEGIN CERTIFICATE1-----\nAAAA\n-----END CERTIFICATE1-----\n') }, [
      'status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE1"',
    ]],
    ['certificate blocks have no headers', validateCSRStatusUpdate, {}, { certificate: b64('-----BEGIN CERTIFICATE-----\nProc-Type: 4\n\nAAAA\n-----END CERTIFICATE-----\n') }, [
      'status.certificate: Invalid value: "<certificate data>": no PEM block headers are permitted',
    ]],
    ['an empty certificate block holds no certificate', validateCSRStatusUpdate, {}, { certificate: b64('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n') }, [
      'status.certificate: Invalid value: "<certificate data>": found CERTIFICATE PEM block containing 0 certificates',
    ]],
    ['an unchanged invalid certificate is tolerated', validateCSRStatusUpdate, { certificate: b64('junk') }, { certificate: b64('junk'), conditions: [cond('Failed')] }, []],
  ];
  for (const [name, validate, oldStatus, newStatus, expected] of cases) {
    it(name, () => expect(messages(validate(withStatus(newStatus), withStatus(oldStatus)))).to.deep.equal(expected));
  }
});
