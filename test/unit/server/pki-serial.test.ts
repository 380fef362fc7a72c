import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { serialNumber, createCaCertificate } from '../../../lib/server/pki/certificates.js';
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
