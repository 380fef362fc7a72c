import { expect } from 'chai';
import { isSuperset, mergeTolerations } from '../../../../lib/admission/plugins/runtime-class/merge-tolerations.js';
import type { Obj } from '../../../../lib/apis/define.js';

const t = (key: string, operator: string, effect = '', extra: Obj = {}): Obj => ({ key, operator, effect, ...extra });

describe('RuntimeClass toleration merge (upstream MergeTolerations)', () => {
  it('covers by key: same key, or the empty-key Exists wildcard', () => {
    expect(isSuperset(t('a', 'Exists'), t('a', 'Equal', '', { value: 'v' }))).to.equal(true);
    expect(isSuperset(t('', 'Exists'), t('a', 'Exists', 'NoSchedule'))).to.equal(true);
    expect(isSuperset(t('', 'Equal'), t('a', 'Equal'))).to.equal(false);
    expect(isSuperset(t('b', 'Exists'), t('a', 'Exists'))).to.equal(false);
  });

  it('covers by effect: the same effect, or none', () => {
    expect(isSuperset(t('a', 'Exists', 'NoSchedule'), t('a', 'Exists', 'NoExecute'))).to.equal(false);
    expect(isSuperset(t('a', 'Exists'), t('a', 'Exists', 'NoExecute'))).to.equal(true);
  });

  it('a NoExecute toleration with seconds covers only shorter-or-equal seconds', () => {
    const ss = t('a', 'Exists', 'NoExecute', { tolerationSeconds: 60 });
    expect(isSuperset(ss, t('a', 'Exists', 'NoExecute', { tolerationSeconds: 30 }))).to.equal(true);
    expect(isSuperset(ss, t('a', 'Exists', 'NoExecute', { tolerationSeconds: 90 }))).to.equal(false);
    expect(isSuperset(ss, t('a', 'Exists', 'NoExecute'))).to.equal(false);
  });

  it('Equal covers only an Equal toleration of the same value', () => {
    expect(isSuperset(t('a', 'Equal', '', { value: 'v' }), t('a', 'Equal', '', { value: 'v', effect: 'NoSchedule' }))).to.equal(true);
    expect(isSuperset(t('a', 'Equal', '', { value: 'v' }), t('a', 'Equal', '', { value: 'w' }))).to.equal(false);
    expect(isSuperset(t('a', 'Equal', '', { value: 'v' }), t('a', 'Exists', 'NoSchedule'))).to.equal(false);
  });

  it('keeps the first of equal tolerations and drops those a kept or later one covers', () => {
    const wide = t('a', 'Exists');
    const narrow = t('a', 'Equal', 'NoSchedule', { value: 'v' });
    const other = t('b', 'Exists');
    expect(mergeTolerations([narrow, other], [wide])).to.deep.equal([other, wide]);
    expect(mergeTolerations([wide], [narrow, { ...wide }])).to.deep.equal([wide]);
    expect(mergeTolerations([], [])).to.deep.equal([]);
  });
});
