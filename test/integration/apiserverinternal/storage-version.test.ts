/**
 * `internal.apiserver.<vendor>/v1alpha1` StorageVersion (issue #15 item 1): off by default (404,
 * absent from discovery); enabled with `--runtime-config` (no feature gate needed, as upstream
 * v1.30): CRUD, the status reset on create and written through `status`, upstream's name and
 * status validation, its Table columns.
 */
import { expect } from 'chai';
import { META_GROUP, vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = vendorGroup('internal.apiserver');
const API = `${GROUP}/v1alpha1`;
const PATH = `/apis/${API}/storageversions`;
const TABLE = `application/json;as=Table;v=v1;g=${META_GROUP}`;
const sv = (name: string) => ({ apiVersion: API, kind: 'StorageVersion', metadata: { name }, spec: {} });
const server1 = (extra: object = {}) => ({ apiServerID: 'server-1', encodingVersion: 'apps/v1', decodableVersions: ['apps/v1'], ...extra });

describe('internal.apiserver.<vendor>/v1alpha1 StorageVersion (issue #15 item 1)', function () {
  this.timeout(60_000);

  describe('without --runtime-config', () => {
    const server = useTestServer();

    it('answers 404 and leaves the group out of discovery', async () => {
      const admin = server().admin;
      expect((await admin.get(`/apis/${API}`)).status).to.equal(404);
      expect((await admin.post(PATH, sv('apps.deployments'))).status).to.equal(404);
      const groups = (await admin.get('/apis')).body as { groups: Array<{ name: string }> };
      expect(groups.groups.map((g) => g.name)).to.not.include(GROUP);
    });
  });

  describe('enabled with --runtime-config', () => {
    const server = useTestServer({ runtimeConfig: `${API}=true` });
    const admin = () => server().admin;

    /** Creates `name`, then PUTs `status` through the subresource; returns the answer. */
    async function putStatus(name: string, status: object) {
      const created = await admin().post(PATH, sv(name));
      expect(created.status, created.text).to.equal(201);
      return admin().put(`${PATH}/${name}/status`, { ...created.body, status });
    }

    it('lists storageversions and storageversions/status in discovery', async () => {
      const list = (await admin().get(`/apis/${API}`)).body as { resources: Array<{ name: string; namespaced: boolean }> };
      expect(list.resources.map((r) => [r.name, r.namespaced])).to.deep.equal([
        ['storageversions', false],
        ['storageversions/status', false],
      ]);
    });

    it('creates (status reset), reads, lists, updates, writes the status and deletes', async () => {
      const created = await admin().post(PATH, { ...sv('apps.crud'), status: { commonEncodingVersion: 'apps/v1' } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.spec).to.deep.equal({});
      expect(created.body.status).to.deep.equal({});
      expect((await admin().get(PATH)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('apps.crud');
      const status = { storageVersions: [server1()], commonEncodingVersion: 'apps/v1' };
      const put = await admin().put(`${PATH}/apps.crud/status`, { ...created.body, metadata: { ...created.body.metadata, labels: { a: 'b' } }, status });
      expect(put.status, put.text).to.equal(200);
      expect(put.body.status).to.deep.equal(status);
      const main = await admin().put(`${PATH}/apps.crud`, { ...put.body, status: {} });
      expect(main.status, main.text).to.equal(200);
      expect(main.body.status).to.deep.equal(status);
      expect((await admin().delete(`${PATH}/apps.crud`)).status).to.equal(200);
      expect((await admin().get(`${PATH}/apps.crud`)).status).to.equal(404);
    });

    const nameCases: Array<[string, string]> = [
      ['deployments', 'metadata.name: Invalid value: "deployments": name must be in the form of <group>.<resource>'],
      [
        'apps.Deployments',
        'metadata.name: Invalid value: "apps.Deployments": the resource segment a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
      ],
    ];
    for (const [name, message] of nameCases) {
      it(`names: ${name}`, async () => {
        const res = await admin().post(PATH, sv(name));
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(`StorageVersion.${GROUP} "${name}" is invalid: ${message}`);
      });
    }

    const statusCases: Array<[string, string, object, string[]]> = [
      ['the common version must agree with the servers', 'apps.s1', { storageVersions: [server1()], commonEncodingVersion: 'apps/v2' }, ['status.commonEncodingVersion: Invalid value: "apps/v2": the actual common encoding version is apps/v1']],
      ['a common version is reported once servers agree', 'apps.s2', { storageVersions: [server1()] }, ['status.commonEncodingVersion: Invalid value: "null": the common encoding version is apps/v1']],
      ['no common version without agreement', 'apps.s3', { storageVersions: [server1(), server1({ apiServerID: 'server-2', encodingVersion: 'apps/v2', decodableVersions: ['apps/v2'] })], commonEncodingVersion: 'apps/v1' }, [
        'status.commonEncodingVersion: Invalid value: "apps/v1": should be nil if servers do not agree on the same encoding version, or if there is no server reporting the supported versions yet',
      ]],
      ['server entries: id, versions, decodable includes encoding', 'apps.s4', { storageVersions: [{ apiServerID: 'Server_1', encodingVersion: 'a/b/c', decodableVersions: ['/v1'] }] }, [
        'status.storageVersions[0].apiServerID: Invalid value: "Server_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
        'status.storageVersions[0].encodingVersion: Invalid value: "a/b/c": an apiVersion is a DNS-1035 label, which must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\') with an optional DNS subdomain prefix and \'/\' (e.g. \'example.com/MyVersion\')',
        'status.storageVersions[0].decodableVersions[0]: Invalid value: "/v1": group part: must be non-empty',
        'status.storageVersions[0].decodableVersions: Invalid value: []string{"/v1"}: decodableVersions must include encodingVersion a/b/c',
        'status.commonEncodingVersion: Invalid value: "null": the common encoding version is a/b/c',
      ]],
      ['conditions: unique types, reason and message', 'apps.s5', { conditions: [{ type: 'A', status: 'True', reason: 'r', message: 'm' }, { type: 'A', status: 'True' }] }, [
        'status[1].type: Invalid value: "A": the type of the condition is not unique, it also appears in conditions[0]',
        'status[1].reason: Required value: reason cannot be empty',
        'status[1].message: Required value: message cannot be empty',
      ]],
    ];
    for (const [label, name, status, causes] of statusCases) {
      it(`status: ${label}`, async () => {
        const res = await putStatus(name, status);
        expect(res.status, res.text).to.equal(422);
        const text = causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
        expect(res.body.message).to.equal(`StorageVersion.${GROUP} "${name}" is invalid: ${text}`);
      });
    }

    it('prints Name, CommonEncodingVersion, StorageVersions, Age', async () => {
      const servers = ['s1', 's2', 's3', 's4'].map((id) => server1({ apiServerID: id }));
      const put = await putStatus('apps.table', { storageVersions: servers, commonEncodingVersion: 'apps/v1' });
      expect(put.status, put.text).to.equal(200);
      const res = await admin().get(`${PATH}/apps.table`, { headers: { Accept: TABLE } });
      expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'CommonEncodingVersion', 'StorageVersions', 'Age']);
      expect(res.body.rows[0].cells.slice(0, 3)).to.deep.equal(['apps.table', 'apps/v1', 's1=apps/v1,s2=apps/v1,s3=apps/v1 + 1 more...']);
      await admin().post(PATH, sv('apps.empty'));
      const empty = await admin().get(`${PATH}/apps.empty`, { headers: { Accept: TABLE } });
      expect(empty.body.rows[0].cells.slice(0, 3)).to.deep.equal(['apps.empty', '<unset>', '<unset>']);
    });
  });
});
