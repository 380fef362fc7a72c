import { expect } from 'chai';
import { canonicalGroup } from '../../../lib/apis/vendor.js';
import { attributesFrom } from '../../../lib/authorization/interface.js';
import { parseRequestInfo } from '../../../lib/request/request-info.js';

const user = { name: 'u', groups: ['g'] };
const attrs = (method: string, url: string) => {
  const [path, query = ''] = url.split('?') as [string, string?];
  return attributesFrom(parseRequestInfo(method, path, new URLSearchParams(query)), user, canonicalGroup);
};

describe('authorization/interface: attributesFrom (spec 001 § Authorization; spec 000 § Verb mapping)', () => {
  it('a resource request: verb, namespace, resource, subresource, name from RequestInfo', () => {
    expect(attrs('GET', '/api/v1/namespaces/ns/pods/p/log')).to.deep.equal({
      user,
      verb: 'get',
      isResourceRequest: true,
      path: '/api/v1/namespaces/ns/pods/p/log',
      apiGroup: '',
      apiVersion: 'v1',
      namespace: 'ns',
      resource: 'pods',
      subresource: 'log',
      name: 'p',
    });
  });

  it('the upstream alias of a vendor group reaches authorizers as the vendor group', () => {
    expect(attrs('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles').apiGroup).to.equal('rbac.authorization.orch.io');
    expect(attrs('GET', '/apis/rbac.authorization.orch.io/v1/clusterroles').apiGroup).to.equal('rbac.authorization.orch.io');
    expect(attrs('GET', '/apis/apps/v1/deployments').apiGroup).to.equal('apps');
  });

  it('a non-resource request: the lower-case HTTP method and the path', () => {
    expect(attrs('PUT', '/logs/x')).to.deep.include({ verb: 'put', isResourceRequest: false, path: '/logs/x', apiGroup: '', resource: '' });
  });

  const verbs: Array<[string, string, string]> = [
    ['GET', '/api/v1/namespaces/ns/pods/p', 'get'],
    ['HEAD', '/api/v1/namespaces/ns/pods/p', 'get'],
    ['GET', '/api/v1/namespaces/ns/pods', 'list'],
    ['HEAD', '/api/v1/namespaces/ns/pods', 'list'],
    ['GET', '/api/v1/namespaces/ns/pods?watch=true', 'watch'],
    ['GET', '/api/v1/watch/namespaces/ns/pods', 'watch'],
    ['POST', '/api/v1/namespaces/ns/pods', 'create'],
    ['POST', '/api/v1/namespaces/ns/pods?dryRun=All', 'create'],
    ['PUT', '/api/v1/namespaces/ns/pods/p', 'update'],
    ['PATCH', '/api/v1/namespaces/ns/pods/p', 'patch'],
    ['DELETE', '/api/v1/namespaces/ns/pods/p', 'delete'],
    ['DELETE', '/api/v1/namespaces/ns/pods/p?dryRun=All', 'delete'],
    ['DELETE', '/api/v1/namespaces/ns/pods', 'deletecollection'],
    ['GET', '/api/v1/proxy/namespaces/ns/pods/p', 'proxy'],
  ];
  for (const [method, url, verb] of verbs) {
    it(`${method} ${url} → ${verb}`, () => {
      expect(attrs(method, url).verb).to.equal(verb);
    });
  }
});
