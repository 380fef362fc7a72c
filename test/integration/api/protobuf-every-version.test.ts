/**
 * Protobuf for every served version (spec 001 § API versions and groups; spec 000 § Content
 * negotiation and encoding), with every pre-release version turned on (`--runtime-config=api/all=true`,
 * StorageVersionMigrator on): each stored kind takes a protobuf body and answers in protobuf what
 * JSON answers, and every listable resource of every served group version, the views over other
 * versions' storage (flowcontrol v1beta3, admissionregistration v1beta1 and v1alpha1, autoscaling
 * v1, events v1) included, lists and gets in protobuf what it lists and gets in JSON. The field
 * numbers themselves are pinned by test/unit/apimachinery/serializers/protobuf/field-numbers.test.ts.
 */
import { expect } from 'chai';
import { decodeProtobuf, encodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import type { KindDefinition, Obj } from '../../../lib/apis/define.js';
import { UPSTREAM_DOMAIN } from '../../../lib/apis/vendor.js';
import { allGoldens } from '../../fixtures/golden/all.js';
import type { GoldenCase } from '../../fixtures/golden/types.js';
import { useTestServer } from '../../framework/test-server.js';
import { SERVED_KINDS } from '../../unit/apimachinery/serializers/protobuf/field-numbers.js';

const PB = 'application/vnd.orch.protobuf';

/** The served kind of `apiVersion` and `kind` (or its list kind), for the envelope decoder. */
function resolve(apiVersion: string, kind: string): KindDefinition['schema'] | undefined {
  const def = SERVED_KINDS.find((k) => k.apiVersion === apiVersion && (k.kind === kind || k.listKind === kind));
  return def === undefined ? undefined : def.kind === kind ? def.schema : def.listSchema;
}

function collectionPath(c: GoldenCase): string {
  const root = c.group ? `/apis/${c.group}/${c.version}` : `/api/${c.version}`;
  return c.namespace ? `${root}/namespaces/${c.namespace}/${c.resource}` : `${root}/${c.resource}`;
}

/** A decoded object with the type meta of its envelope, as JSON carries it. */
function typed(decoded: { apiVersion: string; kind: string; object: Obj }): Obj {
  return { kind: decoded.kind, apiVersion: decoded.apiVersion, ...decoded.object };
}

type Admin = ReturnType<ReturnType<typeof useTestServer>>['admin'];

/**
 * `v` without what upstream's protobuf messages cannot carry either: values indistinguishable from
 * unset (an empty list, an empty string, null: a stored `"rules": []` is `null` after a round
 * trip, as in Go, where an empty slice and a nil one encode alike) and the type meta of nested
 * objects with metadata (a StatefulSet's claim templates say `kind` and `apiVersion` in JSON; their message has
 * no such fields). Everything else must be equal.
 */
function withoutEmpties(v: unknown, nested = false): unknown {
  if (Array.isArray(v)) return v.map((x) => withoutEmpties(x, true));
  if (v === null || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null || x === '' || (Array.isArray(x) && x.length === 0)) continue;
    if (nested && (k === 'kind' || k === 'apiVersion') && 'metadata' in v) continue;
    out[k] = withoutEmpties(x, true);
  }
  return out;
}

/**
 * Gets `path` in protobuf and in JSON until both answers carry one resourceVersion (an object a
 * loop of the server rewrites in between is read again; at most five times), and expects the
 * decoded protobuf object to equal the JSON one (but for the values of {@link withoutEmpties}).
 */
async function expectSameBothWays(admin: Admin, path: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const pb = await admin.get(path, { headers: { Accept: PB } });
    const json = await admin.get(path);
    expect([pb.status, json.status], path).to.deep.equal([200, 200]);
    expect(pb.headers['content-type'], path).to.equal(PB);
    const one = typed(decodeProtobuf(pb.bytes, resolve));
    if ((one.metadata as Obj).resourceVersion !== json.body.metadata.resourceVersion) continue;
    expect(withoutEmpties(one), path).to.deep.equal(withoutEmpties(json.body));
    return;
  }
  expect.fail(`${path}: not read at one resourceVersion in both encodings`);
}

describe('protobuf for every served version, pre-release versions on (spec 001 § API versions and groups)', function () {
  this.timeout(120_000);
  const server = useTestServer({
    crdControllers: false,
    runtimeConfig: 'api/all=true',
    featureGates: { StorageVersionMigrator: true },
    flowControl: { enablePriorityAndFairness: false, maxRequestsInFlight: 400, maxMutatingRequestsInFlight: 200 },
  });
  const admin = () => server().admin;
  /** The group versions served beside their group's preferred one (flowcontrol v1beta3, …). */
  let others: string[] = [];

  // Objects of their own for the version views, created through JSON (names ending `-view`) in
  // the preferred version of every group with another version, and in events.<vendor>/v1.
  before(async () => {
    const groups = (await admin().get('/apis')).body.groups as { name: string; versions: { groupVersion: string }[]; preferredVersion: { groupVersion: string } }[];
    others = groups
      .filter((g) => !g.name.endsWith(`.${UPSTREAM_DOMAIN}`))
      .flatMap((g) => g.versions.map((v) => v.groupVersion).filter((gv) => gv !== g.preferredVersion.groupVersion));
    const viewGroups = new Set([...others.map((gv) => gv.split('/')[0]), 'events.orch.io']);
    for (const c of allGoldens.filter((g) => !g.createOnly && !g.readOnly && viewGroups.has(g.group) && !others.includes(`${g.group}/${g.version}`))) {
      const body = { ...c.body, metadata: { ...(c.body.metadata as Obj), name: `${String((c.body.metadata as Obj).name)}-view` } };
      const created = await admin().post(collectionPath(c), body);
      expect(created.status, created.text).to.equal(201);
    }
  });

  it('each stored kind is created from a protobuf body and answered in protobuf as JSON answers it', async () => {
    const cases = allGoldens.filter((c) => !c.createOnly && !c.readOnly);
    expect(cases.length).to.be.greaterThan(60);
    for (const c of cases) {
      const apiVersion = c.group ? `${c.group}/${c.version}` : c.version;
      const kind = String(c.body.kind);
      const schema = resolve(apiVersion, kind);
      expect(schema, `${apiVersion} ${kind} is a served kind`).to.not.equal(undefined);
      const body = encodeProtobuf(c.body, { apiVersion, kind, schema: schema! });
      const created = await admin().request('POST', `${collectionPath(c)}?fieldManager=golden`, { raw: body, contentType: PB, headers: { Accept: PB, ...c.headers } });
      expect(created.status, `${apiVersion} ${kind}: ${created.text}`).to.equal(201);
      expect(created.headers['content-type']).to.equal(PB);
      const decoded = decodeProtobuf(created.bytes, resolve);
      expect([decoded.apiVersion, decoded.kind]).to.deep.equal([apiVersion, kind]);
      await expectSameBothWays(admin(), `${collectionPath(c)}/${String((decoded.object.metadata as Obj).name)}`);
    }
  });

  it('every listable resource of every served group version lists and gets in protobuf as in JSON', async () => {
    const groups = (await admin().get('/apis')).body.groups as { name: string; versions: { groupVersion: string }[] }[];
    const groupVersions = ['v1', ...groups.filter((g) => !g.name.endsWith(`.${UPSTREAM_DOMAIN}`)).flatMap((g) => g.versions.map((v) => v.groupVersion))];
    for (const v of ['flowcontrol.apiserver.orch.io/v1beta3', 'admissionregistration.orch.io/v1alpha1', 'resource.orch.io/v1alpha2', 'storagemigration.orch.io/v1alpha1', 'autoscaling/v1']) {
      expect(groupVersions, 'served with api/all=true').to.include(v);
    }
    const withItems = new Set<string>();
    for (const gv of groupVersions) {
      const root = gv === 'v1' ? '/api/v1' : `/apis/${gv}`;
      const resources = (await admin().get(root)).body.resources as { name: string; verbs: string[] }[];
      for (const r of resources.filter((x) => !x.name.includes('/') && x.verbs.includes('list'))) {
        const label = `${gv} ${r.name}`;
        const pbList = await admin().get(`${root}/${r.name}`, { headers: { Accept: PB } });
        expect(pbList.status, label).to.equal(200);
        expect(pbList.headers['content-type'], label).to.equal(PB);
        const list = decodeProtobuf(pbList.bytes, resolve);
        expect(list.apiVersion, label).to.equal(gv);
        expect(list.kind, label).to.match(/List$/);
        const items = (list.object.items as Obj[] | undefined) ?? [];
        if (items.length === 0) continue;
        withItems.add(gv);
        const meta = items[0]!.metadata as Obj;
        await expectSameBothWays(admin(), meta.namespace ? `${root}/namespaces/${String(meta.namespace)}/${r.name}/${String(meta.name)}` : `${root}/${r.name}/${String(meta.name)}`);
      }
    }
    for (const v of ['flowcontrol.apiserver.orch.io/v1beta3', 'admissionregistration.orch.io/v1beta1', 'admissionregistration.orch.io/v1alpha1', 'autoscaling/v1', 'events.orch.io/v1']) {
      expect([...withItems], 'a version view with objects to compare').to.include(v);
    }
  });

  it('an object of a non-preferred version, read in protobuf, is written back in protobuf unchanged', async () => {
    const written = new Set<string>();
    for (const gv of others) {
      const resources = (await admin().get(`/apis/${gv}`)).body.resources as { name: string; namespaced: boolean; verbs: string[] }[];
      for (const r of resources.filter((x) => !x.name.includes('/') && x.verbs.includes('list') && x.verbs.includes('update'))) {
        const list = decodeProtobuf((await admin().get(`/apis/${gv}/${r.name}`, { headers: { Accept: PB } })).bytes, resolve);
        const first = ((list.object.items as Obj[] | undefined) ?? [])[0];
        if (first === undefined) continue;
        const meta = first.metadata as Obj;
        const path = `/apis/${gv}/${meta.namespace ? `namespaces/${String(meta.namespace)}/` : ''}${r.name}/${String(meta.name)}`;
        const read = decodeProtobuf((await admin().get(path, { headers: { Accept: PB } })).bytes, resolve);
        const body = encodeProtobuf(read.object, { apiVersion: read.apiVersion, kind: read.kind, schema: resolve(read.apiVersion, read.kind)! });
        const put = await admin().request('PUT', path, { raw: body, contentType: PB, headers: { Accept: PB } });
        expect(put.status, `${path}: ${put.text}`).to.equal(200);
        const back = decodeProtobuf(put.bytes, resolve).object;
        const { metadata: _m, ...rest } = read.object;
        const { metadata: _b, ...restBack } = back;
        expect(withoutEmpties(restBack), path).to.deep.equal(withoutEmpties(rest));
        written.add(gv);
      }
    }
    expect([...written].sort()).to.include.members(['admissionregistration.orch.io/v1alpha1', 'admissionregistration.orch.io/v1beta1', 'autoscaling/v1', 'flowcontrol.apiserver.orch.io/v1beta3']);
  });
});
