import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UPSTREAM_DOMAIN, vendorGroup } from '../../../../lib/apis/vendor.js';
import { ABACAuthorizer, NO_POLICY_MATCHED } from '../../../../lib/authorization/abac/authorizer.js';
import { PolicyLoadError, parsePolicies } from '../../../../lib/authorization/abac/policy.js';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';
import { covers } from '../../../conformance/covers.js';
import type { UserInfo } from '../../../../lib/request/user.js';

const V1BETA1 = `${vendorGroup('abac.authorization')}/v1beta1`;
const line = (spec: object) => JSON.stringify({ apiVersion: V1BETA1, kind: 'Policy', spec });

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const bob: UserInfo = { name: 'bob', groups: ['dev', 'system:authenticated'] };
const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const sa: UserInfo = { name: 'system:serviceaccount:kube-system:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] };

function res(user: UserInfo, verb: string, resource: string, namespace = '', apiGroup = ''): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', apiGroup, apiVersion: 'v1', namespace, resource, subresource: '', name: '' };
}
function nonres(user: UserInfo, verb: string, p: string): AuthorizationAttributes {
  return { user, verb, isResourceRequest: false, path: p, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
}

describe('authorization/abac: policy matching (spec 001 § ABAC mode)', () => {
  // The spec's examples and upstream's example policy file, one line per rule.
  const policies = parsePolicies(
    [
      '# comments and blank lines are skipped',
      '',
      line({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
      line({ user: 'kubelet', namespace: '*', resource: 'pods', readonly: true }),
      line({ user: 'kubelet', namespace: '*', resource: 'events' }),
      line({ user: 'bob', namespace: 'projectCaribou', resource: 'pods', readonly: true }),
      line({ group: 'dev', namespace: 'projectCaribou', resource: 'deployments', apiGroup: 'apps' }),
      line({ group: 'system:authenticated', readonly: true, nonResourcePath: '*' }),
      line({ group: 'system:unauthenticated', readonly: true, nonResourcePath: '/version' }),
      line({ user: 'system:serviceaccount:kube-system:default', namespace: '*', resource: '*', apiGroup: '*' }),
      line({ user: 'carol', nonResourcePath: '/logs/*' }),
    ].join('\n'),
    'policy.jsonl',
  );
  const abac = new ABACAuthorizer(policies);
  const kubelet: UserInfo = { name: 'kubelet', groups: ['system:authenticated'] };
  const carol: UserInfo = { name: 'carol', groups: [] };

  const table: Array<[string, AuthorizationAttributes, boolean]> = [
    ['alice does anything in any namespace', res(alice, 'delete', 'secrets', 'ns1'), true],
    ['alice does anything cluster-wide in any group', res(alice, 'create', 'clusterroles', '', 'rbac'), true],
    ['kubelet reads pods (readonly allows get)', res(kubelet, 'get', 'pods', 'a'), true],
    ['kubelet lists pods (readonly allows list)', res(kubelet, 'list', 'pods', 'a'), true],
    ['kubelet watches pods (readonly allows watch)', res(kubelet, 'watch', 'pods', 'a'), true],
    ['kubelet may not create pods (readonly)', res(kubelet, 'create', 'pods', 'a'), false],
    ['kubelet writes events', res(kubelet, 'create', 'events', 'a'), true],
    ['bob reads pods in projectCaribou', res(bob, 'get', 'pods', 'projectCaribou'), true],
    ['bob may not read pods elsewhere', res(bob, 'get', 'pods', 'other'), false],
    ['bob may not write pods in projectCaribou', res(bob, 'update', 'pods', 'projectCaribou'), false],
    ['group dev writes apps deployments in projectCaribou', res(bob, 'patch', 'deployments', 'projectCaribou', 'apps'), true],
    ['apiGroup must match: core-group deployments are not apps', res(bob, 'patch', 'deployments', 'projectCaribou', ''), false],
    ['authenticated users get any non-resource path', nonres(bob, 'get', '/healthz'), true],
    ['readonly non-resource allows get only, not post', nonres(bob, 'post', '/healthz'), false],
    ['a resource line does not match a non-resource request', nonres(anonymous, 'get', '/api'), false],
    ['unauthenticated group gets /version', nonres(anonymous, 'get', '/version'), true],
    ['unauthenticated group does not get /metrics', nonres(anonymous, 'get', '/metrics'), false],
    ['a non-resource line does not match a resource request', res(anonymous, 'get', 'pods', 'x'), false],
    ['service account by its username', res(sa, 'delete', 'configmaps', 'kube-system'), true],
    ['/foo/* matches a sub-path', nonres(carol, 'delete', '/logs/kube.log'), true],
    ['/foo/* matches the bare prefix with slash', nonres(carol, 'get', '/logs/'), true],
    ['/foo/* does not match /foo', nonres(carol, 'get', '/logs'), false],
    ['/foo/* does not match another path', nonres(carol, 'get', '/metrics'), false],
  ];
  /** The spec 001 rows (policy fields) some cases cover. */
  const specRows: Record<string, string[]> = {
    'alice does anything in any namespace': ['001 § ABAC mode › user', '001 § ABAC mode › namespace', '001 § ABAC mode › resource'],
    'alice does anything cluster-wide in any group': ['001 § ABAC mode › apiGroup'],
    'kubelet reads pods (readonly allows get)': ['001 § ABAC mode › readonly'],
    'kubelet lists pods (readonly allows list)': ['001 § ABAC mode › readonly'],
    'kubelet watches pods (readonly allows watch)': ['001 § ABAC mode › readonly'],
    'kubelet may not create pods (readonly)': ['001 § ABAC mode › readonly'],
    'bob may not read pods elsewhere': ['001 § ABAC mode › namespace'],
    'group dev writes apps deployments in projectCaribou': ['001 § ABAC mode › group', '001 § ABAC mode › apiGroup'],
    'apiGroup must match: core-group deployments are not apps': ['001 § ABAC mode › apiGroup'],
    'authenticated users get any non-resource path': ['001 § ABAC mode › group', '001 § ABAC mode › nonResourcePath'],
    'readonly non-resource allows get only, not post': ['001 § ABAC mode › readonly'],
    'unauthenticated group gets /version': ['001 § ABAC mode › group', '001 § ABAC mode › nonResourcePath'],
    'unauthenticated group does not get /metrics': ['001 § ABAC mode › nonResourcePath'],
    'service account by its username': ['001 § ABAC mode › user'],
    '/foo/* matches a sub-path': ['001 § ABAC mode › nonResourcePath'],
    '/foo/* does not match /foo': ['001 § ABAC mode › nonResourcePath'],
    'bob may not write pods in projectCaribou': ['001 § ABAC mode › resource', '001 § ABAC mode › readonly'],
  };
  for (const [title, attrs, allowed] of table) {
    const rows = specRows[title];
    it(`${allowed ? 'allows' : 'does not allow'}: ${title}${rows ? covers(...rows) : ''}`, async () => {
      const r = await abac.authorize(attrs);
      expect(r).to.deep.equal(allowed ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: NO_POLICY_MATCHED });
    });
  }

  it(`a \`*\` user matches every authenticated user, not anonymous ones (upstream v1beta1 conversion)${covers('001 § ABAC mode › user')}`, async () => {
    const a = new ABACAuthorizer(parsePolicies(line({ user: '*', namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '*' }), 'p'));
    expect((await a.authorize(res(bob, 'get', 'pods', 'x'))).decision).to.equal('Allow');
    expect((await a.authorize(res(anonymous, 'get', 'pods', 'x'))).decision).to.equal('NoOpinion');
  });

  it('a line without user and group matches nobody', async () => {
    const a = new ABACAuthorizer(parsePolicies(line({ namespace: '*', resource: '*', apiGroup: '*' }), 'p'));
    expect((await a.authorize(res(bob, 'get', 'pods', 'x'))).decision).to.equal('NoOpinion');
  });

  it(`user and group both set must both match${covers('001 § ABAC mode › user', '001 § ABAC mode › group')}`, async () => {
    const a = new ABACAuthorizer(parsePolicies(line({ user: 'bob', group: 'ops', namespace: '*', resource: '*', apiGroup: '*' }), 'p'));
    expect((await a.authorize(res(bob, 'get', 'pods', 'x'))).decision).to.equal('NoOpinion');
  });

  it('unset namespace matches only cluster-scoped requests; unset apiGroup only the core group', async () => {
    const a = new ABACAuthorizer(parsePolicies(line({ user: 'bob', resource: 'nodes' }), 'p'));
    expect((await a.authorize(res(bob, 'get', 'nodes'))).decision).to.equal('Allow');
    expect((await a.authorize(res(bob, 'get', 'nodes', 'x'))).decision).to.equal('NoOpinion');
    expect((await a.authorize(res(bob, 'get', 'nodes', '', 'apps'))).decision).to.equal('NoOpinion');
  });

  it('an API group in the upstream spelling matches requests of the vendor group', async () => {
    const a = new ABACAuthorizer(parsePolicies(line({ user: 'bob', namespace: '*', resource: 'roles', apiGroup: `rbac.authorization.${UPSTREAM_DOMAIN}` }), 'p'));
    expect((await a.authorize(res(bob, 'get', 'roles', 'x', vendorGroup('rbac.authorization')))).decision).to.equal('Allow');
  });
});

describe('authorization/abac: legacy unversioned lines (upstream v0 conversion)', () => {
  it('no user/group means every authenticated user; empty namespace/resource mean all, with every non-resource path', async () => {
    const a = new ABACAuthorizer(parsePolicies('{"readonly": true}', 'p'));
    expect((await a.authorize(res(bob, 'get', 'deployments', 'x', 'apps'))).decision).to.equal('Allow');
    expect((await a.authorize(nonres(bob, 'get', '/healthz'))).decision).to.equal('Allow');
    expect((await a.authorize(res(bob, 'delete', 'pods', 'x'))).decision).to.equal('NoOpinion');
    expect((await a.authorize(res(anonymous, 'get', 'pods', 'x'))).decision).to.equal('NoOpinion');
  });

  it('a resource and namespace restrict; every API group matches', async () => {
    const a = new ABACAuthorizer(parsePolicies('{"user":"bob","namespace":"ns","resource":"jobs"}', 'p'));
    expect((await a.authorize(res(bob, 'create', 'jobs', 'ns', 'batch'))).decision).to.equal('Allow');
    expect((await a.authorize(res(bob, 'create', 'jobs', 'other', 'batch'))).decision).to.equal('NoOpinion');
    expect((await a.authorize(nonres(bob, 'get', '/healthz'))).decision).to.equal('NoOpinion');
  });
});

describe('authorization/abac: policy file errors name the line (upstream policyLoadError)', () => {
  const cases: Array<[string, string, string]> = [
    ['not JSON', `${line({ user: 'a' })}\n{bad`, "error reading policy file p.jsonl, line 2: {bad: couldn't get version/kind; json parse error: invalid character 'b' looking for beginning of object key string"],
    [
      'a wrongly typed field',
      `\n# c\n${line({ user: 1 })}`,
      `error reading policy file p.jsonl, line 3: ${line({ user: 1 })}: json: cannot unmarshal number into Go struct field PolicySpec.spec.user of type string`,
    ],
    [
      'an unknown version',
      `{"apiVersion":"${vendorGroup('abac.authorization')}/v9","kind":"Policy","spec":{}}`,
      `error reading policy file p.jsonl, line 1: {"apiVersion":"${vendorGroup('abac.authorization')}/v9","kind":"Policy","spec":{}}: no kind "Policy" is registered for version "${vendorGroup('abac.authorization')}/v9" in scheme "pkg/runtime/scheme.go:100"`,
    ],
  ];
  for (const [title, content, message] of cases) {
    it(title, () => {
      expect(() => parsePolicies(content, 'p.jsonl')).to.throw(PolicyLoadError, message);
    });
  }

  it('reads a file; a missing file is an error', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'abac-'));
    try {
      await writeFile(path.join(dir, 'p.jsonl'), `${line({ user: 'a', namespace: '*', resource: '*', apiGroup: '*' })}\r\n`);
      expect((await ABACAuthorizer.fromFile(path.join(dir, 'p.jsonl'))).policies).to.have.length(1);
      let err: unknown;
      await ABACAuthorizer.fromFile(path.join(dir, 'missing')).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(Error);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('authorization/abac: rules of a user (upstream RulesFor)', () => {
  it('lists the resource lines whose subject and namespace match, readonly as get/list/watch', async () => {
    const a = new ABACAuthorizer(
      parsePolicies(
        [
          line({ user: 'bob', namespace: 'ns', resource: 'pods', readonly: true }),
          line({ group: 'dev', namespace: '*', resource: '*', apiGroup: 'apps' }),
          line({ user: 'bob', nonResourcePath: '/healthz' }),
          line({ user: 'bob', namespace: 'other', resource: 'secrets' }),
          line({ user: 'alice', namespace: '*', resource: '*' }),
        ].join('\n'),
        'p',
      ),
    );
    expect(await a.rulesFor(bob, 'ns')).to.deep.equal({
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
        { verbs: ['*'], apiGroups: ['apps'], resources: ['*'], resourceNames: [] },
      ],
      nonResourceRules: [],
      incomplete: false,
    });
  });

  it('a non-resource line (no namespace) is listed for the cluster scope only, as upstream compares namespaces', async () => {
    const a = new ABACAuthorizer(parsePolicies(line({ user: 'bob', nonResourcePath: '/healthz', readonly: true }), 'p'));
    expect((await a.rulesFor(bob, '')).nonResourceRules).to.deep.equal([{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/healthz'] }]);
    expect((await a.rulesFor(bob, 'ns')).nonResourceRules).to.deep.equal([]);
  });
});
