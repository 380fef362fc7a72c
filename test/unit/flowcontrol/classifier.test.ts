import { expect } from 'chai';
import type { Obj } from '../../../lib/apis/define.js';
import { mandatoryFlowSchemas, suggestedFlowSchemas } from '../../../lib/apis/flowcontrol/v1/index.js';
import { SYSTEM_NAMESPACE } from '../../../lib/apis/vendor.js';
import { COORDINATION_GROUP } from '../../../lib/apis/coordination/v1/lease.js';
import { classify, digestFlowSchema, distinguisherOf, sortFlowSchemas } from '../../../lib/flowcontrol/classifier.js';
import { requestInfoOf, type RequestInfo } from '../../../lib/request/request-info.js';
import type { UserInfo } from '../../../lib/request/user.js';

const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });
const res = (verb: string, apiGroup: string, resource: string, namespace = '', subresource = ''): RequestInfo =>
  requestInfoOf({ isResourceRequest: true, verb, apiGroup, resource, namespace, subresource, path: '/x' });
const nonRes = (verb: string, path: string): RequestInfo => requestInfoOf({ isResourceRequest: false, verb, path });

function fs(name: string, precedence: number, rule: Obj, distinguisher = 'ByUser'): Obj {
  return {
    metadata: { name, uid: `uid-${name}` },
    spec: { priorityLevelConfiguration: { name: `pl-${name}` }, matchingPrecedence: precedence, distinguisherMethod: { type: distinguisher }, rules: [rule] },
  };
}

const bootstrap = () => sortFlowSchemas([...mandatoryFlowSchemas(), ...suggestedFlowSchemas()].map(digestFlowSchema));

describe('flowcontrol classifier', () => {
  it('classifies with the bootstrap schemas as upstream', () => {
    const schemas = bootstrap();
    const table: Array<[UserInfo, RequestInfo, string]> = [
      [user('admin', 'system:masters'), res('get', '', 'pods', 'default'), 'exempt'],
      [user('alice'), nonRes('get', '/healthz'), 'probes'],
      [{ name: 'system:anonymous', groups: ['system:unauthenticated'] }, nonRes('get', '/readyz'), 'probes'],
      [user('alice'), nonRes('post', '/healthz'), 'global-default'],
      [user('system:node:n1', 'system:nodes'), res('update', '', 'nodes', '', 'status'), 'system-node-high'],
      [user('system:node:n1', 'system:nodes'), res('get', '', 'pods', 'default'), 'system-nodes'],
      [user('system:kube-controller-manager'), res('get', COORDINATION_GROUP, 'leases', SYSTEM_NAMESPACE), 'system-leader-election'],
      [user('system:kube-controller-manager'), res('get', '', 'pods', 'default'), 'kube-controller-manager'],
      [user(`system:serviceaccount:${SYSTEM_NAMESPACE}:x`, 'system:serviceaccounts'), res('list', '', 'pods', 'default'), 'kube-system-service-accounts'],
      [user('system:serviceaccount:team:x', 'system:serviceaccounts'), res('list', '', 'pods', 'team'), 'service-accounts'],
      [user('alice'), res('create', 'apps', 'deployments', 'default'), 'global-default'],
    ];
    for (const [u, info, want] of table) expect(classify(schemas, u, info)?.name, `${u.name} ${info.verb} ${info.resource || info.path}`).to.equal(want);
  });

  it('orders by matchingPrecedence, then name', () => {
    const all = { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
    const schemas = sortFlowSchemas([fs('b', 100, all), fs('a', 100, all), fs('c', 50, all)].map(digestFlowSchema));
    expect(schemas.map((s) => s.name)).to.deep.equal(['c', 'a', 'b']);
    expect(classify(schemas.slice(1), user('u'), nonRes('get', '/x'))?.name).to.equal('a');
  });

  it('matches subjects: users, groups, service accounts and wildcards', () => {
    const rule = (subject: Obj) => digestFlowSchema(fs('s', 10, { subjects: [subject], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }));
    const info = nonRes('get', '/x');
    const cases: Array<[Obj, UserInfo, boolean]> = [
      [{ kind: 'User', user: { name: 'alice' } }, user('alice'), true],
      [{ kind: 'User', user: { name: 'alice' } }, user('bob'), false],
      [{ kind: 'User', user: { name: '*' } }, user('bob'), true],
      [{ kind: 'Group', group: { name: 'devs' } }, user('bob', 'devs'), true],
      [{ kind: 'Group', group: { name: 'devs' } }, user('bob'), false],
      [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: 'sa' } }, user('system:serviceaccount:ns:sa'), true],
      [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: 'sa' } }, user('system:serviceaccount:ns:other'), false],
      [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: '*' } }, user('system:serviceaccount:ns:other'), true],
      [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: '*' } }, user('system:serviceaccount:ns2:other'), false],
    ];
    for (const [subject, u, want] of cases) expect(classify([rule(subject)], u, info) !== undefined, `${JSON.stringify(subject)} ${u.name}`).to.equal(want);
  });

  it('matches resource rules: verbs, groups, subresources, namespaces and cluster scope', () => {
    const s = digestFlowSchema(
      fs('s', 10, {
        subjects: [{ kind: 'Group', group: { name: '*' } }],
        resourceRules: [{ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods', 'deployments/scale'], namespaces: ['team', 'prod'] }],
      }),
    );
    const cluster = digestFlowSchema(
      fs('c', 10, { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: [] }] }),
    );
    const anyNs = digestFlowSchema(
      fs('n', 10, { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }),
    );
    const u = user('u');
    expect(classify([s], u, res('get', '', 'pods', 'team'))).to.not.equal(undefined);
    expect(classify([s], u, res('delete', '', 'pods', 'team'))).to.equal(undefined);
    expect(classify([s], u, res('get', 'batch', 'pods', 'team'))).to.equal(undefined);
    expect(classify([s], u, res('get', '', 'pods', 'dev'))).to.equal(undefined);
    expect(classify([s], u, res('get', '', 'pods', ''))).to.equal(undefined);
    expect(classify([s], u, res('get', 'apps', 'deployments', 'prod', 'scale'))).to.not.equal(undefined);
    expect(classify([s], u, res('get', 'apps', 'deployments', 'prod'))).to.equal(undefined);
    expect(classify([cluster], u, res('get', '', 'nodes', ''))).to.not.equal(undefined);
    expect(classify([cluster], u, res('get', '', 'pods', 'team'))).to.equal(undefined);
    expect(classify([anyNs], u, res('get', '', 'pods', 'team'))).to.not.equal(undefined);
    expect(classify([anyNs], u, res('get', '', 'nodes', ''))).to.equal(undefined);
    expect(classify([anyNs], u, nonRes('get', '/healthz'))).to.equal(undefined);
  });

  it('matches non-resource URLs exactly and by /prefix/*', () => {
    const s = digestFlowSchema(
      fs('s', 10, { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }] }),
    );
    const u = user('u');
    expect(classify([s], u, nonRes('get', '/healthz'))).to.not.equal(undefined);
    expect(classify([s], u, nonRes('get', '/healthz/etcd'))).to.equal(undefined);
    expect(classify([s], u, nonRes('get', '/metrics/slis'))).to.not.equal(undefined);
    expect(classify([s], u, nonRes('get', '/metrics'))).to.not.equal(undefined);
    expect(classify([s], u, nonRes('put', '/healthz'))).to.equal(undefined);
    expect(classify([s], u, res('get', '', 'pods', 'x'))).to.equal(undefined);
  });

  it('distinguishes flows by user or namespace', () => {
    const rule = { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
    const info = res('get', '', 'pods', 'team');
    expect(distinguisherOf(digestFlowSchema(fs('a', 1, rule, 'ByUser')), user('alice'), info)).to.equal('alice');
    expect(distinguisherOf(digestFlowSchema(fs('a', 1, rule, 'ByNamespace')), user('alice'), info)).to.equal('team');
    const none = digestFlowSchema({ metadata: { name: 'x' }, spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 5, rules: [rule] } });
    expect(distinguisherOf(none, user('alice'), info)).to.equal('');
  });
});
