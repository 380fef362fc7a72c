import { expect } from 'chai';
import { isControllerEnabled, validateControllers } from '../../../lib/server/options/controllers.js';

describe('server/options/controllers: --controllers (upstream kube-controller-manager syntax)', () => {
  const rows: Array<[string[], string, boolean]> = [
    [['*'], 'serviceaccount', true],
    [['*'], 'root-ca-cert-publisher', true],
    [['*'], 'tokencleaner', false],
    [['*'], 'bootstrapsigner', false],
    [['*', 'tokencleaner'], 'tokencleaner', true],
    [['*', 'tokencleaner'], 'token-cleaner-controller', true],
    [['token-cleaner-controller'], 'tokencleaner', true],
    [['-serviceaccount', '*'], 'serviceaccount', false],
    [['*', '-serviceaccount'], 'serviceaccount', false],
    [['serviceaccount', '-serviceaccount'], 'serviceaccount', true],
    [['tokencleaner'], 'serviceaccount', false],
    [[], 'serviceaccount', false],
    [['*'], 'no-such-controller', false],
  ];
  for (const [list, name, want] of rows) {
    it(`${JSON.stringify(list)}: ${name} ${want ? 'runs' : 'does not run'}`, () => {
      expect(isControllerEnabled(name, list)).to.equal(want);
    });
  }

  it('reports every entry naming no known controller, with or without the dash', () => {
    expect(validateControllers(['*', 'tokencleaner', '-root-ca-certificate-publisher-controller'])).to.deep.equal([]);
    expect(validateControllers(['foo', '-bar', '*'])).to.deep.equal(['"foo" is not in the list of known controllers', '"bar" is not in the list of known controllers']);
  });
});
