import { expect } from 'chai';
import { decodeAllPem, decodePem } from '../../../../../lib/apis/certificates/v1/pem.js';

const block = (type: string, body = 'AQID', headers = '') => `-----BEGIN ${type}-----\n${headers}${body}\n-----END ${type}-----\n`;

describe('certificates/v1 PEM decoding (Go encoding/pem.Decode rules)', () => {
  it('decodes a block and skips text around it', () => {
    const got = decodePem(`explanatory text\n${block('CERTIFICATE')}trailing`);
    expect(got?.block).to.deep.equal({ type: 'CERTIFICATE', headers: {}, bytes: Buffer.from([1, 2, 3]) });
    expect(got?.rest).to.equal('trailing');
  });

  it('reads header lines after the BEGIN line', () => {
    expect(decodePem(block('CERTIFICATE', 'AQID', 'Proc-Type: 4,ENCRYPTED\n\n'))?.block.headers).to.deep.equal({ 'Proc-Type': '4,ENCRYPTED' });
  });

  it('skips a block whose END line does not match or whose body is not base64', () => {
    expect(decodePem('-----BEGIN A-----\nAQID\n-----END B-----\n')).to.equal(undefined);
    expect(decodePem(block('A', '!!!'))).to.equal(undefined);
    expect(decodePem(`${block('A', '!!!')}${block('B')}`)?.block.type).to.equal('B');
  });

  it('accepts CRLF line ends and an empty body', () => {
    expect(decodePem(block('C').replaceAll('\n', '\r\n'))?.block.bytes).to.deep.equal(Buffer.from([1, 2, 3]));
    expect(decodePem('-----BEGIN C-----\n-----END C-----\n')?.block.bytes).to.deep.equal(Buffer.alloc(0));
  });

  it('decodes every block in order', () => {
    expect(decodeAllPem(`${block('A')}\n${block('B')}`).map((b) => b.type)).to.deep.equal(['A', 'B']);
  });
});
