import { expect } from 'chai';
import { isControllerEnabled, validateControllers } from '../../../../lib/server/options/controllers.js';

describe('--controllers names of the storage protection controllers', () => {
  it('knows them by upstream name and alias, on by default', () => {
    for (const name of ['persistentvolumeclaim-protection-controller', 'pvc-protection', 'persistentvolume-protection-controller', 'pv-protection']) {
      expect(validateControllers([name])).to.deep.equal([]);
      expect(isControllerEnabled(name, ['*'])).to.equal(true);
    }
    expect(isControllerEnabled('pvc-protection', ['-persistentvolumeclaim-protection-controller', '*'])).to.equal(false);
    expect(isControllerEnabled('pv-protection', ['pvc-protection'])).to.equal(false);
  });
});
