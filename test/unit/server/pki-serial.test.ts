import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { serialNumber, createCaCertificate, createSignedCertificate } from '../../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../../lib/server/pki/keys.js';

describe('certificate serial numbers (lib/server/pki)', () => {
  it('are 128-bit, positive and start with a byte no DER integer pads (0x40–0x7f)', () => {
    for (let i = 0; i < 2000; i++) {
      const s = serialNumber();
      expect(s).to.match(/^[4-7][0-9a-f]{31}$/);
    }
  });

  it('give certificates that node:crypto parses', async () => {
    const key = await generateRsaKey();
    for (let i = 0; i < 20; i++) expect(new X509Certificate(createCaCertificate(key, `ca-${i}`, 1)).subject).to.contain(`ca-${i}`);
  });
});

describe('certificate PEM (lib/server/pki)', () => {
  it('is written as Go\'s encoding/pem writes it: 64-character lines ending in LF, no CR', async () => {
    const caKey = await generateRsaKey();
    const ca = createCaCertificate(caKey, 'pem-ca', 1);
    const leaf = createSignedCertificate({ certPem: ca, key: caKey }, { key: await generateRsaKey(), commonName: 'leaf', validDays: 1, usage: 'server', dnsNames: ['leaf'] });
    for (const pem of [ca, leaf]) {
      expect(pem).to.not.include('\r');
      const lines = pem.split('\n');
      expect(lines[0]).to.equal('-----BEGIN CERTIFICATE-----');
      expect(lines.at(-2)).to.equal('-----END CERTIFICATE-----');
      expect(lines.at(-1)).to.equal('');
      for (const line of lines.slice(1, -3)) expect(line).to.match(/^[A-Za-z0-9+/]{64}$/);
      expect(new X509Certificate(pem).subject).to.match(/CN=(pem-ca|leaf)/);
    }
  });
});
