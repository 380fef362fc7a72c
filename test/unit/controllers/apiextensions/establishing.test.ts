import { expect } from 'chai';
import type { CustomResourceDefinitionCondition } from '../../../../lib/apiextensions/types.js';
import { findCondition, isConditionEquivalent, removeCondition, setCondition } from '../../../../lib/controllers/apiextensions/conditions.js';
import { ESTABLISHED_CONDITION, establishedStatus, needsEstablishing } from '../../../../lib/controllers/apiextensions/establishing.js';
import { T0, T0S, T1, T1S, crd, names } from './fixtures.js';

const accepted = (status: 'True' | 'False'): CustomResourceDefinitionCondition => ({ type: 'NamesAccepted', status, lastTransitionTime: T0S, reason: status === 'True' ? 'NoConflicts' : 'PluralConflict', message: 'm' });
const installing: CustomResourceDefinitionCondition = { type: 'Established', status: 'False', lastTransitionTime: T0S, reason: 'Installing', message: 'the initial names have been accepted' };

describe('CRD establishing decision (upstream EstablishingController.sync)', () => {
  it('establishes a CRD whose names are accepted: Established True InitialNamesAccepted, new time', () => {
    const c = crd('g.io', names('foo'), names('foo'), [accepted('True'), installing]);
    expect(needsEstablishing(c)).to.equal(true);
    expect(establishedStatus(c, T1)!.conditions).to.deep.equal([
      accepted('True'),
      { type: 'Established', status: 'True', lastTransitionTime: T1S, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ]);
    expect(c.status!.conditions![1]).to.deep.equal(installing);
  });

  it('appends Established when the naming controller has not written it', () => {
    const s = establishedStatus(crd('g.io', names('foo'), names('foo'), [accepted('True')]), T0)!;
    expect(s.conditions![1]).to.deep.equal({ ...ESTABLISHED_CONDITION, lastTransitionTime: T0S });
  });

  it('leaves alone a CRD whose names are not accepted, or that has no status', () => {
    expect(establishedStatus(crd('g.io', names('foo'), undefined, [accepted('False'), installing]), T1)).to.equal(undefined);
    expect(establishedStatus(crd('g.io', names('foo')), T1)).to.equal(undefined);
  });

  it('never touches an Established CRD again (even when a later name change is refused)', () => {
    const est: CustomResourceDefinitionCondition = { type: 'Established', status: 'True', lastTransitionTime: T0S, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
    expect(needsEstablishing(crd('g.io', names('foo'), names('foo'), [accepted('True'), est]))).to.equal(false);
    expect(needsEstablishing(crd('g.io', names('foo'), names('foo'), [accepted('False'), est]))).to.equal(false);
  });
});

describe('CRD condition helpers (upstream apihelpers)', () => {
  it('setCondition keeps the time when only reason or message change, and moves it on a status change', () => {
    const status = { conditions: [{ type: 'Terminating', status: 'True' as const, lastTransitionTime: T0S, reason: 'A', message: 'a' }] };
    setCondition(status, { type: 'Terminating', status: 'True', reason: 'B', message: 'b' }, T1);
    expect(status.conditions[0]).to.deep.equal({ type: 'Terminating', status: 'True', lastTransitionTime: T0S, reason: 'B', message: 'b' });
    setCondition(status, { type: 'Terminating', status: 'False', reason: 'C', message: 'c' }, T1);
    expect(status.conditions[0]).to.deep.equal({ type: 'Terminating', status: 'False', lastTransitionTime: T1S, reason: 'C', message: 'c' });
  });

  it('setCondition gives a time to a condition that had none', () => {
    const status = { conditions: [{ type: 'X', status: 'True' as const }] };
    setCondition(status, { type: 'X', status: 'True', reason: 'R', message: 'M' }, T0);
    expect(status.conditions[0]).to.deep.equal({ type: 'X', status: 'True', lastTransitionTime: T0S, reason: 'R', message: 'M' });
  });

  it('isConditionEquivalent ignores the time; absent equals absent only', () => {
    const a = { type: 'X', status: 'True' as const, lastTransitionTime: T0S, reason: 'R', message: 'M' };
    expect(isConditionEquivalent(a, { ...a, lastTransitionTime: T1S })).to.equal(true);
    expect(isConditionEquivalent(a, { ...a, message: 'N' })).to.equal(false);
    expect(isConditionEquivalent(a, undefined)).to.equal(false);
    expect(isConditionEquivalent(undefined, undefined)).to.equal(true);
  });

  it('removeCondition and findCondition', () => {
    const status = { conditions: [{ type: 'A', status: 'True' as const }, { type: 'B', status: 'False' as const }] };
    removeCondition(status, 'A');
    expect(findCondition(status, 'A')).to.equal(undefined);
    expect(findCondition(status, 'B')!.status).to.equal('False');
  });
});
