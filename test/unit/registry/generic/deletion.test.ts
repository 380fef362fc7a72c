import { expect } from 'chai';
import { planDeletion } from '../../../../lib/registry/generic/deletion.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const graceless = () => undefined;
const grace = (s: number) => () => s;

describe('planDeletion (spec 000 § Object deletion lifecycle; upstream BeforeDelete)', () => {
  it('a kind without graceful deletion is marked as deleting now, removed at once when no finalizer is left, not written first', () => {
    expect(planDeletion({}, undefined, graceless, NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T12:00:00Z', deletionGracePeriodSeconds: 0, immediate: true, graceful: false });
  });

  it('a first graceful deletion sets the timestamp the grace period ahead and is not immediate', () => {
    expect(planDeletion({}, undefined, grace(30), NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T12:00:30Z', deletionGracePeriodSeconds: 30, immediate: false, graceful: true });
  });

  it('a grace period of 0 is immediate, and graceful: the terminating state is written before the object goes (upstream)', () => {
    expect(planDeletion({}, 0, grace(0), NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T12:00:00Z', deletionGracePeriodSeconds: 0, immediate: true, graceful: true });
  });

  it('a pending graceful deletion is left as it is without a shorter grace period, and the strategy is not asked', () => {
    const pending = { deletionTimestamp: '2026-11-30T12:00:20Z', deletionGracePeriodSeconds: 30 };
    const asked = () => {
      throw new Error('the strategy was asked');
    };
    expect(planDeletion(pending, undefined, asked, NOW)).to.deep.equal({ pending: true });
    expect(planDeletion(pending, 30, asked, NOW)).to.deep.equal({ pending: true });
    expect(planDeletion(pending, 45, asked, NOW)).to.deep.equal({ pending: true });
  });

  it('a shorter grace period moves the timestamp back by the difference', () => {
    const pending = { deletionTimestamp: '2026-11-30T12:00:20Z', deletionGracePeriodSeconds: 30 };
    expect(planDeletion(pending, 25, graceless, NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T12:00:15Z', deletionGracePeriodSeconds: 25, immediate: false, graceful: true });
  });

  it('a shorter grace period that would end in the past ends now, as 1 s (0 stays 0 and is immediate)', () => {
    const pending = { deletionTimestamp: '2026-11-30T12:00:20Z', deletionGracePeriodSeconds: 30 };
    expect(planDeletion(pending, 5, graceless, NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T12:00:00Z', deletionGracePeriodSeconds: 1, immediate: false, graceful: true });
    expect(planDeletion(pending, 0, graceless, NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T12:00:00Z', deletionGracePeriodSeconds: 0, immediate: true, graceful: true });
  });

  it('an object waiting only for finalizers keeps a past timestamp and has one in the future brought to now; not graceful, so removed without a write', () => {
    expect(planDeletion({ deletionTimestamp: '2026-11-30T11:00:00Z', deletionGracePeriodSeconds: 0 }, 30, grace(30), NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T11:00:00Z', deletionGracePeriodSeconds: 0, immediate: true, graceful: false });
    expect(planDeletion({ deletionTimestamp: '2026-11-30T13:00:00Z' }, undefined, graceless, NOW)).to.deep.equal({ pending: false, deletionTimestamp: '2026-11-30T12:00:00Z', deletionGracePeriodSeconds: 0, immediate: true, graceful: false });
  });
});
