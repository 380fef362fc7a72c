import { expect } from 'chai';
import type { CustomResourceDefinitionCondition } from '../../../../lib/apiextensions/types.js';
import { computeNames, namesEqual, namingStatus } from '../../../../lib/controllers/apiextensions/naming.js';
import { T0, T0S, T1, crd, names } from './fixtures.js';

const G = 'example.com';
const NO_CONFLICTS = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
const INSTALLING = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
const NOT_ACCEPTED = { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
const ESTABLISHED_TRUE: CustomResourceDefinitionCondition = { type: 'Established', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
const ACCEPTED_TRUE: CustomResourceDefinitionCondition = { type: 'NamesAccepted', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'NoConflicts', message: 'no conflicts found' };

/** Another CRD of the group holding `accepted` names. */
const holder = (word: string, extra = {}, group = G) => {
  const c = crd(group, names(word, extra), names(word, extra), [ACCEPTED_TRUE, ESTABLISHED_TRUE]);
  return { ...c, metadata: { ...c.metadata, name: `${word}-holder.${group}` } };
};

describe('CRD naming decision (upstream NamingConditionController.calculateNamesAndConditions)', () => {
  it('accepts every name of a fresh CRD alone in its group', () => {
    const r = computeNames(crd(G, names('foo', { shortNames: ['f'], categories: ['all'] })), []);
    expect(r.acceptedNames).to.deep.equal({ plural: 'foos', singular: 'foo', shortNames: ['f'], kind: 'Foo', listKind: 'FooList', categories: ['all'] });
    expect(r.namesAccepted).to.deep.equal(NO_CONFLICTS);
    expect(r.established).to.deep.equal(INSTALLING);
  });

  it('keeps upstream\'s field order and leaves out empty optional names', () => {
    const r = computeNames(crd(G, { plural: 'foos', kind: 'Foo', shortNames: [], categories: [] }), []);
    expect(Object.keys(r.acceptedNames)).to.deep.equal(['plural', 'kind']);
  });

  const conflicts: [string, string, Record<string, unknown>, string, string, Record<string, unknown>][] = [
    // [case, holder word, holder extras, reason, message, expected accepted names]
    ['plural held as another plural', 'bar', { plural: 'foos' }, 'PluralConflict', '"foos" is already in use', { singular: 'foo', shortNames: ['f'], kind: 'Foo', listKind: 'FooList' }],
    ['plural held as another singular', 'bar', { singular: 'foos' }, 'PluralConflict', '"foos" is already in use', { singular: 'foo', shortNames: ['f'], kind: 'Foo', listKind: 'FooList' }],
    ['plural held as another short name', 'bar', { shortNames: ['foos'] }, 'PluralConflict', '"foos" is already in use', { singular: 'foo', shortNames: ['f'], kind: 'Foo', listKind: 'FooList' }],
    ['singular held as another plural', 'bar', { plural: 'foo' }, 'SingularConflict', '"foo" is already in use', { plural: 'foos', shortNames: ['f'], kind: 'Foo', listKind: 'FooList' }],
    ['short name held as another short name', 'bar', { shortNames: ['f'] }, 'ShortNamesConflict', '"f" is already in use', { plural: 'foos', singular: 'foo', kind: 'Foo', listKind: 'FooList' }],
    ['short name held as another singular', 'bar', { singular: 'f' }, 'ShortNamesConflict', '"f" is already in use', { plural: 'foos', singular: 'foo', kind: 'Foo', listKind: 'FooList' }],
    ['kind held as another kind', 'bar', { kind: 'Foo' }, 'KindConflict', '"Foo" is already in use', { plural: 'foos', singular: 'foo', shortNames: ['f'], listKind: 'FooList' }],
    ['kind held as another listKind', 'bar', { listKind: 'Foo' }, 'KindConflict', '"Foo" is already in use', { plural: 'foos', singular: 'foo', shortNames: ['f'], listKind: 'FooList' }],
    ['listKind held as another listKind', 'bar', { listKind: 'FooList' }, 'ListKindConflict', '"FooList" is already in use', { plural: 'foos', singular: 'foo', shortNames: ['f'], kind: 'Foo' }],
  ];
  for (const [name, word, extra, reason, message, accepted] of conflicts) {
    it(`refuses a ${name}: ${reason}`, () => {
      const r = computeNames(crd(G, names('foo', { shortNames: ['f'] })), [holder(word, extra)]);
      expect(r.namesAccepted).to.deep.equal({ type: 'NamesAccepted', status: 'False', reason, message });
      expect(r.acceptedNames).to.deep.equal({ plural: '', ...accepted, kind: (accepted.kind as string | undefined) ?? '' });
      expect(r.established).to.deep.equal(NOT_ACCEPTED);
    });
  }

  it('keeps resource names and kinds apart (a kind equal to another CRD\'s plural is no conflict)', () => {
    const r = computeNames(crd(G, { plural: 'foos', singular: 'foo', kind: 'bars', listKind: 'barsList' }), [holder('bar', { plural: 'bars', kind: 'Bar' })]);
    expect(r.namesAccepted).to.deep.equal(NO_CONFLICTS);
  });

  it('ignores CRDs of other groups', () => {
    expect(computeNames(crd(G, names('foo')), [holder('foo', {}, 'other.io')]).namesAccepted).to.deep.equal(NO_CONFLICTS);
  });

  it('ignores the spec names of others (only accepted names are claimed)', () => {
    const pending = crd(G, names('foo'));
    expect(computeNames(crd(G, names('foo', { plural: 'foos' })), [{ ...pending, metadata: { name: 'other.example.com' } }]).namesAccepted).to.deep.equal(NO_CONFLICTS);
  });

  it('skips an entry of `others` with the CRD\'s own name', () => {
    const self = holder('foo');
    expect(computeNames(self, [self]).namesAccepted).to.deep.equal(NO_CONFLICTS);
  });

  it('reports the last conflicting kind of name (plural, singular, shortNames, kind, listKind order)', () => {
    const r = computeNames(crd(G, names('foo')), [holder('foo')].map((c) => ({ ...c, metadata: { name: 'x.example.com' } })));
    expect(r.namesAccepted).to.deep.equal({ type: 'NamesAccepted', status: 'False', reason: 'ListKindConflict', message: '"FooList" is already in use' });
    expect(r.acceptedNames).to.deep.equal({ plural: '', kind: '' });
  });

  it('aggregates several conflicting short names as upstream ([a, b]) and accepts none of them', () => {
    const r = computeNames(crd(G, names('foo', { shortNames: ['a', 'free', 'b'] })), [holder('bar', { shortNames: ['a', 'b'] })]);
    expect(r.namesAccepted).to.deep.equal({ type: 'NamesAccepted', status: 'False', reason: 'ShortNamesConflict', message: '["a" is already in use, "b" is already in use]' });
    expect(r.acceptedNames.shortNames).to.equal(undefined);
  });

  it('re-evaluating an accepted CRD finds its own names no conflict', () => {
    const self = crd(G, names('foo', { shortNames: ['f'] }), names('foo', { shortNames: ['f'] }), [ACCEPTED_TRUE, ESTABLISHED_TRUE]);
    const r = computeNames(self, [holder('bar')]);
    expect(r.namesAccepted).to.deep.equal(NO_CONFLICTS);
    expect(r.acceptedNames).to.deep.equal(names('foo', { shortNames: ['f'] }));
    expect(r.established).to.deep.equal({ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  });

  it('keeps the previously accepted plural when a spec change conflicts, accepting the other changes', () => {
    const self = crd(G, names('foo', { plural: 'bars', shortNames: ['ff'] }), names('foo', { shortNames: ['f'] }), [ACCEPTED_TRUE, ESTABLISHED_TRUE]);
    const r = computeNames(self, [holder('bar')]);
    expect(r.acceptedNames).to.deep.equal(names('foo', { shortNames: ['ff'] }));
    expect(r.namesAccepted).to.deep.equal({ type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"bars" is already in use' });
    expect(r.established.status).to.equal('True');
  });

  it('upstream quirk: a new name equal to one of the CRD\'s own other accepted names conflicts', () => {
    const self = crd(G, names('foo', { shortNames: ['foo'] }), names('foo'), [ACCEPTED_TRUE, ESTABLISHED_TRUE]);
    expect(computeNames(self, []).namesAccepted).to.deep.equal({ type: 'NamesAccepted', status: 'False', reason: 'ShortNamesConflict', message: '"foo" is already in use' });
  });

  it('a short name already accepted stays accepted beside new free ones', () => {
    const self = crd(G, names('foo', { shortNames: ['f', 'g'] }), names('foo', { shortNames: ['f'] }), [ACCEPTED_TRUE]);
    const r = computeNames(self, [holder('bar')]);
    expect(r.acceptedNames.shortNames).to.deep.equal(['f', 'g']);
    expect(r.namesAccepted).to.deep.equal(NO_CONFLICTS);
  });

  it('takes categories from the spec whatever the conflicts', () => {
    const r = computeNames(crd(G, names('foo', { categories: ['all', 'mine'] })), [holder('foo')].map((c) => ({ ...c, metadata: { name: 'x.example.com' } })));
    expect(r.acceptedNames.categories).to.deep.equal(['all', 'mine']);
  });

  it('keeps an existing non-True Established when names are still refused', () => {
    const installing: CustomResourceDefinitionCondition = { type: 'Established', status: 'False', lastTransitionTime: T0S, reason: 'Custom', message: 'm' };
    const self = crd(G, names('foo', { plural: 'bars' }), names('foo'), [installing]);
    expect(computeNames(self, [holder('bar')]).established).to.deep.equal({ type: 'Established', status: 'False', reason: 'Custom', message: 'm' });
  });
});

describe('CRD naming status write (upstream NamingConditionController.sync)', () => {
  it('writes accepted names, NamesAccepted then Established for a new CRD, times in RFC 3339 seconds', () => {
    const s = namingStatus(crd(G, names('foo')), [], T0)!;
    expect(s.acceptedNames).to.deep.equal(names('foo'));
    expect(s.conditions).to.deep.equal([
      { ...NO_CONFLICTS, lastTransitionTime: T0S },
      { ...INSTALLING, lastTransitionTime: T0S },
    ]);
  });

  it('writes nothing when spec names equal accepted names and NamesAccepted is True', () => {
    const self = crd(G, names('foo'), names('foo', { shortNames: [] }), [ACCEPTED_TRUE, ESTABLISHED_TRUE]);
    expect(namingStatus(self, [holder('foo')].map((c) => ({ ...c, metadata: { name: 'x' } })), T1)).to.equal(undefined);
  });

  it('writes nothing when a conflict persists unchanged', () => {
    const first = crd(G, names('foo'));
    const s = namingStatus(first, [holder('bar', { plural: 'foos' })], T0)!;
    expect(s.conditions![0]!.reason).to.equal('PluralConflict');
    expect(namingStatus({ ...first, status: s }, [holder('bar', { plural: 'foos' })], T1)).to.equal(undefined);
  });

  it('accepts the names once the holder is gone; NamesAccepted moves to True with a new time, Established to Installing', () => {
    const first = crd(G, names('foo'));
    const s1 = namingStatus(first, [holder('bar', { plural: 'foos' })], T0)!;
    const s2 = namingStatus({ ...first, status: s1 }, [], T1)!;
    expect(s2.acceptedNames).to.deep.equal(names('foo'));
    expect(s2.conditions).to.deep.equal([
      { ...NO_CONFLICTS, lastTransitionTime: '2026-02-03T04:05:06Z' },
      { ...INSTALLING, lastTransitionTime: T0S },
    ]);
  });

  it('re-evaluates a resolved conflict: names back to the accepted ones and NamesAccepted False become True (kubernetes#121918)', () => {
    const refused: CustomResourceDefinitionCondition = { type: 'NamesAccepted', status: 'False', lastTransitionTime: T0S, reason: 'ShortNamesConflict', message: '"b" is already in use' };
    const self = crd(G, names('foo'), names('foo'), [refused, ESTABLISHED_TRUE]);
    const s = namingStatus(self, [holder('bar', { shortNames: ['b'] })], T1)!;
    expect(s.conditions).to.deep.equal([{ ...NO_CONFLICTS, lastTransitionTime: '2026-02-03T04:05:06Z' }, ESTABLISHED_TRUE]);
  });

  it('does not mutate the CRD it decides for', () => {
    const self = crd(G, names('foo', { plural: 'bars' }), names('foo'), [ACCEPTED_TRUE, ESTABLISHED_TRUE]);
    const before = JSON.stringify(self);
    const s = namingStatus(self, [holder('bar')], T1)!;
    expect(s.conditions![0]).to.deep.equal({ type: 'NamesAccepted', status: 'False', lastTransitionTime: '2026-02-03T04:05:06Z', reason: 'PluralConflict', message: '"bars" is already in use' });
    expect(JSON.stringify(self)).to.equal(before);
  });

  it('treats absent and empty lists and strings as equal names', () => {
    expect(namesEqual({ plural: 'a', kind: 'A' }, { plural: 'a', kind: 'A', shortNames: [], singular: '', categories: [] })).to.equal(true);
    expect(namesEqual({ plural: 'a', kind: 'A', shortNames: ['x'] }, { plural: 'a', kind: 'A' })).to.equal(false);
    expect(namesEqual(undefined, { plural: '', kind: '' })).to.equal(true);
  });

  it('survives a CRD without status or names', () => {
    const bare = { metadata: { name: 'x.g' }, spec: { group: 'g' } } as never;
    expect(() => namingStatus(bare, [bare], T0)).not.to.throw();
  });
});
