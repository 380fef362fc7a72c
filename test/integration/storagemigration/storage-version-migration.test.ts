/**
 * `storagemigration.<vendor>/v1alpha1` StorageVersionMigration (issue #15 item 1): off by
 * default; as upstream v1.30, served only when `--runtime-config` enables the version AND the
 * StorageVersionMigrator feature gate is on (either alone: 404). Then: CRUD, the status reset on
 * create and written through `status`, updates naming their resourceVersion, upstream's
 * validation messages (spec, immutable resource, status consistency), the default Table.
 */
import { expect } from 'chai';
import { META_GROUP, vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = vendorGroup('storagemigration');
const API = `${GROUP}/v1alpha1`;
const PATH = `/apis/${API}/storageversionmigrations`;
const TABLE = `application/json;as=Table;v=v1;g=${META_GROUP}`;
const svm = (name: string, resource: object = { group: 'apps', version: 'v1', resource: 'deployments' }) => ({ apiVersion: API, kind: 'StorageVersionMigration', metadata: { name }, spec: { resource } });
const T = '2024-05-01T10:00:00Z';
const cond = (type: string, status = 'True', extra: object = {}) => ({ type, status, lastUpdateTime: T, reason: 'R', message: 'm', ...extra });

async function expectNotServed(admin: { get(p: string): Promise<{ status: number; body: unknown }>; post(p: string, b: object): Promise<{ status: number }> }): Promise<void> {
  expect((await admin.get(`/apis/${API}`)).status).to.equal(404);
  expect((await admin.post(PATH, svm('off'))).status).to.equal(404);
  const groups = (await admin.get('/apis')).body as { groups: Array<{ name: string }> };
  expect(groups.groups.map((g) => g.name)).to.not.include(GROUP);
}

describe('storagemigration.<vendor>/v1alpha1 StorageVersionMigration (issue #15 item 1)', function () {
  this.timeout(60_000);

  describe('with the defaults', () => {
    const server = useTestServer();
    it('answers 404 and leaves the group out of discovery', () => expectNotServed(server().admin));
  });

  describe('with --runtime-config but without the StorageVersionMigrator gate', () => {
    const server = useTestServer({ runtimeConfig: `${API}=true` });
    it('still answers 404, as upstream', () => expectNotServed(server().admin));
  });

  describe('with the gate but without --runtime-config', () => {
    const server = useTestServer({ featureGates: { StorageVersionMigrator: true } });
    it('answers 404', () => expectNotServed(server().admin));
  });

  describe('with --runtime-config and the gate', () => {
    const server = useTestServer({ runtimeConfig: `${API}=true`, featureGates: { StorageVersionMigrator: true } });
    const admin = () => server().admin;

    async function putStatus(name: string, status: object) {
      const created = await admin().post(PATH, svm(name));
      expect(created.status, created.text).to.equal(201);
      return admin().put(`${PATH}/${name}/status`, { ...created.body, status });
    }

    function expectInvalid(res: { status: number; body: { message: string }; text: string }, name: string, causes: string[]): void {
      expect(res.status, res.text).to.equal(422);
      const text = causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
      expect(res.body.message).to.equal(`StorageVersionMigration.${GROUP} "${name}" is invalid: ${text}`);
    }

    it('lists storageversionmigrations and its status in discovery', async () => {
      const list = (await admin().get(`/apis/${API}`)).body as { resources: Array<{ name: string; namespaced: boolean }> };
      expect(list.resources.map((r) => [r.name, r.namespaced])).to.deep.equal([
        ['storageversionmigrations', false],
        ['storageversionmigrations/status', false],
      ]);
    });

    it('creates (status reset), reads, lists, updates, writes the status and deletes', async () => {
      const created = await admin().post(PATH, { ...svm('crud'), status: { resourceVersion: '5' } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.status).to.deep.equal({});
      expect(created.body.metadata.generation).to.equal(undefined);
      expect((await admin().get(PATH)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('crud');
      const status = { conditions: [cond('Running')], resourceVersion: '7' };
      const put = await admin().put(`${PATH}/crud/status`, { ...created.body, status });
      expect(put.status, put.text).to.equal(200);
      expect(put.body.status).to.deep.equal(status);
      const main = await admin().put(`${PATH}/crud`, { ...put.body, metadata: { ...put.body.metadata, labels: { a: 'b' } }, spec: { ...put.body.spec, continueToken: 'c' }, status: {} });
      expect(main.status, main.text).to.equal(200);
      expect(main.body.status).to.deep.equal(status);
      expect(main.body.spec.continueToken).to.equal('c');
      expect((await admin().delete(`${PATH}/crud`)).status).to.equal(200);
      expect((await admin().get(`${PATH}/crud`)).status).to.equal(404);
    });

    it('requires the resource and version', async () => {
      expectInvalid(await admin().post(PATH, svm('req', { group: 'apps' })), 'req', [
        'spec.resource.resource: Required value: resource is required',
        'spec.resource.version: Required value: version is required',
      ]);
    });

    it('keeps group, version and resource; updates name their resourceVersion', async () => {
      const created = await admin().post(PATH, svm('imm'));
      const res = await admin().put(`${PATH}/imm`, { ...created.body, spec: { resource: { group: 'batch', version: 'v2', resource: 'jobs' } } });
      expectInvalid(res, 'imm', [
        'group: Invalid value: "batch": field is immutable',
        'version: Invalid value: "v2": field is immutable',
        'resource: Invalid value: "jobs": field is immutable',
      ]);
      const { resourceVersion: _rv, ...meta } = created.body.metadata;
      const unconditional = await admin().put(`${PATH}/imm`, { ...created.body, metadata: meta });
      expect(unconditional.status).to.equal(422);
      expect(unconditional.body.message).to.equal(`storageversionmigrations.${GROUP} "imm" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`);
    });

    const statusCases: Array<[string, string, object, string[]]> = [
      ['a resource version is an integer', 'st1', { resourceVersion: 'abc' }, ['status.resourceVersion: Invalid value: "abc": failed to parse resource version "abc": strconv.ParseInt: parsing "abc": invalid syntax']],
      ['a resource version is not negative', 'st2', { resourceVersion: '-1' }, ['status.resourceVersion: Invalid value: -1: must be greater than or equal to 0']],
      ['conditions: type, status, time, reason', 'st3', { conditions: [{ type: 'bad type', status: 'Maybe', reason: '1x' }, cond('Running', 'False'), cond('Running', 'False')] }, [
        'status.conditions[0].type: Invalid value: "bad type": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
        'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
        'status.conditions[0].lastTransitionTime: Required value',
        'status.conditions[0].reason: Invalid value: "1x": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or \'_,:\', and must end with an alphanumeric character or \'_\' (e.g. \'my_name\',  or \'MY_NAME\',  or \'MyName\',  or \'ReasonA,ReasonB\',  or \'ReasonA:ReasonB\', regex used for validation is \'[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?\')',
        'status.conditions[2].type: Duplicate value: "Running"',
      ]],
      ['success and failure exclude each other', 'st4', { conditions: [cond('Succeeded'), cond('Failed')] }, [
        'status.conditions: Invalid value: []storagemigration.MigrationCondition{storagemigration.MigrationCondition{Type:"Succeeded", Status:"True", LastUpdateTime:v1.Time{Time:time.Date(2024, time.May, 1, 10, 0, 0, 0, time.Local)}, Reason:"R", Message:"m"}, storagemigration.MigrationCondition{Type:"Failed", Status:"True", LastUpdateTime:v1.Time{Time:time.Date(2024, time.May, 1, 10, 0, 0, 0, time.Local)}, Reason:"R", Message:"m"}}: Both success and failed conditions cannot be true at the same time',
      ]],
    ];
    for (const [label, name, status, causes] of statusCases) it(`status: ${label}`, async () => expectInvalid(await putStatus(name, status), name, causes));

    it('status: the resource version is set once; success stays true', async () => {
      const first = await putStatus('once', { conditions: [cond('Succeeded')], resourceVersion: '3' });
      expect(first.status, first.text).to.equal(200);
      const res = await admin().put(`${PATH}/once/status`, { ...first.body, status: { conditions: [cond('Succeeded', 'False')], resourceVersion: '4' } });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.match(/^StorageVersionMigration\.\S+ "once" is invalid: \[status\.resourceVersion: Invalid value: "4": cannot be updated, status\.conditions: Invalid value: \[\]storagemigration\.MigrationCondition\{.*\}: Success condition cannot be set to false once it is true\]$/);
    });

    it('prints the default table (upstream has no printer for the kind)', async () => {
      await admin().post(PATH, svm('table'));
      const res = await admin().get(`${PATH}/table`, { headers: { Accept: TABLE } });
      expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Created At']);
    });
  });
});
