import { expect } from 'chai';
import { compare, type Comparison } from '../../../../lib/apimachinery/managedfields/compare.js';
import { fromFieldsV1 } from '../../../../lib/apimachinery/managedfields/fieldsv1.js';
import type { FieldSet } from '../../../../lib/apimachinery/managedfields/set.js';
import { deployment } from '../../../../lib/apis/apps/v1/index.js';
import type { Obj } from './helpers.js';

const dep = (replicas: number, image: string, sidecar: string, status: Obj): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', labels: { app: 'a' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'a' } },
    template: {
      metadata: { labels: { app: 'a' } },
      spec: { containers: [{ name: 'main', image }, { name: 'sidecar', image: sidecar }] },
    },
  },
  status,
});

const before = dep(1, 'nginx:1', 'envoy:1', { replicas: 1, readyReplicas: 1 });
const after = dep(3, 'nginx:2', 'envoy:2', { replicas: 3 });

const paths = (s: FieldSet) => s.paths().map((p) => p.map((pe) => pe.id).join('.'));
const shown = (c: Comparison) => ({ added: paths(c.added), modified: paths(c.modified), removed: paths(c.removed) });

/** What upstream's ExcludeFields leaves: the full comparison with every excluded path and everything below it removed. */
function excludedAfterwards(c: Comparison, excluded: FieldSet): Comparison {
  return { added: c.added.recursiveDifference(excluded), modified: c.modified.recursiveDifference(excluded), removed: c.removed.recursiveDifference(excluded) };
}

/**
 * compare with excluded fields (a write's reset fields, upstream ExcludeFields) leaves the
 * excluded subtrees out without walking them; the answer is the full comparison with those paths
 * removed afterwards (spec 000 § Field ownership: reset fields are never owned).
 */
describe('managedfields/compare: excluded fields', () => {
  const cases: Array<[string, Obj]> = [
    ['the status (a main-resource write)', { 'f:status': {} }],
    ['everything but the status (a status write)', { 'f:metadata': {}, 'f:spec': {}, 'f:apiVersion': {}, 'f:kind': {} }],
    ['one field inside the spec', { 'f:spec': { 'f:replicas': {} } }],
    ['one item of a keyed list', { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"main"}': {} } } } } }],
    ['a field inside one list item', { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"sidecar"}': { 'f:image': {} } } } } } }],
    ['a field that did not change, and a set with a member and children', { 'f:metadata': { '.': {}, 'f:labels': {} }, 'f:status': { 'f:readyReplicas': {} } }],
  ];
  for (const [what, fieldsV1] of cases) {
    it(`excluding ${what} answers as the full comparison with those paths removed`, () => {
      const excluded = fromFieldsV1(fieldsV1);
      const full = compare(before, after, deployment.schema);
      expect(shown(compare(before, after, deployment.schema, excluded))).to.deep.equal(shown(excludedAfterwards(full, excluded)));
    });
  }

  it('a status write compares the status alone', () => {
    const excluded = fromFieldsV1({ 'f:metadata': {}, 'f:spec': {}, 'f:apiVersion': {}, 'f:kind': {} });
    expect(shown(compare(before, after, deployment.schema, excluded))).to.deep.equal({ added: [], modified: ['f:status.f:replicas'], removed: ['f:status.f:readyReplicas'] });
  });

  it('a main-resource write leaves the status out and sees the spec', () => {
    const c = shown(compare(before, after, deployment.schema, fromFieldsV1({ 'f:status': {} })));
    expect(c.modified).to.include.members(['f:spec.f:replicas', 'f:spec.f:template.f:spec.f:containers.k:{"name":"main"}.f:image']);
    expect([...c.added, ...c.modified, ...c.removed].some((p) => p.startsWith('f:status'))).to.equal(false);
  });
});
