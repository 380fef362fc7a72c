/**
 * `resource.<vendor>/v1alpha2` (dynamic resource allocation; issue #15 item 1): off by default
 * (404, absent from discovery); enabled with `--runtime-config`: CRUD of its seven kinds in their
 * own storage, the claim's default allocation mode, status subresources that reset and keep the
 * status as upstream's strategies, upstream's validation messages and paths, Table columns,
 * ResourceSlice field selectors and the upstream group alias.
 */
import { expect } from 'chai';
import { META_GROUP, upstreamAlias, vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = vendorGroup('resource');
const API = `${GROUP}/v1alpha2`;
const TABLE = `application/json;as=Table;v=v1;g=${META_GROUP}`;
const base = `/apis/${API}`;
const nsPath = (resource: string, name = '') => `${base}/namespaces/default/${resource}${name ? `/${name}` : ''}`;
const clusterPath = (resource: string, name = '') => `${base}/${resource}${name ? `/${name}` : ''}`;

type Body = { kind: string; metadata: { name: string } } & Record<string, unknown>;
const obj = (kind: string, name: string, rest: object): Body => ({ apiVersion: API, kind, metadata: { name }, ...rest });

const resourceClass = (name: string, rest: object = { driverName: 'gpu.example.com' }) => obj('ResourceClass', name, rest);
const claim = (name: string, spec: object = { resourceClassName: 'gpu' }) => obj('ResourceClaim', name, { spec });
const template = (name: string, spec: object = { spec: { resourceClassName: 'gpu' } }) => obj('ResourceClaimTemplate', name, { spec });
const schedulingContext = (name: string, spec: object = { selectedNode: 'node-1', potentialNodes: ['node-1', 'node-2'] }) => obj('PodSchedulingContext', name, { spec });
const claimParameters = (name: string, rest: object = { driverRequests: [{ driverName: 'gpu.example.com', requests: [{ namedResources: { selector: 'true' } }] }] }) =>
  obj('ResourceClaimParameters', name, rest);
const classParameters = (name: string, rest: object = { filters: [{ driverName: 'gpu.example.com', namedResources: { selector: 'true' } }] }) => obj('ResourceClassParameters', name, rest);
const slice = (name: string, rest: object = { nodeName: 'node-1', driverName: 'gpu.example.com', namedResources: { instances: [{ name: 'gpu-0' }] } }) =>
  obj('ResourceSlice', name, rest);

/** Each kind: its path builder and a valid object. */
const KINDS: Array<[string, (r: string, n?: string) => string, Body]> = [
  ['podschedulingcontexts', nsPath, schedulingContext('crud')],
  ['resourceclaimparameters', nsPath, claimParameters('crud')],
  ['resourceclaims', nsPath, claim('crud')],
  ['resourceclaimtemplates', nsPath, template('crud')],
  ['resourceclasses', clusterPath, resourceClass('crud')],
  ['resourceclassparameters', nsPath, classParameters('crud')],
  ['resourceslices', clusterPath, slice('crud')],
];

const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('resource.<vendor>/v1alpha2 (issue #15 item 1)', function () {
  this.timeout(60_000);

  describe('without --runtime-config', () => {
    const server = useTestServer();

    it('answers 404 and leaves the group out of discovery', async () => {
      const admin = server().admin;
      expect((await admin.get(base)).status).to.equal(404);
      for (const [resource, path, body] of KINDS) {
        expect((await admin.get(path(resource))).status, resource).to.equal(404);
        expect((await admin.post(path(resource), body)).status, resource).to.equal(404);
      }
      expect((await admin.get(`/apis/${GROUP}`)).status).to.equal(404);
      const groups = (await admin.get('/apis')).body as { groups: Array<{ name: string }> };
      expect(groups.groups.map((g) => g.name)).to.not.include(GROUP);
      expect(Object.keys((await admin.get('/openapi/v3')).body.paths)).to.not.include(`apis/${API}`);
    });
  });

  describe('enabled with --runtime-config', () => {
    const server = useTestServer({ runtimeConfig: `${API}=true` });
    const admin = () => server().admin;

    async function expectInvalid(path: string, body: Body, causes: string[]): Promise<void> {
      const res = await admin().post(path, body);
      expect(res.status, res.text).to.equal(422);
      const text = causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
      expect(res.body.message).to.equal(`${body.kind}.${GROUP} "${body.metadata.name}" is invalid: ${text}`);
    }

    it('lists the seven resources (two status subresources) in discovery, as upstream', async () => {
      const doc = (await admin().get(`/apis/${GROUP}`)).body as { versions: Array<{ version: string }>; preferredVersion: { version: string } };
      expect(doc.versions.map((v) => v.version)).to.deep.equal(['v1alpha2']);
      expect(doc.preferredVersion.version).to.equal('v1alpha2');
      const list = (await admin().get(base)).body as { resources: Array<{ name: string; namespaced: boolean; kind: string; verbs: string[] }> };
      expect(list.resources.map((r) => [r.name, r.namespaced])).to.deep.equal([
        ['podschedulingcontexts', true],
        ['podschedulingcontexts/status', true],
        ['resourceclaimparameters', true],
        ['resourceclaims', true],
        ['resourceclaims/status', true],
        ['resourceclaimtemplates', true],
        ['resourceclasses', false],
        ['resourceclassparameters', true],
        ['resourceslices', false],
      ]);
    });

    it('publishes the version in OpenAPI v3 with every kind (definitions named as upstream)', async () => {
      expect(Object.keys((await admin().get('/openapi/v3')).body.paths)).to.include(`apis/${API}`);
      const doc = await admin().get(`/openapi/v3/apis/${API}`);
      expect(doc.status).to.equal(200);
      const schemas = Object.keys(doc.body.components.schemas).filter((k) => k.includes('.api.resource.v1alpha2.'));
      for (const kind of ['PodSchedulingContext', 'ResourceClaim', 'ResourceClaimParameters', 'ResourceClaimTemplate', 'ResourceClass', 'ResourceClassParameters', 'ResourceSlice']) {
        expect(schemas.some((k) => k.endsWith(`.api.resource.v1alpha2.${kind}`)), kind).to.equal(true);
      }
    });

    it('creates, reads, lists, updates and deletes each kind', async () => {
      for (const [resource, path, body] of KINDS) {
        const created = await admin().post(path(resource), body);
        expect(created.status, created.text).to.equal(201);
        expect(created.body.apiVersion).to.equal(API);
        expect(created.body.metadata.generation, resource).to.equal(undefined);
        const got = await admin().get(path(resource, 'crud'));
        expect(got.status, resource).to.equal(200);
        const listed = await admin().get(path(resource));
        expect(listed.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), resource).to.deep.equal(['crud']);
        got.body.metadata.labels = { touched: 'yes' };
        const put = await admin().put(path(resource, 'crud'), got.body);
        expect(put.status, put.text).to.equal(200);
        expect(put.body.metadata.labels).to.deep.equal({ touched: 'yes' });
        expect((await admin().delete(path(resource, 'crud'))).status, resource).to.equal(200);
        expect((await admin().get(path(resource, 'crud'))).status, resource).to.equal(404);
      }
    });

    it('defaults a claim\'s allocationMode (also in a template) and writes the empty status', async () => {
      const c = await admin().post(nsPath('resourceclaims'), claim('defaults'));
      expect(c.status, c.text).to.equal(201);
      expect(c.body.spec).to.deep.equal({ resourceClassName: 'gpu', allocationMode: 'WaitForFirstConsumer' });
      expect(c.body.status).to.deep.equal({});
      const t = await admin().post(nsPath('resourceclaimtemplates'), template('defaults'));
      expect(t.status, t.text).to.equal(201);
      expect(t.body.spec.spec.allocationMode).to.equal('WaitForFirstConsumer');
    });

    it('resets a claim\'s status on create, keeps it on main updates and writes it through status', async () => {
      const allocation = { resourceHandles: [{ driverName: 'gpu.example.com', data: 'x' }], shareable: true };
      const created = await admin().post(nsPath('resourceclaims'), { ...claim('status'), status: { driverName: 'gpu.example.com', allocation } });
      expect(created.body.status).to.deep.equal({});
      const withStatus = { ...created.body, status: { driverName: 'gpu.example.com', allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] } };
      const put = await admin().put(nsPath('resourceclaims', 'status/status'), withStatus);
      expect(put.status, put.text).to.equal(200);
      expect(put.body.status.reservedFor).to.deep.equal([{ resource: 'pods', name: 'p', uid: 'u1' }]);
      const main = await admin().put(nsPath('resourceclaims', 'status'), { ...put.body, status: {} });
      expect(main.status, main.text).to.equal(200);
      expect(main.body.status.driverName).to.equal('gpu.example.com');
      const changed = await admin().put(nsPath('resourceclaims', 'status/status'), { ...main.body, status: { ...main.body.status, allocation: { shareable: false } } });
      expect(changed.status).to.equal(422);
      expect(changed.body.message).to.equal(
        `ResourceClaim.${GROUP} "status" is invalid: status.allocation: Invalid value: &resource.AllocationResult{ResourceHandles:[]resource.ResourceHandle(nil), AvailableOnNodes:(*core.NodeSelector)(nil), Shareable:false}: field is immutable`,
      );
    });

    it('a PodSchedulingContext\'s status is written only through status', async () => {
      const created = await admin().post(nsPath('podschedulingcontexts'), { ...schedulingContext('psc'), status: { resourceClaims: [{ name: 'a' }] } });
      expect(created.body.status).to.deep.equal({});
      const put = await admin().put(nsPath('podschedulingcontexts', 'psc/status'), { ...created.body, spec: { selectedNode: 'other' }, status: { resourceClaims: [{ name: 'a', unsuitableNodes: ['node-2'] }] } });
      expect(put.status, put.text).to.equal(200);
      expect(put.body.spec.selectedNode).to.equal('node-1');
      expect(put.body.status.resourceClaims).to.deep.equal([{ name: 'a', unsuitableNodes: ['node-2'] }]);
      const dup = await admin().put(nsPath('podschedulingcontexts', 'psc/status'), { ...put.body, status: { resourceClaims: [{ name: 'a', unsuitableNodes: ['n', 'n'] }, { name: 'a' }] } });
      expect(dup.status).to.equal(422);
      expect(dup.body.message).to.equal(
        `PodSchedulingContext.${GROUP} "psc" is invalid: [status.claims[0].unsuitableNodes[1]: Duplicate value: "n", status.claims[1]: Duplicate value: "a"]`,
      );
    });

    describe('validation with upstream messages', () => {
      const cases: Array<[string, string, Body, string[]]> = [
        ['ResourceClass: driver name required', clusterPath('resourceclasses'), resourceClass('c1', {}), ['driverName: Required value', `driverName: Invalid value: "": ${DNS_SUBDOMAIN}`]],
        ['ResourceClass: parameters reference and node selector', clusterPath('resourceclasses'), resourceClass('c2', {
          driverName: 'gpu.example.com',
          parametersRef: { namespace: 'Bad' },
          suitableNodes: { nodeSelectorTerms: [] },
        }), [
          'parametersRef.kind: Required value',
          'parametersRef.name: Required value',
          'parametersRef.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
          'suitableNodes.nodeSelectorTerms: Required value: must have at least one node selector term',
        ]],
        ['ResourceClaim: class name and allocation mode', nsPath('resourceclaims'), claim('c3', { resourceClassName: 'Bad_Class', allocationMode: 'Later', parametersRef: { apiGroup: 'x' } }), [
          `spec.resourceClassName: Invalid value: "Bad_Class": ${DNS_SUBDOMAIN}`,
          'spec.parametersRef.kind: Required value',
          'spec.parametersRef.name: Required value',
          'spec.allocationMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
        ]],
        ['ResourceClaimTemplate: template metadata and claim spec', nsPath('resourceclaimtemplates'), template('c4', { metadata: { name: 'x', labels: { ok: 'yes' } }, spec: {} }), [
          'spec.metadata.name: Forbidden: cannot be set for a template',
          `spec.spec.resourceClassName: Invalid value: "": ${DNS_SUBDOMAIN}`,
        ]],
        ['PodSchedulingContext: potential nodes a set of node names', nsPath('podschedulingcontexts'), schedulingContext('c5', { potentialNodes: ['a', 'a', 'B'] }), [
          'spec.potentialNodes[1]: Duplicate value: "a"',
          `spec.potentialNodes[2]: Invalid value: "B": ${DNS_SUBDOMAIN}`,
        ]],
        ['PodSchedulingContext: at most 128 potential nodes', nsPath('podschedulingcontexts'), schedulingContext('c5b', { potentialNodes: Array.from({ length: 129 }, (_, i) => `n${i}`) }), [
          'spec.potentialNodes: Too long: may not be longer than 128',
        ]],
        ['ResourceSlice: a model is required', clusterPath('resourceslices'), slice('c6', { driverName: 'gpu.example.com' }), ['<nil>: Required value: exactly one structured model field must be set']],
        ['ResourceSlice: instances and attributes', clusterPath('resourceslices'), slice('c7', {
          nodeName: 'Node',
          driverName: 'gpu.example.com',
          namedResources: { instances: [{ name: 'i', attributes: [{ name: 'a' }, { name: 'b', bool: true, int: 1 }, { name: 'c', version: '1.0' }] }, { name: 'i' }] },
        }), [
          `nodeName: Invalid value: "Node": ${DNS_SUBDOMAIN}`,
          'namedResources.instances[0].attributes[0]: Required value: exactly one value must be set',
          'namedResources.instances[0].attributes[1]: Invalid value: []string{"bool", "int"}: exactly one field must be set, not several',
          'namedResources.instances[0].attributes[2].version: Invalid value: "1.0": must be a string compatible with semver.org spec 2.0.0',
          'namedResources.instances[1].name: Duplicate value: "i"',
        ]],
        ['ResourceClaimParameters: driver requests', nsPath('resourceclaimparameters'), claimParameters('c8', {
          generatedFrom: {},
          driverRequests: [{ driverName: 'gpu.example.com' }, { driverName: 'gpu.example.com', requests: [{}, { namedResources: {} }] }],
        }), [
          'generatedFrom.kind: Required value',
          'generatedFrom.name: Required value',
          'driverRequests[0].requests: Required value: empty entries with no requests are not allowed',
          'driverRequests[1].driverName: Duplicate value: "gpu.example.com"',
          'driverRequests[1].requests[0]: Required value: exactly one structured model field must be set',
          'driverRequests[1].requests[1].namedResources.selector: Required value',
        ]],
        ['ResourceClassParameters: filters and vendor parameters', nsPath('resourceclassparameters'), classParameters('c9', {
          filters: [{ driverName: 'gpu.example.com' }],
          vendorParameters: [{ driverName: 'a.example.com' }, { driverName: 'a.example.com' }],
        }), ['filters[0]: Required value: exactly one structured model field must be set', 'vendorParameters[1].driverName: Duplicate value: "a.example.com"']],
      ];
      for (const [label, path, body, causes] of cases) it(label, () => expectInvalid(path, body, causes));

      it('a claim\'s spec is immutable', async () => {
        const created = await admin().post(nsPath('resourceclaims'), claim('imm'));
        expect(created.status, created.text).to.equal(201);
        const res = await admin().put(nsPath('resourceclaims', 'imm'), { ...created.body, spec: { resourceClassName: 'other' } });
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(
          `ResourceClaim.${GROUP} "imm" is invalid: spec: Invalid value: resource.ResourceClaimSpec{ResourceClassName:"other", ParametersRef:(*resource.ResourceClaimParametersReference)(nil), AllocationMode:"WaitForFirstConsumer"}: field is immutable`,
        );
      });

      it('a slice keeps its nodeName and driverName', async () => {
        const created = await admin().post(clusterPath('resourceslices'), slice('imm'));
        const res = await admin().put(clusterPath('resourceslices', 'imm'), { ...created.body, nodeName: 'node-2', driverName: 'other.example.com' });
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(
          `ResourceSlice.${GROUP} "imm" is invalid: [nodeName: Invalid value: "node-2": field is immutable, driverName: Invalid value: "other.example.com": field is immutable]`,
        );
      });

      it('a claim status: driver name with allocation, reservations only when allocated', async () => {
        const created = await admin().post(nsPath('resourceclaims'), claim('st'));
        const res = await admin().put(nsPath('resourceclaims', 'st/status'), {
          ...created.body,
          status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }, { uid: 'u' }], deallocationRequested: true },
        });
        expect(res.status).to.equal(422);
        expect(res.body.message).to.equal(
          `ResourceClaim.${GROUP} "st" is invalid: [status.reservedFor[1].uid: Duplicate value: "u", status.reservedFor: Forbidden: may not be specified when \`allocated\` is not set, status.deallocationRequested: Forbidden: deallocation cannot be requested while \`reservedFor\` is set, status: Forbidden: \`allocation\` must be set when \`deallocationRequested\` is set]`,
        );
        const noDriver = await admin().put(nsPath('resourceclaims', 'st/status'), { ...created.body, status: { allocation: {} } });
        expect(noDriver.body.message).to.equal(`ResourceClaim.${GROUP} "st" is invalid: status.driverName: Required value: must be specified when \`allocation\` is set`);
      });
    });

    describe('Table columns', () => {
      const cases: Array<[string, (r: string, n?: string) => string, Body, string[], unknown[]]> = [
        ['resourceclasses', clusterPath, resourceClass('t'), ['Name', 'DriverName', 'Age'], ['t', 'gpu.example.com']],
        ['resourceclaims', nsPath, claim('t', { resourceClassName: 'gpu', allocationMode: 'Immediate' }), ['Name', 'ResourceClassName', 'AllocationMode', 'State', 'Age'], ['t', 'gpu', 'Immediate', 'pending']],
        ['resourceclaimtemplates', nsPath, template('t'), ['Name', 'ResourceClassName', 'AllocationMode', 'Age'], ['t', 'gpu', 'WaitForFirstConsumer']],
        ['podschedulingcontexts', nsPath, schedulingContext('t'), ['Name', 'SelectedNode', 'Age'], ['t', 'node-1']],
        ['resourceslices', clusterPath, slice('t'), ['Name', 'NodeName', 'DriverName', 'Age'], ['t', 'node-1', 'gpu.example.com']],
        ['resourceclaimparameters', nsPath, claimParameters('t', { generatedFrom: { apiGroup: 'example.com', kind: 'GPUClaim', name: 'g' } }), ['Name', 'GeneratedFrom', 'Age'], ['t', 'GPUClaim.example.com g']],
        ['resourceclassparameters', nsPath, classParameters('t', { generatedFrom: { apiGroup: 'example.com', kind: 'GPUClass', name: 'g', namespace: 'ns' } }), ['Name', 'GeneratedFrom', 'Age'], ['t', 'GPUClass.example.com ns/g']],
      ];
      for (const [resource, path, body, columns, cells] of cases) {
        it(`${resource}: ${columns.join(', ')}`, async () => {
          const created = await admin().post(path(resource), body);
          expect(created.status, created.text).to.equal(201);
          const res = await admin().get(path(resource, 't'), { headers: { Accept: TABLE } });
          expect(res.status, res.text).to.equal(200);
          expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(columns);
          expect(res.body.rows[0].cells.slice(0, cells.length)).to.deep.equal(cells);
          expect(res.body.rows[0].cells).to.have.length(columns.length);
        });
      }
    });

    it('selects ResourceSlices by nodeName and driverName', async () => {
      await admin().post(clusterPath('resourceslices'), slice('sel-a', { nodeName: 'node-a', driverName: 'a.example.com', namedResources: { instances: [] } }));
      await admin().post(clusterPath('resourceslices'), slice('sel-b', { nodeName: 'node-b', driverName: 'b.example.com', namedResources: { instances: [] } }));
      const byNode = await admin().get(`${clusterPath('resourceslices')}?fieldSelector=nodeName%3Dnode-a`);
      expect(byNode.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['sel-a']);
      const byDriver = await admin().get(`${clusterPath('resourceslices')}?fieldSelector=driverName%3Db.example.com`);
      expect(byDriver.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['sel-b']);
      const bad = await admin().get(`${nsPath('resourceclaims')}?fieldSelector=spec.resourceClassName%3Dgpu`);
      expect(bad.status).to.equal(400);
    });
  });

  describe('under the upstream alias', () => {
    const server = useTestServer({ runtimeConfig: `${API}=true`, upstreamAliases: true });

    it('serves the kinds as resource.k8s.io/v1alpha2', async () => {
      const alias = upstreamAlias(GROUP)!;
      const res = await server().admin.post(`/apis/${alias}/v1alpha2/resourceclasses`, { apiVersion: `${alias}/v1alpha2`, kind: 'ResourceClass', metadata: { name: 'aliased' }, driverName: 'gpu.example.com' });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.apiVersion).to.equal(`${alias}/v1alpha2`);
      expect((await server().admin.get(clusterPath('resourceclasses', 'aliased'))).body.apiVersion).to.equal(API);
    });
  });
});
