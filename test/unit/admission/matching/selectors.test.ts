import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { compileSelector, namespaceSelectorMatches, objectSelectorMatches } from '../../../../lib/admission/matching/selectors.js';
import type { ResourceAccess } from '../../../../lib/admission/plugin-deps.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { admissionAttrs } from '../attrs.js';

const USER = { name: 'u', groups: [] };
const labelled = (labels?: Record<string, string>): Obj => ({ metadata: { name: 'x', ...(labels ? { labels } : {}) } });

/** Namespaces `cached` in the informer and `stored` (seen only by a live read). */
function namespaces(cached: Record<string, Obj>, stored: Record<string, Obj> = {}): ResourceAccess & { reads: number } {
  const access = {
    reads: 0,
    lister: { get: (_ns: string, name: string) => cached[name], list: () => Object.values(cached), generation: () => 0 },
    async get(_ns: string, name: string) {
      access.reads++;
      return stored[name] ?? null;
    },
    list: async () => [],
    updateStatus: async (_ctx: unknown, o: Obj) => o,
  };
  return access;
}

const cm = (a: Partial<AdmissionAttributes> = {}) => admissionAttrs(USER, { resource: 'configmaps', kind: 'ConfigMap', namespace: 'team-a', name: 'x', ...a });

describe('admission label selectors (spec 001 § Admission control)', () => {
  it('an absent or empty selector selects everything', () => {
    expect(compileSelector(undefined).everything).to.equal(true);
    expect(compileSelector({}).everything).to.equal(true);
    expect(compileSelector({ matchLabels: {}, matchExpressions: [] }).everything).to.equal(true);
    expect(compileSelector({ matchLabels: { a: 'b' } }).everything).to.equal(false);
  });

  describe('objectSelector', () => {
    const sel = compileSelector({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] });

    it('selects by the new object', () => {
      expect(objectSelectorMatches(sel, cm({ object: labelled({ app: 'web' }) }))).to.equal(true);
      expect(objectSelectorMatches(sel, cm({ object: labelled({ app: 'web', tier: 'db' }) }))).to.equal(false);
    });

    it('selects by the old object when the new one does not match (label removed by an update)', () => {
      expect(objectSelectorMatches(sel, cm({ operation: 'UPDATE', object: labelled({}), oldObject: labelled({ app: 'web' }) }))).to.equal(true);
    });

    it('selects a delete by the old object, and never an object without labels', () => {
      expect(objectSelectorMatches(sel, cm({ operation: 'DELETE', oldObject: labelled({ app: 'web' }) }))).to.equal(true);
      expect(objectSelectorMatches(sel, cm({ object: labelled() }))).to.equal(false);
    });

    it('an empty selector selects objects without labels too', () => {
      expect(objectSelectorMatches(compileSelector({}), cm({ object: labelled() }))).to.equal(true);
    });
  });

  describe('namespaceSelector', () => {
    const sel = compileSelector({ matchLabels: { team: 'a' } });

    it("tests a namespaced request on its namespace's labels", async () => {
      const ns = namespaces({ 'team-a': labelled({ team: 'a' }), 'team-b': labelled({ team: 'b' }) });
      expect(await namespaceSelectorMatches(sel, cm(), ns)).to.equal(true);
      expect(await namespaceSelectorMatches(sel, cm({ namespace: 'team-b' }), ns)).to.equal(false);
    });

    it('reads a namespace the informer has not seen yet from storage', async () => {
      const ns = namespaces({}, { 'team-a': labelled({ team: 'a' }) });
      expect(await namespaceSelectorMatches(sel, cm(), ns)).to.equal(true);
      expect(ns.reads).to.equal(1);
    });

    it('answers 404 for a namespace that does not exist', async () => {
      try {
        await namespaceSelectorMatches(sel, cm({ namespace: 'gone' }), namespaces({}));
        expect.fail('no error');
      } catch (err) {
        expect(err).to.be.instanceOf(StatusError);
        expect((err as StatusError).code).to.equal(404);
        expect((err as StatusError).message).to.equal('namespaces "gone" not found');
      }
    });

    it('always selects requests of other cluster-scoped resources', async () => {
      const nodes = admissionAttrs(USER, { resource: 'nodes', kind: 'Node', name: 'n1' });
      expect(await namespaceSelectorMatches(sel, nodes, namespaces({}))).to.equal(true);
    });

    it("tests the create or update of a Namespace on the new object's labels only", async () => {
      const ns = (a: Partial<AdmissionAttributes>) => admissionAttrs(USER, { resource: 'namespaces', kind: 'Namespace', namespace: 'n', name: 'n', ...a });
      const access = namespaces({ n: labelled({ team: 'a' }) });
      expect(await namespaceSelectorMatches(sel, ns({ object: labelled({ team: 'a' }) }), access)).to.equal(true);
      expect(await namespaceSelectorMatches(sel, ns({ operation: 'UPDATE', object: labelled({ team: 'b' }), oldObject: labelled({ team: 'a' }) }), access)).to.equal(false);
      expect(access.reads).to.equal(0);
    });

    it('tests a delete or a subresource write of a Namespace on the stored namespace', async () => {
      const ns = (a: Partial<AdmissionAttributes>) => admissionAttrs(USER, { resource: 'namespaces', kind: 'Namespace', namespace: 'n', name: 'n', ...a });
      const access = namespaces({ n: labelled({ team: 'a' }) });
      expect(await namespaceSelectorMatches(sel, ns({ operation: 'DELETE', oldObject: labelled({ team: 'a' }) }), access)).to.equal(true);
      expect(await namespaceSelectorMatches(sel, ns({ operation: 'UPDATE', subresource: 'status', object: labelled({ team: 'b' }) }), access)).to.equal(true);
    });
  });
});
