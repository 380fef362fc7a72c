import { expect } from 'chai';
import { certificateSigningRequest } from '../../../../lib/apis/certificates/v1/index.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { cellsOf, meta, NOW } from './helpers.js';

const csr = (spec: Obj, status: Obj = {}): Obj => ({ kind: 'CertificateSigningRequest', metadata: meta('csr-1', 3600), spec, status });

describe('apis/printers: certificates', () => {
  it('CertificateSigningRequest columns: Name, Age, SignerName, Requestor, RequestedDuration, Condition', () => {
    const table = tableFor(certificateSigningRequest, { metadata: {}, items: [] }, { now: NOW });
    expect(table.columnDefinitions!.map((c) => [c.name, c.type, c.priority])).to.deep.equal([
      ['Name', 'string', 0], ['Age', 'string', 0], ['SignerName', 'string', 0], ['Requestor', 'string', 0], ['RequestedDuration', 'string', 0], ['Condition', 'string', 0],
    ]);
  });

  const cases: [string, Obj, Obj, unknown[]][] = [
    ['pending, with signer, requestor and duration', { signerName: 'example.com/s', username: 'alice', expirationSeconds: 86400 }, {}, ['csr-1', '60m', 'example.com/s', 'alice', '24h', 'Pending']],
    ['no signer or duration', {}, {}, ['csr-1', '60m', '<none>', '', '<none>', 'Pending']],
    ['approved and issued', { expirationSeconds: 600 }, { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'Y2VydA==' }, ['csr-1', '60m', '<none>', '', '10m', 'Approved,Issued']],
    ['denied wins over approved; failed is added', {}, { conditions: [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }, { type: 'Failed', status: 'True' }] }, [
      'csr-1', '60m', '<none>', '', '<none>', 'Denied,Failed',
    ]],
  ];
  for (const [name, spec, status, expected] of cases) it(name, () => expect(cellsOf(certificateSigningRequest, csr(spec, status))).to.deep.equal(expected));
});
