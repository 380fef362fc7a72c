/**
 * The CustomResourceDefinition kind served by a real server (issue #14 item 1; upstream v1.30
 * apiextensions registry): CRUD, defaults, validation Status bodies, status.storedVersions and
 * generation, the status subresource, the first DELETE (Terminating + cleanup finalizer), and
 * the `kubectl get crd` Table.
 */
import { expect } from 'chai';
import type { TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';
import { EXT } from '../../../lib/apiextensions/types.js';
import { CRD_CLEANUP_FINALIZER, META_GROUP, vendorGroup } from '../../../lib/apis/vendor.js';

const GROUP = vendorGroup('apiextensions');
const CRDS = `/apis/${GROUP}/v1/customresourcedefinitions`;
const TABLE = `application/json;as=Table;v=v1;g=${META_GROUP}`;
/** Keeps a definition after its first DELETE whatever the cleanup controller does. */
const HOLD = 'example.com/hold';

const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);

const schema = {
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
};

/** A minimal definition of `<plural>.example.com` (singular and listKind left to the defaults). */
function definition(plural: string, kind: string, extra: { finalizers?: string[] } = {}) {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com`, ...extra },
    spec: {
      group: 'example.com',
      names: { plural, kind },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

describe('CustomResourceDefinition kind against a real server (issue #14)', () => {
  // Without the CRD controllers: these tests write the definitions' status themselves.
  const server = useTestServer({ crdControllers: false });
  const admin = () => server().admin;

  it('creates with upstream defaults, reads and lists', async () => {
    const created = await admin().post(CRDS, definition('widgets', 'Widget'));
    expectStatus(created, 201);
    const body = created.body;
    expect(body.spec.names).to.deep.equal({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' });
    expect(body.spec.conversion).to.deep.equal({ strategy: 'None' });
    expect(body.metadata.generation).to.equal(1);
    expect(body.status.storedVersions).to.deep.equal(['v1']);
    expect(body.status.acceptedNames).to.be.an('object');
    expect(body.spec.versions[0].schema.openAPIV3Schema).to.deep.equal(schema);

    const got = await admin().get(`${CRDS}/widgets.example.com`);
    expectStatus(got, 200);
    expect(got.body.spec).to.deep.equal(body.spec);
    const list = await admin().get(CRDS);
    expectStatus(list, 200);
    expect(list.body.kind).to.equal('CustomResourceDefinitionList');
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('widgets.example.com');
  });

  it('defaults a conversion service port to 443 and keeps an explicit singular and listKind', async () => {
    const d = definition('cogs', 'Cog');
    Object.assign(d.spec.names, { singular: 'onecog', listKind: 'CogCollection' });
    Object.assign(d.spec, { conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'ns', name: 'conv' } }, conversionReviewVersions: ['v1'] } } });
    const res = await admin().post(CRDS, d);
    expectStatus(res, 201);
    expect(res.body.spec.names).to.deep.equal({ plural: 'cogs', singular: 'onecog', kind: 'Cog', listKind: 'CogCollection' });
    expect(res.body.spec.conversion.webhook.clientConfig.service).to.deep.equal({ namespace: 'ns', name: 'conv', port: 443 });
  });

  it('keeps a schema with extensions, raw values and either-typed fields byte for byte', async () => {
    const rich = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-orch-preserve-unknown-fields': true,
          properties: {
            size: { 'x-orch-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
            mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            ports: {
              type: 'array',
              items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
              'x-orch-list-type': 'map',
              'x-orch-list-map-keys': ['name'],
            },
          },
          'x-orch-validations': [{ rule: 'self.mode != "c"', message: 'no c' }],
        },
      },
    };
    const d = definition('gizmos', 'Gizmo');
    d.spec.versions[0]!.schema.openAPIV3Schema = rich as unknown as typeof schema;
    const created = await admin().post(CRDS, d);
    expectStatus(created, 201);
    const got = await admin().get(`${CRDS}/gizmos.example.com`);
    expect(JSON.stringify(got.body.spec.versions[0].schema.openAPIV3Schema)).to.equal(JSON.stringify(created.body.spec.versions[0].schema.openAPIV3Schema));
    expect(got.body.spec.versions[0].schema.openAPIV3Schema).to.deep.equal(rich);
  });

  it('refuses invalid definitions with 422 and upstream messages', async () => {
    const wrongName = definition('things', 'Thing');
    wrongName.metadata.name = 'stuff.example.com';
    const res = await admin().post(CRDS, wrongName);
    expectStatus(res, 422);
    expect(res.body).to.deep.include({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `CustomResourceDefinition.${GROUP} "stuff.example.com" is invalid: metadata.name: Invalid value: "stuff.example.com": must be spec.names.plural+"."+spec.group`,
    });
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "stuff.example.com": must be spec.names.plural+"."+spec.group', field: 'metadata.name' },
    ]);

    const cases: [string, (d: ReturnType<typeof definition>) => void, string][] = [
      ['no schema', (d) => delete (d.spec.versions[0] as { schema?: unknown }).schema, 'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required'],
      ['bad scope', (d) => (d.spec.scope = 'Global'), 'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
      [
        'preserveUnknownFields',
        (d) => ((d.spec as { preserveUnknownFields?: boolean }).preserveUnknownFields = true),
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-orch-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ],
      ['kind is listKind', (d) => Object.assign(d.spec.names, { listKind: 'Thing' }), 'spec.names.listKind: Invalid value: "Thing": kind and listKind may not be the same'],
      [
        'webhook without review versions',
        (d) => Object.assign(d.spec, { conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://conv.example.com' } } } }),
        'spec.conversion.conversionReviewVersions: Required value',
      ],
    ];
    for (const [what, change, message] of cases) {
      const d = definition('things', 'Thing');
      change(d);
      const r = await admin().post(CRDS, d);
      expectStatus(r, 422);
      expect(r.body.message, what).to.equal(`CustomResourceDefinition.${GROUP} "things.example.com" is invalid: ${message}`);
    }
    const twoStorage = definition('things', 'Thing');
    twoStorage.spec.versions.push({ name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: schema } });
    const r = await admin().post(CRDS, twoStorage);
    expectStatus(r, 422);
    const version = (name: string) =>
      `apiextensions.CustomResourceDefinitionVersion{Name:"${name}", Served:true, Storage:true, Deprecated:false, DeprecationWarning:(*string)(nil), ` +
      'Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), ' +
      'AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), SelectableFields:[]apiextensions.SelectableField(nil)}';
    expect(r.body.message).to.equal(
      `CustomResourceDefinition.${GROUP} "things.example.com" is invalid: [spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${version('v1')}, ${version('v2')}}: ` +
        'must have exactly one version marked as storage version, status.storedVersions: Invalid value: []string{"v1"}: must have the storage version v2]',
    );
  });

  it('refuses schemas that break the list and map marker rules with upstream messages (spec 000 § Merge strategy markers)', async () => {
    const [LT, LMK, MT] = [EXT.listType, EXT.listMapKeys, EXT.mapType];
    // One version: upstream validates its schema as the internal top-level spec.validation.
    const P = 'spec.validation.openAPIV3Schema.properties[spec].properties[tags]';
    const keyed = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties: props, ...extra });
    const cases: [string, Record<string, unknown>, string][] = [
      ['map keys without a list type', { type: 'array', [LMK]: ['name'], items: keyed({ name: { type: 'string' } }, { required: ['name'] }) }, `${P}.${LT}: Required value: must be map if ${LMK} is non-empty`],
      ['map keys with list type set', { type: 'array', [LT]: 'set', [LMK]: ['name'], items: { type: 'string' } }, `${P}.${LT}: Invalid value: "set": must be map if ${LMK} is non-empty`],
      ['list type map without keys', { type: 'array', [LT]: 'map', items: keyed({ name: { type: 'string' } }) }, `${P}.${LMK}: Required value: must not be empty if ${LT} is map`],
      ['list type map of strings', { type: 'array', [LT]: 'map', [LMK]: ['name'], items: { type: 'string' } }, `${P}.items.type: Invalid value: "string": must be object if parent array's ${LT} is map`],
      [
        'a key that is an object',
        { type: 'array', [LT]: 'map', [LMK]: ['name'], items: keyed({ name: { type: 'object' } }, { required: ['name'] }) },
        `${P}.items.properties[name].type: Invalid value: "object": must be a scalar type if parent array's ${LT} is map`,
      ],
      [
        'a key neither required nor defaulted',
        { type: 'array', [LT]: 'map', [LMK]: ['name'], items: keyed({ name: { type: 'string' } }) },
        `${P}.items.properties[name].default: Required value: this property is in ${LMK}, so it must have a default or be a required property`,
      ],
      ['a map type on a string', { type: 'string', [MT]: 'atomic' }, `${P}.type: Invalid value: "string": must be object if ${MT} is specified`],
    ];
    /** The definition of things.example.com whose schema has `spec.tags` only. */
    const withTags = (tags: Record<string, unknown>) => {
      const d = definition('things', 'Thing');
      (d.spec.versions[0] as { schema: unknown }).schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { tags } } } } };
      return d;
    };
    for (const [what, tags, message] of cases) {
      const r = await admin().post(CRDS, withTags(tags));
      expectStatus(r, 422);
      expect(r.body.message, what).to.equal(`CustomResourceDefinition.${GROUP} "things.example.com" is invalid: ${message}`);
    }
    const keyedOK = withTags({ type: 'array', [LT]: 'map', [LMK]: ['name', 'port'], items: keyed({ name: { type: 'string' }, port: { type: 'integer', default: 80 } }, { required: ['name'] }) });
    const ok = await admin().post(CRDS, keyedOK);
    expectStatus(ok, 201);
    expect((await admin().delete(`${CRDS}/things.example.com`)).status).to.be.oneOf([200, 202]);
  });

  it('maintains status.storedVersions and the generation across a storage-version change; group and plural are immutable', async () => {
    expectStatus(await admin().post(CRDS, definition('sprockets', 'Sprocket')), 201);
    const cur = (await admin().get(`${CRDS}/sprockets.example.com`)).body;
    cur.spec.versions[0].storage = false;
    cur.spec.versions.push({ name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: schema } });
    cur.status = { storedVersions: ['ignored'] };
    const put = await admin().put(`${CRDS}/sprockets.example.com`, cur);
    expectStatus(put, 200);
    expect(put.body.metadata.generation).to.equal(2);
    expect(put.body.status.storedVersions).to.deep.equal(['v1', 'v2']);

    const labelOnly = put.body;
    labelOnly.metadata.labels = { a: 'b' };
    const put2 = await admin().put(`${CRDS}/sprockets.example.com`, labelOnly);
    expectStatus(put2, 200);
    expect(put2.body.metadata.generation).to.equal(2);

    const dropV1 = put2.body;
    dropV1.spec.versions = dropV1.spec.versions.slice(1);
    const bad = await admin().put(`${CRDS}/sprockets.example.com`, dropV1);
    expectStatus(bad, 422);
    expect(bad.body.message).to.equal(`CustomResourceDefinition.${GROUP} "sprockets.example.com" is invalid: status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions`);

    const regroup = (await admin().get(`${CRDS}/sprockets.example.com`)).body;
    regroup.spec.group = 'other.com';
    const imm = await admin().put(`${CRDS}/sprockets.example.com`, regroup);
    expectStatus(imm, 422);
    expect(imm.body.message).to.contain('spec.group: Invalid value: "other.com": field is immutable');

    const noRV = (await admin().get(`${CRDS}/sprockets.example.com`)).body;
    delete noRV.metadata.resourceVersion;
    expectStatus(await admin().put(`${CRDS}/sprockets.example.com`, noRV), 422);
  });

  it('writes status only through /status, where storedVersions may shrink', async () => {
    const obj = (await admin().get(`${CRDS}/sprockets.example.com`)).body;
    obj.status.storedVersions = ['v2'];
    obj.spec.scope = 'Cluster';
    const res = await admin().put(`${CRDS}/sprockets.example.com/status`, obj);
    expectStatus(res, 200);
    expect(res.body.status.storedVersions).to.deep.equal(['v2']);
    expect(res.body.spec.scope).to.equal('Namespaced');
    expect(res.body.metadata.generation).to.equal(2);
  });

  it('marks a definition Terminating with the cleanup finalizer on the first DELETE; dryRun changes nothing', async () => {
    expectStatus(await admin().post(CRDS, definition('doodads', 'Doodad', { finalizers: [HOLD] })), 201);
    const dry = await admin().delete(`${CRDS}/doodads.example.com?dryRun=All`);
    expectStatus(dry, 200);
    expect(dry.body.metadata.finalizers).to.include(CRD_CLEANUP_FINALIZER);
    const still = (await admin().get(`${CRDS}/doodads.example.com`)).body;
    expect(still.metadata.deletionTimestamp).to.equal(undefined);

    const wrongUID = await admin().request('DELETE', `${CRDS}/doodads.example.com`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'nope' } } });
    expectStatus(wrongUID, 409);
    expect(wrongUID.body.message).to.equal(
      `Operation cannot be fulfilled on customresourcedefinitions.${GROUP} "doodads.example.com": Precondition failed: UID in precondition: nope, UID in object meta: ${still.metadata.uid}`,
    );

    const del = await admin().delete(`${CRDS}/doodads.example.com`);
    expectStatus(del, 200);
    expect(del.body.kind).to.equal('CustomResourceDefinition');
    expect(del.body.metadata.deletionTimestamp).to.be.a('string');
    expect(del.body.metadata.finalizers).to.deep.equal([HOLD, CRD_CLEANUP_FINALIZER]);
    const terminating = del.body.status.conditions.find((c: { type: string }) => c.type === 'Terminating');
    expect(terminating).to.deep.include({
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    expect(terminating.lastTransitionTime).to.be.a('string');

    const got = await admin().get(`${CRDS}/doodads.example.com`);
    expectStatus(got, 200);
    expect(got.body.metadata.finalizers).to.include(HOLD);
    const again = await admin().delete(`${CRDS}/doodads.example.com`);
    expectStatus(again, 200);
    expect(again.body.metadata.deletionTimestamp).to.equal(got.body.metadata.deletionTimestamp);

    // Upstream's finalizer controller removes its finalizer through /status; so may anyone.
    expectStatus(await admin().patch(`${CRDS}/doodads.example.com/status`, { metadata: { finalizers: [] } }, 'application/merge-patch+json'), 200);
    expectStatus(await admin().get(`${CRDS}/doodads.example.com`), 404);
  });

  it('prints NAME and CREATED AT, as kubectl get crd shows', async () => {
    const res = await admin().get(CRDS, { headers: { Accept: TABLE } });
    expectStatus(res, 200);
    expect(res.body.kind).to.equal('Table');
    expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Created At']);
    const row = res.body.rows.find((r: { cells: string[] }) => r.cells[0] === 'widgets.example.com');
    expect(row.cells[1]).to.match(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('is discovered with its short names and category', async () => {
    const res = await admin().get(`/apis/${GROUP}/v1`);
    expectStatus(res, 200);
    const r = res.body.resources.find((x: { name: string }) => x.name === 'customresourcedefinitions');
    expect(r).to.deep.include({ kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'] });
    expect(res.body.resources.map((x: { name: string }) => x.name)).to.include('customresourcedefinitions/status');
  });
});
