import { expect } from 'chai';
import { type AuditAttributes, PolicyChecker } from '../../../../lib/audit/checker.js';
import type { Policy } from '../../../../lib/audit/types.js';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const base: AuditAttributes = { user: alice, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns/pods/p', apiGroup: '', namespace: 'ns', resource: 'pods', subresource: '', name: 'p' };
const attrs = (o: Partial<AuditAttributes>): AuditAttributes => ({ ...base, ...o });

describe('audit policy rule matching (upstream policy/checker.go)', () => {
  const one = (rule: Policy['rules'][number]) => new PolicyChecker({ rules: [rule] });
  const table: Array<[string, Policy['rules'][number], AuditAttributes, boolean]> = [
    ['users match', { level: 'Metadata', users: ['alice'] }, base, true],
    ['users miss', { level: 'Metadata', users: ['bob'] }, base, false],
    ['failed authentication has no user', { level: 'Metadata', users: ['alice'] }, attrs({ user: undefined }), false],
    ['userGroups match any group', { level: 'Metadata', userGroups: ['devs'] }, base, true],
    ['verbs miss', { level: 'Metadata', verbs: ['list'] }, base, false],
    ['namespaces match', { level: 'Metadata', namespaces: ['ns'] }, base, true],
    ['"" namespace matches cluster scope', { level: 'Metadata', namespaces: [''] }, attrs({ namespace: '' }), true],
    ['namespaces never match non-resource requests', { level: 'Metadata', namespaces: [''] }, attrs({ isResourceRequest: false }), false],
    ['group with no resources matches the whole group', { level: 'Metadata', resources: [{ group: '' }] }, base, true],
    ['other group', { level: 'Metadata', resources: [{ group: 'apps' }] }, base, false],
    ['upstream group spelling matches the vendor one', { level: 'Metadata', resources: [{ group: 'rbac.authorization.k8s.io', resources: ['roles'] }] }, attrs({ apiGroup: 'rbac.authorization.orch.io', resource: 'roles' }), true],
    ['resource name', { level: 'Metadata', resources: [{ resources: ['pods'] }] }, base, true],
    ['plain resource does not cover a subresource', { level: 'Metadata', resources: [{ resources: ['pods'] }] }, attrs({ subresource: 'log' }), false],
    ['pods/log', { level: 'Metadata', resources: [{ resources: ['pods/log'] }] }, attrs({ subresource: 'log' }), true],
    ['* covers subresources', { level: 'Metadata', resources: [{ resources: ['*'] }] }, attrs({ subresource: 'status' }), true],
    ['*/status', { level: 'Metadata', resources: [{ resources: ['*/status'] }] }, attrs({ resource: 'deployments', subresource: 'status' }), true],
    ['*/status not the main resource', { level: 'Metadata', resources: [{ resources: ['*/status'] }] }, base, false],
    ['pods/*', { level: 'Metadata', resources: [{ resources: ['pods/*'] }] }, attrs({ subresource: 'exec' }), true],
    ['resourceNames match', { level: 'Metadata', resources: [{ resources: ['pods'], resourceNames: ['p'] }] }, base, true],
    ['resourceNames miss', { level: 'Metadata', resources: [{ resources: ['pods'], resourceNames: ['q'] }] }, base, false],
    ['URL exact', { level: 'Metadata', nonResourceURLs: ['/healthz'] }, attrs({ isResourceRequest: false, path: '/healthz' }), true],
    ['URL prefix', { level: 'Metadata', nonResourceURLs: ['/healthz*'] }, attrs({ isResourceRequest: false, path: '/healthz/etcd' }), true],
    ['URL *', { level: 'Metadata', nonResourceURLs: ['*'] }, attrs({ isResourceRequest: false, path: '/x' }), true],
    ['URL rules skip resource requests', { level: 'Metadata', nonResourceURLs: ['*'] }, base, false],
    ['URL miss', { level: 'Metadata', nonResourceURLs: ['/version'] }, attrs({ isResourceRequest: false, path: '/versions' }), false],
  ];
  for (const [name, rule, a, matches] of table) {
    it(name, () => {
      expect(one(rule).evaluate(a).level).to.equal(matches ? 'Metadata' : 'None');
    });
  }

  it('first match wins; omitStages join the policy-wide ones; omitManagedFields falls back to the policy', () => {
    const c = new PolicyChecker({
      omitStages: ['RequestReceived'],
      omitManagedFields: true,
      rules: [
        { level: 'RequestResponse', verbs: ['create'], omitStages: ['ResponseStarted'], omitManagedFields: false },
        { level: 'Request', verbs: ['get'] },
        { level: 'Metadata' },
      ],
    });
    const create = c.evaluate(attrs({ verb: 'create' }));
    expect(create.level).to.equal('RequestResponse');
    expect([...create.omitStages]).to.have.members(['RequestReceived', 'ResponseStarted']);
    expect(create.omitManagedFields).to.equal(false);
    const get = c.evaluate(base);
    expect(get).to.include({ level: 'Request', omitManagedFields: true });
    expect(c.evaluate(attrs({ verb: 'delete' })).level).to.equal('Metadata');
  });
});
