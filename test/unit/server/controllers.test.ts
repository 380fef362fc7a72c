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
    [['*'], 'namespace', true],
    [['*', '-namespace'], 'namespace-controller', false],
    [['tokencleaner'], 'namespace', false],
  ];
  for (const [list, name, want] of rows) {
    it(`${JSON.stringify(list)}: ${name} ${want ? 'runs' : 'does not run'}`, () => {
      expect(isControllerEnabled(name, list)).to.equal(want);
    });
  }

  it('names every in-process controller upstream runs in kube-controller-manager, by canonical name and alias', () => {
    const all = [
      ['bootstrap-signer-controller', 'bootstrapsigner'],
      ['clusterrole-aggregation-controller', 'clusterrole-aggregation'],
      ['garbage-collector-controller', 'garbagecollector'],
      ['namespace-controller', 'namespace'],
      ['persistentvolume-protection-controller', 'pv-protection'],
      ['persistentvolumeclaim-protection-controller', 'pvc-protection'],
      ['resourcequota-controller', 'resourcequota'],
      ['root-ca-certificate-publisher-controller', 'root-ca-cert-publisher'],
      ['serviceaccount-controller', 'serviceaccount'],
      ['token-cleaner-controller', 'tokencleaner'],
      ['validatingadmissionpolicy-status-controller', 'validatingadmissionpolicy-status'],
    ];
    expect(validateControllers(all.flat())).to.deep.equal([]);
    for (const [name, alias] of all) {
      expect(isControllerEnabled(alias!, [name!]), alias).to.equal(true);
      expect(isControllerEnabled(name!, ['*', `-${alias}`]), name).to.equal(false);
    }
    expect(all.filter(([name]) => !isControllerEnabled(name!, ['*'])).map(([, alias]) => alias)).to.deep.equal(['bootstrapsigner', 'tokencleaner']);
  });

  it('reports every entry naming no known controller, with or without the dash', () => {
    expect(validateControllers(['*', 'tokencleaner', '-root-ca-certificate-publisher-controller'])).to.deep.equal([]);
    expect(validateControllers(['foo', '-bar', '*'])).to.deep.equal(['"foo" is not in the list of known controllers', '"bar" is not in the list of known controllers']);
  });
});
