import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { clusterRoleBinding, RBAC_GROUP, roleBinding } from '../../../../../lib/apis/rbac/v1/index.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimalBinding = (): Obj => ({
  apiVersion: roleBinding.apiVersion,
  kind: 'RoleBinding',
  metadata: { name: 'read-pods', namespace: 'default' },
  subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'builder' }],
  roleRef: { kind: 'Role', name: 'pod-reader' },
});
const minimalClusterBinding = (): Obj => ({
  apiVersion: clusterRoleBinding.apiVersion,
  kind: 'ClusterRoleBinding',
  metadata: { name: 'monitoring' },
  subjects: [{ kind: 'Group', name: 'ops' }, { kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' }],
  roleRef: { kind: 'ClusterRole', name: 'monitoring' },
});
const subject = (o: Obj, i = 0): Obj => (o.subjects as Obj[])[i]!;
const ref = (o: Obj): Obj => o.roleRef as Obj;

describe('rbac/v1 RoleBinding and ClusterRoleBinding (issue #2 item 5; spec 001 § RBAC mode)', () => {
  it('declares the upstream discovery facts', () => {
    expect(roleBinding).to.include({ group: RBAC_GROUP, version: 'v1', resource: 'rolebindings', singular: 'rolebinding', namespaced: true, nameRule: 'pathSegment' });
    expect(clusterRoleBinding).to.include({ group: RBAC_GROUP, resource: 'clusterrolebindings', singular: 'clusterrolebinding', namespaced: false, nameRule: 'pathSegment' });
  });

  it('defaults roleRef.apiGroup and subject apiGroups per kind', () => {
    const b = minimalBinding();
    expect(decodeAndDefault(roleBinding, b)).to.deep.equal({ unknownFields: [] });
    expect(b.roleRef).to.deep.equal({ apiGroup: RBAC_GROUP, kind: 'Role', name: 'pod-reader' });
    expect(b.subjects).to.deep.equal([
      { kind: 'User', name: 'jane', apiGroup: RBAC_GROUP },
      { kind: 'ServiceAccount', name: 'builder', apiGroup: '' },
    ]);
    expect(validateCreate(roleBinding, b)).to.deep.equal([]);
    const c = minimalClusterBinding();
    decodeAndDefault(clusterRoleBinding, c);
    expect(subject(c).apiGroup).to.equal(RBAC_GROUP);
    expect(validateCreate(clusterRoleBinding, c)).to.deep.equal([]);
  });

  it('decodes the complete fixtures with every field and no unknown field', () => {
    const complete = (name: string, apiVersion: string): Obj => ({ apiVersion, ...fixture(name) });
    expect(decodeAndDefault(roleBinding, complete('role-binding', roleBinding.apiVersion))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(roleBinding.schema, complete('role-binding', roleBinding.apiVersion))).to.deep.equal([]);
    expect(decodeAndDefault(clusterRoleBinding, complete('cluster-role-binding', clusterRoleBinding.apiVersion))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(clusterRoleBinding.schema, complete('cluster-role-binding', clusterRoleBinding.apiVersion), ['metadata.namespace'])).to.deep.equal([]);
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['roleRef is required', (o) => delete o.roleRef, ['roleRef: Required value']],
    ['roleRef kind is Role or ClusterRole', (o) => (ref(o).kind = 'Group'), ['roleRef.kind: Unsupported value: "Group": supported values: "Role", "ClusterRole"']],
    ['roleRef name is required', (o) => delete ref(o).name, ['roleRef.name: Required value']],
    ['roleRef name is a path segment', (o) => (ref(o).name = 'a%b'), ["roleRef.name: Invalid value: \"a%b\": may not contain '%'"]],
    ['roleRef apiGroup is the RBAC group', (o) => (ref(o).apiGroup = 'example.com'), [`roleRef.apiGroup: Unsupported value: "example.com": supported values: "${RBAC_GROUP}"`]],
    ['subject kind is ServiceAccount, User or Group', (o) => (subject(o).kind = 'Robot'), ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"']],
    ['subject name is required', (o) => delete subject(o).name, ['subjects[0].name: Required value']],
    ['User subjects belong to the RBAC group', (o) => (subject(o).apiGroup = 'example.com'), [`subjects[0].apiGroup: Unsupported value: "example.com": supported values: "${RBAC_GROUP}"`]],
    ['ServiceAccount subjects belong to the core group', (o) => (subject(o, 1).apiGroup = RBAC_GROUP), [`subjects[1].apiGroup: Unsupported value: "${RBAC_GROUP}": supported values: ""`]],
    ['ServiceAccount subject names are DNS subdomains', (o) => (subject(o, 1).name = 'Builder'), [
      "subjects[1].name: Invalid value: \"Builder\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`RoleBinding validation: ${name}`, () => {
      const b = variant(minimalBinding(), mutate);
      decodeAndDefault(roleBinding, b);
      expect(messages(validateCreate(roleBinding, b))).to.deep.equal(expected);
    });
  }

  const clusterCases: Array<[string, (o: Obj) => void, string[]]> = [
    ['roleRef must be a ClusterRole', (o) => (ref(o).kind = 'Role'), ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"']],
    ['ServiceAccount subjects need a namespace', (o) => delete subject(o, 1).namespace, ['subjects[1].namespace: Required value']],
  ];
  for (const [name, mutate, expected] of clusterCases) {
    it(`ClusterRoleBinding validation: ${name}`, () => {
      const b = variant(minimalClusterBinding(), mutate);
      decodeAndDefault(clusterRoleBinding, b);
      expect(messages(validateCreate(clusterRoleBinding, b))).to.deep.equal(expected);
    });
  }

  describe('update rules', () => {
    for (const [kind, make, otherName] of [
      [roleBinding, minimalBinding, 'view'],
      [clusterRoleBinding, minimalClusterBinding, 'view'],
    ] as const) {
      it(`${kind.kind}: roleRef is immutable`, () => {
        const old = make();
        decodeAndDefault(kind, old);
        const updated = variant(old, (o) => (ref(o).name = otherName));
        expect(validateUpdate(kind, updated, old)).to.deep.equal([
          { type: 'Invalid', field: 'roleRef', badValue: { kind: ref(old).kind, name: otherName, apiGroup: RBAC_GROUP }, detail: 'cannot change roleRef' },
        ]);
      });
      it(`${kind.kind}: subjects may change`, () => {
        const old = make();
        decodeAndDefault(kind, old);
        const updated = variant(old, (o) => (o.subjects = []));
        expect(validateUpdate(kind, updated, old)).to.deep.equal([]);
      });
    }
  });
});
