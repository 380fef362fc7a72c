/**
 * Removed API versions (spec 001 § Removed API versions; issue #15 item 3): every removed version
 * of the migration map answers 404 NotFound with upstream's Status body — its group version, its
 * resources, a named object — and is absent from discovery, while its replacement version is
 * served: listed in discovery with the resource, and answering a list (or, for the review kinds,
 * a create).
 */
import { expect } from 'chai';
import { type GVK, MIGRATIONS, type MigrationRow, migrationFor } from '../../../lib/apis/migration/index.js';
import { apiVersionOf } from '../../../lib/apis/migration/types.js';
import { type TestServer, useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';
import { migrationSpecRow } from '../../framework/migration-spec-rows.js';

/** Upstream's answer to a path no installed API serves. */
const NOT_FOUND = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server could not find the requested resource',
  reason: 'NotFound',
  details: {},
  code: 404,
};

/** The plural resource of a kind of the map (the kinds whose plural is not `<kind>s`). */
function resourceOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('policy')) return `${lower.slice(0, -1)}ies`;
  if (lower.endsWith('class') || lower.endsWith('ss')) return `${lower}es`;
  return `${lower}s`;
}

/** Versions of the map a v1.30 server still serves (removed in a later release): not 404. */
const STILL_SERVED = new Set(MIGRATIONS.filter((r) => Number(r.removedIn.split('.')[1]) > 30).map((r) => apiVersionOf(r.from.group, r.from.version)));

/** The collection path of a resource in a group version (namespaced kinds under `default`). */
function collectionPath(apiVersion: string, resource: string, namespaced: boolean): string {
  const root = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${root}${namespaced ? '/namespaces/default' : ''}/${resource}`;
}

/** Where a row's objects end up: its replacement, followed through rows that are themselves removed (undefined: none). */
function finalReplacement(row: MigrationRow): GVK | undefined {
  let to = row.to;
  for (let next = to && migrationFor(to.group, to.version, to.kind); next; next = to && migrationFor(to.group, to.version, to.kind)) to = next.to;
  return to;
}

interface DiscoveryResource {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

describe('removed API versions (migration map)', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const s = (): TestServer => server();
  const removed = MIGRATIONS.filter((r) => !STILL_SERVED.has(apiVersionOf(r.from.group, r.from.version)));
  const removedVersions = [...new Set(removed.map((r) => apiVersionOf(r.from.group, r.from.version)))];

  it('the map lists the versions this test expects (1.32 removals still served by 1.30)', () => {
    expect([...STILL_SERVED]).to.deep.equal(['flowcontrol.apiserver.orch.io/v1beta3']);
    expect(removedVersions).to.include.members(['extensions/v1beta1', 'policy/v1beta1', 'batch/v1beta1', 'autoscaling/v2beta1', 'autoscaling/v2beta2', 'apps/v1beta1', 'apps/v1beta2']);
  });

  for (const gv of removedVersions) {
    const rows = [...new Set(removed.filter((r) => apiVersionOf(r.from.group, r.from.version) === gv).map((r) => migrationSpecRow(r.from.group, r.from.kind, r.removedIn)))];
    it(`/apis/${gv} answers 404 NotFound and is not in discovery${covers(...rows)}`, async () => {
      const res = await s().admin.get(`/apis/${gv}`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
      const [group, version] = gv.split('/');
      const groups = await s().admin.get('/apis');
      const entry = (groups.body.groups as { name: string; versions: { version: string }[] }[]).find((g) => g.name === group);
      expect(entry?.versions.map((v) => v.version) ?? [], `${group} in /apis`).to.not.include(version);
    });
  }

  for (const row of removed) {
    const gv = apiVersionOf(row.from.group, row.from.version);
    const resource = resourceOf(row.from.kind);
    const target = finalReplacement(row);
    it(`${gv} ${row.from.kind} answers 404 NotFound; ${target ? `${apiVersionOf(target.group, target.version)} serves it` : 'no replacement'}${covers(migrationSpecRow(row.from.group, row.from.kind, row.removedIn))}`, async () => {
      for (const p of [`/apis/${gv}/${resource}`, `/apis/${gv}/namespaces/default/${resource}`, `/apis/${gv}/${resource}/some-name`]) {
        const res = await s().admin.get(p);
        expect(res.status, p).to.equal(404);
        expect(res.body, p).to.deep.equal(NOT_FOUND);
      }
      const create = await s().admin.post(`/apis/${gv}/${resource}`, { apiVersion: gv, kind: row.from.kind, metadata: { name: 'x' } });
      expect(create.status).to.equal(404);
      expect(create.body).to.deep.equal(NOT_FOUND);
      if (!target) return;
      const to = apiVersionOf(target.group, target.version);
      const discovery = await s().admin.get(to.includes('/') ? `/apis/${to}` : `/api/${to}`);
      expect(discovery.status, to).to.equal(200);
      const served = (discovery.body.resources as DiscoveryResource[]).find((r) => r.kind === target.kind && !r.name.includes('/'));
      expect(served, `${target.kind} in ${to}`).to.not.equal(undefined);
      if (served!.verbs.includes('list')) {
        const list = await s().admin.get(collectionPath(to, served!.name, served!.namespaced));
        expect(list.status, list.text).to.equal(200);
        expect(list.body.kind).to.equal(`${target.kind}List`);
      } else {
        const review = await s().admin.post(collectionPath(to, served!.name, served!.namespaced), reviewBody(to, target.kind));
        expect(review.status, review.text).to.equal(201);
      }
    });
  }
});

/** A valid create body of a review kind (the kinds served without list). */
function reviewBody(apiVersion: string, kind: string): object {
  const spec: Record<string, object> = {
    TokenReview: { token: 'not-a-valid-token' },
    SubjectAccessReview: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } },
    LocalSubjectAccessReview: { user: 'alice', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
    SelfSubjectAccessReview: { resourceAttributes: { verb: 'get', resource: 'pods' } },
    SelfSubjectRulesReview: { namespace: 'default' },
  };
  return { apiVersion, kind, ...(kind === 'LocalSubjectAccessReview' ? { metadata: { namespace: 'default' } } : {}), spec: spec[kind] ?? {} };
}
