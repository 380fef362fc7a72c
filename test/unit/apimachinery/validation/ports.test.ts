import { expect } from 'chai';
import { isValidPortName, isValidPortNum } from '../../../../lib/apimachinery/validation/ports.js';

describe('apimachinery/validation/ports (upstream IsValidPortNum / IsValidPortName)', () => {
  it('port numbers are 1–65535', () => {
    expect([0, 1, 65535, 65536].map((n) => isValidPortNum(n).length)).to.deep.equal([1, 0, 0, 1]);
    expect(isValidPortNum(0)).to.deep.equal(['must be between 1 and 65535, inclusive']);
  });

  const names: Array<[string, string[]]> = [
    ['http', []],
    ['metrics-2', []],
    ['a-very-long-port-name', ['must be no more than 15 characters']],
    ['HTTP', ['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)', 'must contain at least one letter (a-z)']],
    ['8080', ['must contain at least one letter (a-z)']],
    ['a--b', ['must not contain consecutive hyphens']],
    ['-http', ['must not begin or end with a hyphen']],
  ];
  for (const [name, expected] of names) it(`port name ${JSON.stringify(name)}`, () => expect(isValidPortName(name)).to.deep.equal(expected));
});
