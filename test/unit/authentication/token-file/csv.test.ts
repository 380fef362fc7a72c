import { expect } from 'chai';
import { parseCSV } from '../../../../lib/authentication/token-file/csv.js';

describe('authentication/token-file/csv: RFC 4180 reading (spec 001 § Methods: Static token file)', () => {
  const rows: Array<[string, string, string[][]]> = [
    ['one row', 'a,b,c', [['a', 'b', 'c']]],
    ['a trailing newline', 'a,b,c\n', [['a', 'b', 'c']]],
    ['several rows', 'a,b\nc,d\n', [['a', 'b'], ['c', 'd']]],
    ['CRLF line ends', 'a,b\r\nc,d\r\n', [['a', 'b'], ['c', 'd']]],
    ['blank lines are skipped', '\na,b\n\n\nc,d\n', [['a', 'b'], ['c', 'd']]],
    ['empty fields are kept', 'a,,c,', [['a', '', 'c', '']]],
    ['a quoted field with commas', 't,u,1,"g1,g2"', [['t', 'u', '1', 'g1,g2']]],
    ['a doubled quote inside a quoted field', '"a ""quoted"" word",b', [['a "quoted" word', 'b']]],
    ['a quoted field across lines', '"line1\nline2",b', [['line1\nline2', 'b']]],
    ['an empty quoted field', '"",b', [['', 'b']]],
    ['rows of different lengths', 'a,b,c\nd,e,f,g', [['a', 'b', 'c'], ['d', 'e', 'f', 'g']]],
    ['no input', '', []],
  ];
  for (const [what, text, want] of rows) {
    it(`${what}: ${JSON.stringify(text)}`, () => {
      expect(parseCSV(text)).to.deep.equal(want);
    });
  }
});
