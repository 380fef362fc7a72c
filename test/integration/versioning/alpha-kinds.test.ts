/**
 * The v1alpha1 kinds upstream v1.30 ships off by default (issue #15 item 1):
 * `storage.<vendor>/v1alpha1` VolumeAttributesClass, `networking.<vendor>/v1alpha1` IPAddress and
 * ServiceCIDR (with `status`), `certificates.<vendor>/v1alpha1` ClusterTrustBundle. Off by
 * default: 404 and absent from discovery. On when `--runtime-config` enables them: CRUD in their
 * own storage, upstream's validation messages, upstream's Table columns.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { META_GROUP, vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const STORAGE = vendorGroup('storage');
const NETWORKING = vendorGroup('networking');
const CERTIFICATES = vendorGroup('certificates');
const TABLE = `application/json;as=Table;v=v1;g=${META_GROUP}`;
const path = (group: string, resource = '', name = '') => `/apis/${group}/v1alpha1${resource ? `/${resource}` : ''}${name ? `/${name}` : ''}`;
const CERT = (JSON.parse(readFileSync(new URL('../../fixtures/kinds/cluster-trust-bundle.json', import.meta.url), 'utf8')) as { spec: { trustBundle: string } }).spec.trustBundle;

const vac = (name: string, extra: object = { driverName: 'csi.example.com', parameters: { iops: '3000' } }) => ({
  apiVersion: `${STORAGE}/v1alpha1`,
  kind: 'VolumeAttributesClass',
  metadata: { name },
  ...extra,
});
const ip = (name: string, spec: object = { parentRef: { resource: 'services', namespace: 'default', name: 'web' } }) => ({
  apiVersion: `${NETWORKING}/v1alpha1`,
  kind: 'IPAddress',
  metadata: { name },
  spec,
});
const cidr = (name: string, cidrs?: string[]) => ({ apiVersion: `${NETWORKING}/v1alpha1`, kind: 'ServiceCIDR', metadata: { name }, spec: cidrs ? { cidrs } : {} });
const ctb = (name: string, spec: object) => ({ apiVersion: `${CERTIFICATES}/v1alpha1`, kind: 'ClusterTrustBundle', metadata: { name }, spec });

const RESOURCES: Array<[string, string, object]> = [
  [STORAGE, 'volumeattributesclasses', vac('off')],
  [NETWORKING, 'ipaddresses', ip('10.0.0.1')],
  [NETWORKING, 'servicecidrs', cidr('off', ['10.0.0.0/24'])],
  [CERTIFICATES, 'clustertrustbundles', ctb('off', { trustBundle: CERT })],
];

describe('v1alpha1 kinds off by default (issue #15 item 1)', function () {
  this.timeout(60_000);

  describe('without --runtime-config', () => {
    const server = useTestServer();

    it(`answers 404 for the versions and resources, and lists only v1 in discovery${covers('001 § API versions and groups › Alpha', '001 § API versions and groups › Stable')}`, async () => {
      const admin = server().admin;
      for (const [group, resource, body] of RESOURCES) {
        expect((await admin.get(path(group))).status, `${group}/v1alpha1`).to.equal(404);
        expect((await admin.get(path(group, resource))).status, resource).to.equal(404);
        expect((await admin.post(path(group, resource), body)).status, `POST ${resource}`).to.equal(404);
        const doc = (await admin.get(`/apis/${group}`)).body as { versions: Array<{ version: string }> };
        expect(doc.versions.map((v) => v.version), group).to.not.include('v1alpha1');
      }
    });
  });

  describe('enabled with --runtime-config', () => {
    const server = useTestServer({ runtimeConfig: [STORAGE, NETWORKING, CERTIFICATES].map((g) => `${g}/v1alpha1=true`).join(',') });
    const admin = () => server().admin;

    /** POSTs `body` and expects a 422 whose message is `<Kind>.<group> "<name>" is invalid: <causes>`. */
    async function expectInvalid(group: string, resource: string, body: { kind: string; metadata: { name: string } }, causes: string[]): Promise<void> {
      const res = await admin().post(path(group, resource), body);
      expect(res.status, res.text).to.equal(422);
      const text = causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
      expect(res.body.message).to.equal(`${body.kind}.${group} "${body.metadata.name}" is invalid: ${text}`);
    }

    /** Creates `body`, then PUTs it changed by `change`; returns the update's answer. */
    async function update(group: string, resource: string, body: { metadata: { name: string } }, change: (o: Record<string, unknown>) => void) {
      const created = await admin().post(path(group, resource), body);
      expect(created.status, created.text).to.equal(201);
      const obj = created.body as Record<string, unknown>;
      change(obj);
      return admin().put(path(group, resource, body.metadata.name), obj);
    }

    it(`lists v1 (preferred) and v1alpha1 in discovery, with the alpha resources${covers('001 § API versions and groups › Alpha')}`, async () => {
      const expected: Record<string, string[]> = {
        [STORAGE]: ['volumeattributesclasses'],
        [NETWORKING]: ['ipaddresses', 'servicecidrs', 'servicecidrs/status'],
        [CERTIFICATES]: ['clustertrustbundles'],
      };
      for (const [group, names] of Object.entries(expected)) {
        const doc = (await admin().get(`/apis/${group}`)).body as { versions: Array<{ version: string }>; preferredVersion: { version: string } };
        expect(doc.versions.map((v) => v.version), group).to.include.members(['v1', 'v1alpha1']);
        expect(doc.preferredVersion.version).to.equal('v1');
        const list = (await admin().get(path(group))).body as { resources: Array<{ name: string; namespaced: boolean }> };
        expect(list.resources.map((r) => r.name), group).to.deep.equal(names);
        expect(list.resources.every((r) => !r.namespaced)).to.equal(true);
      }
    });

    it('creates, reads, lists, updates and deletes each kind in its own storage', async () => {
      for (const [group, resource, body] of RESOURCES) {
        const name = (body as { metadata: { name: string } }).metadata.name;
        const created = await admin().post(path(group, resource), body);
        expect(created.status, created.text).to.equal(201);
        expect(created.body.apiVersion).to.equal(`${group}/v1alpha1`);
        const got = await admin().get(path(group, resource, name));
        expect(got.status).to.equal(200);
        expect(got.body.metadata.generation, resource).to.equal(undefined);
        const listed = await admin().get(path(group, resource));
        expect(listed.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), resource).to.deep.equal([name]);
        got.body.metadata.labels = { touched: 'yes' };
        const put = await admin().put(path(group, resource, name), got.body);
        expect(put.status, put.text).to.equal(200);
        expect(put.body.metadata.labels).to.deep.equal({ touched: 'yes' });
        expect((await admin().delete(path(group, resource, name))).status).to.equal(200);
        expect((await admin().get(path(group, resource, name))).status).to.equal(404);
      }
    });

    it('a ServiceCIDR drops the status on create and writes it only through the status subresource', async () => {
      const created = await admin().post(path(NETWORKING, 'servicecidrs'), { ...cidr('status-cidr', ['10.1.0.0/16']), status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'R', message: 'm' }] } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.status).to.deep.equal({});
      const obj = created.body;
      obj.status = { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'Allocated', message: 'ok' }] };
      const put = await admin().put(path(NETWORKING, 'servicecidrs', 'status-cidr/status'), obj);
      expect(put.status, put.text).to.equal(200);
      expect(put.body.status.conditions[0].reason).to.equal('Allocated');
      expect(put.body.spec).to.deep.equal({ cidrs: ['10.1.0.0/16'] });
    });

    describe('validation with upstream messages', () => {
      const cases: Array<[string, string, string, { kind: string; metadata: { name: string } }, string[]]> = [
        ['VAC: driverName and parameters are required', STORAGE, 'volumeattributesclasses', vac('v1', {}), ['driverName: Required value', 'parameters: Required value: must contain at least one key/value pair']],
        ['VAC: parameter keys are not empty', STORAGE, 'volumeattributesclasses', vac('v2', { driverName: 'd.example.com', parameters: { '': 'x' } }), ['parameters: Invalid value: "": field can not be empty.']],
        ['IPAddress: the name is an IP address', NETWORKING, 'ipaddresses', ip('web'), ['metadata.name: Invalid value: "web": ParseAddr("web"): unable to parse IP']],
        ['IPAddress: no leading zeros', NETWORKING, 'ipaddresses', ip('10.0.0.010'), ['metadata.name: Invalid value: "10.0.0.010": ParseAddr("10.0.0.010"): IPv4 field has octet with leading zero']],
        ['IPAddress: IPv6 names are canonical', NETWORKING, 'ipaddresses', ip('2001:DB8:0:0::1'), ['metadata.name: Invalid value: "2001:DB8:0:0::1": must be a canonical format IP address']],
        ['IPAddress: bad IPv6 text', NETWORKING, 'ipaddresses', ip('2001:db8:::1'), ['metadata.name: Invalid value: "2001:db8:::1": ParseAddr("2001:db8:::1"): each colon-separated field must have at least one digit (at ":1")']],
        ['IPAddress: parentRef is required', NETWORKING, 'ipaddresses', ip('10.0.0.2', {}), ['spec.parentRef: Required value']],
        ['IPAddress: parentRef resource and name are required', NETWORKING, 'ipaddresses', ip('10.0.0.3', { parentRef: { group: 'Bad_Group' } }), [
          'spec.parentRef.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
          'spec.parentRef.resource: Required value',
          'spec.parentRef.name: Required value',
        ]],
        ['ServiceCIDR: a CIDR is required', NETWORKING, 'servicecidrs', cidr('c1'), ['spec.cidrs: Required value: at least one CIDR required']],
        ['ServiceCIDR: at most two CIDRs', NETWORKING, 'servicecidrs', cidr('c2', ['10.0.0.0/24', '10.1.0.0/24', '2001:db8::/64']), [
          'spec.cidrs: Invalid value: &networking.ServiceCIDRSpec{CIDRs:[]string{"10.0.0.0/24", "10.1.0.0/24", "2001:db8::/64"}}: may only hold up to 2 values',
        ]],
        ['ServiceCIDR: one CIDR per family', NETWORKING, 'servicecidrs', cidr('c3', ['10.0.0.0/24', '10.1.0.0/24']), [
          'spec.cidrs: Invalid value: &networking.ServiceCIDRSpec{CIDRs:[]string{"10.0.0.0/24", "10.1.0.0/24"}}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
        ]],
        ['ServiceCIDR: network address, canonical form, prefix syntax', NETWORKING, 'servicecidrs', cidr('c4', ['10.0.0.1/24', '2001:DB8::/64']), [
          'spec.cidrs[0]: Invalid value: "10.0.0.1/24": wrong CIDR format, IP doesn\'t match network IP address',
          'spec.cidrs[1]: Invalid value: "2001:DB8::/64": CIDR not in RFC 5952 canonical format',
        ]],
        ['ServiceCIDR: a prefix needs its length', NETWORKING, 'servicecidrs', cidr('c5', ['10.0.0.0']), ['spec.cidrs[0]: Invalid value: "10.0.0.0": netip.ParsePrefix("10.0.0.0"): no \'/\'']],
        ['ServiceCIDR: the length fits the family', NETWORKING, 'servicecidrs', cidr('c6', ['10.0.0.0/33']), ['spec.cidrs[0]: Invalid value: "10.0.0.0/33": netip.ParsePrefix("10.0.0.0/33"): prefix length out of range']],
        ['CTB: no ":" without a signer', CERTIFICATES, 'clustertrustbundles', ctb('a:b', { trustBundle: CERT }), ['metadata.name: Invalid value: "a:b": ClusterTrustBundle without signer name must not have ":" in its name']],
        ['CTB: the signer prefix', CERTIFICATES, 'clustertrustbundles', ctb('plain', { signerName: 'example.com/signer', trustBundle: CERT }), [
          'metadata.name: Invalid value: "plain": ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:',
        ]],
        ['CTB: a signer name has a domain and a path', CERTIFICATES, 'clustertrustbundles', ctb('signer:x', { signerName: 'signer', trustBundle: CERT }), [
          'spec.signerName: Invalid value: "signer": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
        ]],
        ['CTB: at least one anchor', CERTIFICATES, 'clustertrustbundles', ctb('empty', { trustBundle: '' }), ['spec.trustBundle: Invalid value: "<value omitted>": at least one trust anchor must be provided']],
        ['CTB: CERTIFICATE blocks only, parseable, unique', CERTIFICATES, 'clustertrustbundles', ctb('mixed', {
          trustBundle: `${CERT}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n${CERT}`,
        }), [
          'spec.trustBundle: Invalid value: "<value omitted>": entry 1 has bad block type: PRIVATE KEY',
          'spec.trustBundle: Invalid value: "<value omitted>": entry 2 does not parse as X.509',
          'spec.trustBundle: Invalid value: "<value omitted>": duplicate trust anchor (indices [0 3])',
        ]],
      ];
      for (const [label, group, resource, body, causes] of cases) {
        it(label, () => expectInvalid(group, resource, body, causes));
      }
    });

    describe('immutable fields', () => {
      it('a VolumeAttributesClass keeps its driverName and parameters', async () => {
        const res = await update(STORAGE, 'volumeattributesclasses', vac('imm'), (o) => {
          o.driverName = 'other.example.com';
          o.parameters = { iops: '1' };
        });
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(
          `VolumeAttributesClass.${STORAGE} "imm" is invalid: [driverName: Forbidden: updates to driverName are forbidden., parameters: Forbidden: updates to parameters are forbidden.]`,
        );
      });

      it('an IPAddress keeps its parentRef', async () => {
        const res = await update(NETWORKING, 'ipaddresses', ip('10.0.0.9'), (o) => {
          o.spec = { parentRef: { group: 'example.com', resource: 'gateways', name: 'gw' } };
        });
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(
          `IPAddress.${NETWORKING} "10.0.0.9" is invalid: spec.parentRef: Invalid value: &networking.ParentReference{Group:"example.com", Resource:"gateways", Namespace:"", Name:"gw"}: field is immutable`,
        );
      });

      it('a ServiceCIDR keeps its cidrs', async () => {
        const res = await update(NETWORKING, 'servicecidrs', cidr('imm', ['10.2.0.0/16']), (o) => {
          o.spec = { cidrs: ['10.3.0.0/16'] };
        });
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(`ServiceCIDR.${NETWORKING} "imm" is invalid: spec.cidrs: Invalid value: []string{"10.3.0.0/16"}: field is immutable`);
      });

      it('a ClusterTrustBundle keeps its signerName (and its name its prefix); an update names its resourceVersion', async () => {
        const res = await update(CERTIFICATES, 'clustertrustbundles', ctb('example.com:a:imm', { signerName: 'example.com/a', trustBundle: CERT }), (o) => {
          (o.spec as Record<string, unknown>).signerName = 'example.com/b';
        });
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(
          `ClusterTrustBundle.${CERTIFICATES} "example.com:a:imm" is invalid: [metadata.name: Invalid value: "example.com:a:imm": ClusterTrustBundle for signerName example.com/b must be named with prefix example.com:b:, spec.signerName: Invalid value: "example.com/b": field is immutable]`,
        );
        const got = (await admin().get(path(CERTIFICATES, 'clustertrustbundles', 'example.com:a:imm'))).body;
        delete got.metadata.resourceVersion;
        const unconditional = await admin().put(path(CERTIFICATES, 'clustertrustbundles', 'example.com:a:imm'), got);
        expect(unconditional.status, unconditional.text).to.equal(422);
        expect(unconditional.body.message).to.equal(
          `clustertrustbundles.${CERTIFICATES} "example.com:a:imm" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`,
        );
      });
    });

    describe('Table columns', () => {
      const tableCases: Array<[string, string, object, string[], unknown[]]> = [
        [STORAGE, 'volumeattributesclasses', vac('table-vac'), ['Name', 'DriverName', 'Age'], ['table-vac', 'csi.example.com']],
        [NETWORKING, 'ipaddresses', ip('10.9.0.1', { parentRef: { group: 'example.com', resource: 'Gateways', namespace: 'ns', name: 'gw' } }), ['Name', 'ParentRef'], ['10.9.0.1', 'gateways.example.com/ns/gw']],
        [NETWORKING, 'servicecidrs', cidr('table-cidr', ['10.9.0.0/16', 'fd00::/108']), ['Name', 'CIDRs', 'Age'], ['table-cidr', '10.9.0.0/16,fd00::/108']],
        [CERTIFICATES, 'clustertrustbundles', ctb('example.com:t:table', { signerName: 'example.com/t', trustBundle: CERT }), ['Name', 'SignerName'], ['example.com:t:table', 'example.com/t']],
      ];
      for (const [group, resource, body, columns, cells] of tableCases) {
        it(`${resource}: ${columns.join(', ')}`, async () => {
          const created = await admin().post(path(group, resource), body);
          expect(created.status, created.text).to.equal(201);
          const name = created.body.metadata.name as string;
          const res = await admin().get(path(group, resource, name), { headers: { Accept: TABLE } });
          expect(res.status, res.text).to.equal(200);
          expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(columns);
          expect(res.body.rows[0].cells.slice(0, cells.length)).to.deep.equal(cells);
          expect(res.body.rows[0].cells).to.have.length(columns.length);
        });
      }
    });
  });
});
