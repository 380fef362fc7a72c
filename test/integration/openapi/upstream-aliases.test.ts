import { expect } from 'chai';
import { kubectl } from '../../framework/kubectl.js';
import { useTestServer } from '../../framework/test-server.js';
import { gnosticToJSON } from '../../unit/endpoints/openapi/gnostic-json.js';
import { danglingRefs, keysWithPrefix } from '../../framework/openapi-doc.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const PROTO = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const VENDOR = 'rbac.authorization.orch.io';
const ALIAS = 'rbac.authorization.k8s.io';
const ROLE = 'io.orch.api.rbac.v1.Role';
const ROLE_LIST = 'io.orch.api.rbac.v1.RoleList';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const ROLE_MANIFEST = `apiVersion: ${ALIAS}/v1
kind: Role
metadata:
  name: pod-reader
  namespace: default
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list"]
`;

const gvks = (kind: string, ...groups: string[]) => groups.map((group) => ({ group, kind, version: 'v1' }));

describe('OpenAPI of the upstream aliases over HTTPS (issue #9)', () => {
  describe('--upstream-aliases on (the default)', () => {
    const server = useTestServer();

    it('/openapi/v2 holds the alias paths with their own operation ids and the kinds under both spellings', async () => {
      const doc: Doc = (await server().admin.get('/openapi/v2')).body;
      const aliasPaths = Object.keys(doc.paths).filter((p) => p.startsWith(`/apis/${ALIAS}/v1/`));
      expect(aliasPaths).to.deep.equal(Object.keys(doc.paths).filter((p) => p.startsWith(`/apis/${VENDOR}/v1/`)).map((p) => p.replace(VENDOR, ALIAS)));
      expect(aliasPaths).to.include(`/apis/${ALIAS}/v1/namespaces/{namespace}/roles/{name}`);
      const list = doc.paths[`/apis/${ALIAS}/v1/namespaces/{namespace}/roles`].get;
      expect(list).to.deep.include({ operationId: 'listRbacAuthorizationK8sIoV1NamespacedRole', tags: ['rbacAuthorizationK8sIo_v1'] });
      expect(list['x-kubernetes-group-version-kind']).to.deep.equal({ group: ALIAS, kind: 'Role', version: 'v1' });
      expect(doc.paths[`/apis/${VENDOR}/v1/namespaces/{namespace}/roles`].get.operationId).to.equal('listRbacAuthorizationV1NamespacedRole');
      const ids = Object.values(doc.paths as Record<string, Doc>).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m].operationId as string));
      expect(ids.length - new Set(ids).size, 'duplicate operation ids').to.equal(0);
      for (const ext of ['x-orch-group-version-kind', 'x-kubernetes-group-version-kind']) {
        expect(doc.definitions[ROLE][ext], ext).to.deep.equal(gvks('Role', VENDOR, ALIAS));
        expect(doc.definitions[ROLE_LIST][ext], ext).to.deep.equal(gvks('RoleList', VENDOR, ALIAS));
      }
      const deleteGroups = doc.definitions['io.orch.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-kubernetes-group-version-kind'].map((g: Doc) => g.group);
      expect(deleteGroups).to.include.members([VENDOR, ALIAS, 'coordination.orch.io', 'coordination.k8s.io']);
    });

    it('/openapi/v2 in protobuf decodes to the same document, alias paths included', async () => {
      const json = await server().admin.get('/openapi/v2');
      const proto = await server().admin.get('/openapi/v2', { headers: { Accept: PROTO } });
      expect(proto.status).to.equal(200);
      const decoded: Doc = gnosticToJSON(proto.bytes);
      expect(decoded).to.deep.equal(json.body);
      expect(decoded.paths).to.have.property(`/apis/${ALIAS}/v1/clusterroles`);
    });

    it('/openapi/v3 indexes the alias group versions; their documents hold only alias paths and resolve every $ref', async () => {
      const index = (await server().admin.get('/openapi/v3')).body.paths;
      expect(Object.keys(index)).to.include.members([`apis/${ALIAS}/v1`, 'apis/coordination.k8s.io/v1', `apis/${VENDOR}/v1`]);
      const res = await server().admin.get(index[`apis/${ALIAS}/v1`].serverRelativeURL);
      expect(res.status).to.equal(200);
      const doc: Doc = res.body;
      expect(Object.keys(doc.paths).length).to.be.above(10);
      expect(Object.keys(doc.paths).every((p) => p.startsWith(`/apis/${ALIAS}/v1/`))).to.equal(true);
      expect(danglingRefs(doc)).to.deep.equal([]);
      expect(doc.components.schemas[ROLE]['x-kubernetes-group-version-kind']).to.deep.equal(gvks('Role', VENDOR, ALIAS));
      const patch = doc.paths[`/apis/${ALIAS}/v1/namespaces/{namespace}/roles/{name}`].patch;
      expect(patch.operationId).to.equal('patchRbacAuthorizationK8sIoV1NamespacedRole');
      expect(patch['x-kubernetes-group-version-kind']).to.deep.equal({ group: ALIAS, kind: 'Role', version: 'v1' });
      expect(patch.parameters.map((p: { name: string }) => p.name)).to.include('fieldValidation');
    });

    it('kubectl explains the alias kind (v3 and v2 documents) and validates a manifest in the alias group strictly', async function () {
      this.timeout(60_000);
      const kc = server().kubeconfig;
      const v3 = await kubectl(kc, ['explain', `roles.${ALIAS}.rules`]);
      expect(v3.code, v3.stderr).to.equal(0);
      expect(v3.stdout).to.include(`GROUP:      ${ALIAS}`).and.include('verbs\t<[]string> -required-');
      const v2 = await kubectl(kc, ['explain', `roles.${ALIAS}`, '--output', 'plaintext-openapiv2']);
      expect(v2.code, v2.stderr).to.equal(0);
      expect(v2.stdout).to.include(`VERSION:  ${ALIAS}/v1`).and.include('A set of permissions within one namespace.');
      const created = await kubectl(kc, ['create', '--dry-run=server', '--validate=strict', '-f', '-'], { stdin: ROLE_MANIFEST });
      expect(created.code, created.stderr).to.equal(0);
      expect(created.stdout).to.include(`role.${ALIAS}/pod-reader created (server dry run)`);
    });
  });

  describe('--upstream-aliases=false', () => {
    const server = useTestServer({ upstreamAliases: false });

    it('/openapi/v2 (JSON and protobuf) has no alias path, no alias group-version-kind and no upstream-named extension', async () => {
      const json = await server().admin.get('/openapi/v2');
      const doc: Doc = json.body;
      expect(json.text).to.not.include('k8s.io');
      expect(Object.keys(doc.paths)).to.include(`/apis/${VENDOR}/v1/namespaces/{namespace}/roles`);
      expect(keysWithPrefix(doc, 'x-kubernetes-')).to.deep.equal([]);
      expect(doc.definitions[ROLE]['x-orch-group-version-kind']).to.deep.equal(gvks('Role', VENDOR));
      expect(doc.definitions[ROLE_LIST]['x-orch-group-version-kind']).to.deep.equal(gvks('RoleList', VENDOR));
      const proto = await server().admin.get('/openapi/v2', { headers: { Accept: PROTO } });
      expect(proto.bytes.includes('x-kubernetes-')).to.equal(false);
      expect(gnosticToJSON(proto.bytes)).to.deep.equal(doc);
    });

    it('/openapi/v3 lists no alias group version, answers 404 for one, and no document has an upstream-named extension', async () => {
      const index = (await server().admin.get('/openapi/v3')).body.paths as Record<string, { serverRelativeURL: string }>;
      expect(Object.keys(index)).to.include(`apis/${VENDOR}/v1`);
      expect(Object.keys(index).filter((p) => p.includes('k8s.io'))).to.deep.equal([]);
      for (const [path, { serverRelativeURL }] of Object.entries(index)) {
        const res = await server().admin.get(serverRelativeURL);
        expect(res.status, path).to.equal(200);
        expect(keysWithPrefix(res.body, 'x-kubernetes-'), path).to.deep.equal([]);
        expect(res.text, path).to.not.include('k8s.io');
      }
      const missing = await server().admin.get(`/openapi/v3/apis/${ALIAS}/v1`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.include({ kind: 'Status', reason: 'NotFound', code: 404 });
    });
  });
});
