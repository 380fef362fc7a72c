import { expect } from 'chai';
import { effectiveFormat } from '../../../../lib/apiextensions/values/formats.js';

const check = (format: string, value: string): boolean => {
  const f = effectiveFormat('string', format);
  if (f?.check === undefined) throw new Error(`format ${format} has no check`);
  return f.check(value);
};

describe('apiextensions/values: formats', () => {
  const table: [string, string, boolean][] = [
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123E4567E89B12D3A456426614174000', true],
    ['uuid', '123e4567', false],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000', true],
    ['uuid4', '123e4567-e89b-12d3-a456-426614174000', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['date-time', '2024-01-02T03:04:05.123+01:00', true],
    ['datetime', '2024-01-02T24:00:00Z', false],
    ['date-time', '2024-01-02', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['duration', '5s 10 m3h', true],
    // A long run of digits, in time linear in it (a search restarted at every digit was quadratic).
    ['duration', `${'0'.repeat(1_000_000)}`, false],
    ['duration', `${'1'.repeat(100_000)}x`, false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '::1', false],
    ['ipv6', '2001:db8::1', true],
    ['ipv6', '10.0.0.1', false],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0', false],
    ['mac', '00:00:5e:00:53:01', true],
    ['mac', '0000.5e00.5301', true],
    ['mac', '00:00:5e', false],
    ['hostname', 'example.com', true],
    ['hostname', '-bad.com', false],
    ['email', 'a@example.com', true],
    ['email', 'Jane <jane@example.com>', true],
    ['email', 'not-an-email', false],
    ['uri', 'https://example.com/x?y', true],
    ['uri', '/absolute/path', true],
    ['uri', 'relative/path', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'not base64!', false],
    ['isbn10', '0321751043', true],
    ['isbn13', '978-0321751041', true],
    ['isbn', '0321751044', false],
    ['creditcard', '4111 1111 1111 1111', true],
    ['creditcard', '4111 1111 1111 1112', false],
    ['ssn', '123-45-6789', true],
    ['hexcolor', '#FFF', true],
    ['rgbcolor', 'rgb(255, 0, 10)', true],
    ['rgbcolor', 'rgb(256,0,0)', false],
    ['bsonobjectid', '507f1f77bcf86cd799439011', true],
    ['password', 'anything', true],
  ];
  for (const [format, value, ok] of table) {
    const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 12))}… (${value.length} characters)` : JSON.stringify(value);
    it(`${format} ${ok ? 'accepts' : 'rejects'} ${shown}`, () => {
      expect(check(format, value)).to.equal(ok);
    });
  }

  it('strips formats upstream does not support for the node type', () => {
    expect(effectiveFormat('string', 'int32')).to.equal(undefined);
    expect(effectiveFormat('integer', 'int32')).to.deep.equal({ name: 'int32' });
    expect(effectiveFormat('integer', 'uuid')).to.equal(undefined);
    expect(effectiveFormat('number', 'double')).to.deep.equal({ name: 'double' });
    expect(effectiveFormat('boolean', 'uuid')).to.equal(undefined);
    expect(effectiveFormat(undefined, 'uuid')?.name).to.equal('uuid');
  });
});
