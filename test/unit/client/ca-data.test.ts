/**
 * CA data as upstream's REST client loads it (lib/client/ca-data.ts): data with a certificate
 * makes a client; other data fails with client-go's `unable to load root certificates: …`.
 */
import { expect } from 'chai';
import { caDataError } from '../../../lib/client/ca-data.js';
import { createCaCertificate } from '../../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../../lib/server/pki/keys.js';

const PREFIX = 'unable to load root certificates: ';

describe('client/ca-data (client-go rootCertPool)', function () {
  let cert: string;
  let keyPem: string;
  before(async function () {
    const key = await generateRsaKey();
    cert = createCaCertificate(key, 'test-ca', 1);
    keyPem = key.privateKeyPem;
  });

  it('takes no data, a certificate, and a certificate among other blocks or text', function () {
    expect(caDataError('')).to.equal(undefined);
    expect(caDataError(cert)).to.equal(undefined);
    expect(caDataError(`some text first\n${cert}`)).to.equal(undefined);
    expect(caDataError(`${keyPem}${cert}trailing text`)).to.equal(undefined);
    expect(caDataError(`${cert.replace(/\n/g, '\r\n')}`)).to.equal(undefined);
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    expect(caDataError(`${broken}${cert}`), 'one that parses is enough').to.equal(undefined);
  });

  it('refuses data without a PEM block, or with text left after its blocks', function () {
    expect(caDataError('not a certificate')).to.equal(`${PREFIX}unable to parse bytes as PEM block`);
    expect(caDataError(`${keyPem}garbage`)).to.equal(`${PREFIX}unable to parse bytes as PEM block`);
    expect(caDataError('-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n'), 'a body that is not base64 is no block').to.equal(`${PREFIX}unable to parse bytes as PEM block`);
    expect(caDataError(`x-----BEGIN CERTIFICATE-----\n${cert.split('\n').slice(1).join('\n')}`), 'BEGIN must start a line').to.equal(`${PREFIX}unable to parse bytes as PEM block`);
  });

  it('refuses a certificate block that is not a certificate before any text left', function () {
    expect(caDataError('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).to.equal(`${PREFIX}failed to parse certificate: x509: malformed certificate`);
    expect(caDataError('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\ngarbage')).to.equal(`${PREFIX}failed to parse certificate: x509: malformed certificate`);
  });

  it('refuses blocks of other types only, and a certificate block with headers', function () {
    expect(caDataError(keyPem)).to.equal(`${PREFIX}no valid certificate authority data seen`);
    const withHeaders = cert.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n');
    expect(caDataError(withHeaders)).to.equal(`${PREFIX}no valid certificate authority data seen`);
  });
});
