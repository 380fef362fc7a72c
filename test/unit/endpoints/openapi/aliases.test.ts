import { expect } from 'chai';
import { ExtensionWriter } from '../../../../lib/endpoints/openapi/names.js';
import { buildSwagger } from '../../../../lib/endpoints/openapi/swagger.js';
import { buildGroupVersionDocument } from '../../../../lib/endpoints/openapi/v3.js';
import { servedInstaller } from './fixture.js';
import { danglingRefs, keysWithPrefix } from '../../../framework/openapi-doc.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const INFO = { title: 'Orch', version: 'v1.30.0' };
const VENDOR = 'rbac.authorization.orch.io';
const ALIAS = 'rbac.authorization.k8s.io';
const ROLE = 'io.orch.api.rbac.v1.Role';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of a document's paths, with its path. */
function operations(doc: Doc): [string, Doc][] {
  return Object.entries(doc.paths as Record<string, Doc>).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m): [string, Doc] => [path, item[m]]));
}

describe('openapi documents of the upstream aliases (issue #9)', () => {
  describe('with the aliases on', () => {
    const installer = servedInstaller(true);
    const gvs = installer.groupVersions();
    const ext = new ExtensionWriter(true);
    const v2: Doc = buildSwagger(gvs, INFO, ext);
    const v3 = (group: string): Doc => buildGroupVersionDocument(gvs.find((g) => g.group === group)!, gvs, INFO, ext);

    it('holds the alias paths beside the vendor ones, the same operations under the alias group', () => {
      const vendorPaths = Object.keys(v2.paths).filter((p) => p.startsWith(`/apis/${VENDOR}/`));
      const aliasPaths = Object.keys(v2.paths).filter((p) => p.startsWith(`/apis/${ALIAS}/`));
      expect(vendorPaths.length).to.be.above(10);
      expect(aliasPaths).to.deep.equal(vendorPaths.map((p) => p.replace(VENDOR, ALIAS)));
      const list = v2.paths[`/apis/${ALIAS}/v1/namespaces/{namespace}/roles`].get;
      expect(list.operationId).to.equal('listRbacAuthorizationK8sIoV1NamespacedRole');
      expect(list.tags).to.deep.equal(['rbacAuthorizationK8sIo_v1']);
      expect(list['x-kubernetes-group-version-kind']).to.deep.equal({ group: ALIAS, kind: 'Role', version: 'v1' });
      expect(list['x-orch-group-version-kind']).to.deep.equal({ group: ALIAS, kind: 'Role', version: 'v1' });
      expect(list.responses['200'].schema).to.deep.equal({ $ref: '#/definitions/io.orch.api.rbac.v1.RoleList' });
      const vendorList = v2.paths[`/apis/${VENDOR}/v1/namespaces/{namespace}/roles`].get;
      expect(vendorList.operationId).to.equal('listRbacAuthorizationV1NamespacedRole');
      expect(vendorList.tags).to.deep.equal(['rbacAuthorization_v1']);
      expect(v2.paths[`/apis/${ALIAS}/v1/namespaces/{namespace}/roles/{name}`].patch.parameters.map((p: Doc) => p.name)).to.include('fieldValidation');
    });

    it('gives every operation of /openapi/v2 a distinct id', () => {
      const seen = new Map<string, string>();
      const dups: string[] = [];
      for (const [path, op] of operations(v2)) {
        if (seen.has(op.operationId)) dups.push(`${op.operationId}: ${seen.get(op.operationId)} and ${path}`);
        seen.set(op.operationId, path);
      }
      expect(dups).to.deep.equal([]);
      expect(seen.size).to.be.above(200);
    });

    it('shares the kind definitions, listing every served spelling of the group, vendor first', () => {
      const both = (kind: string) => [VENDOR, ALIAS].map((group) => ({ group, kind, version: 'v1' }));
      for (const [name, kind] of [
        ['Role', 'Role'],
        ['RoleList', 'RoleList'],
        ['ClusterRoleBinding', 'ClusterRoleBinding'],
      ]) {
        const def = v2.definitions[`io.orch.api.rbac.v1.${name}`];
        expect(def['x-orch-group-version-kind'], name).to.deep.equal(both(kind!));
        expect(def['x-kubernetes-group-version-kind'], name).to.deep.equal(both(kind!));
      }
      for (const meta of ['DeleteOptions', 'WatchEvent']) {
        const listed = v2.definitions[`io.orch.apimachinery.pkg.apis.meta.v1.${meta}`]['x-kubernetes-group-version-kind'].map((g: Doc) => g.group);
        expect(listed, meta).to.include.members([VENDOR, ALIAS, 'coordination.orch.io', 'coordination.k8s.io', '', 'apps']);
      }
      expect(Object.keys(v2.definitions).filter((d) => !d.startsWith('io.orch.'))).to.deep.equal([]);
    });

    it('v3: the alias document holds only alias paths, resolves every $ref and carries the same definitions as the vendor one', () => {
      const alias = v3(ALIAS);
      const vendor = v3(VENDOR);
      expect(Object.keys(alias.paths)).to.deep.equal(Object.keys(vendor.paths).map((p) => p.replace(VENDOR, ALIAS)));
      expect(danglingRefs(alias)).to.deep.equal([]);
      expect(alias.components.schemas).to.deep.equal(vendor.components.schemas);
      expect(alias.components.schemas[ROLE]['x-kubernetes-group-version-kind']).to.deep.include({ group: ALIAS, kind: 'Role', version: 'v1' });
      const patch = alias.paths[`/apis/${ALIAS}/v1/namespaces/{namespace}/roles/{name}`].patch;
      expect(patch.operationId).to.equal('patchRbacAuthorizationK8sIoV1NamespacedRole');
      expect(patch['x-kubernetes-group-version-kind']).to.deep.equal({ group: ALIAS, kind: 'Role', version: 'v1' });
      for (const gv of gvs) expect(danglingRefs(buildGroupVersionDocument(gv, gvs, INFO, ext)), gv.group).to.deep.equal([]);
    });
  });

  describe('with the aliases off', () => {
    const installer = servedInstaller(false);
    const gvs = installer.groupVersions();
    const ext = new ExtensionWriter(false);
    const v2: Doc = buildSwagger(gvs, INFO, ext);

    it('has no alias path, no alias group-version-kind and no upstream-named extension in any document', () => {
      expect(Object.keys(v2.paths).filter((p) => p.includes('.k8s.io'))).to.deep.equal([]);
      expect(JSON.stringify(v2)).to.not.include('k8s.io');
      expect(keysWithPrefix(v2, 'x-kubernetes-')).to.deep.equal([]);
      expect(v2.definitions[ROLE]['x-orch-group-version-kind']).to.deep.equal([{ group: VENDOR, kind: 'Role', version: 'v1' }]);
      expect(keysWithPrefix(v2, 'x-orch-').length).to.be.above(100);
      expect(gvs.map((g) => g.group)).to.not.include(ALIAS);
      for (const gv of gvs) {
        const doc = buildGroupVersionDocument(gv, gvs, INFO, ext);
        expect(keysWithPrefix(doc, 'x-kubernetes-'), gv.group).to.deep.equal([]);
        expect(JSON.stringify(doc), gv.group).to.not.include('k8s.io');
      }
    });
  });
});
