import { expect } from 'chai';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';
import { PublicPathsAuthorizer } from '../../../../lib/authorization/public-paths/authorizer.js';

const ANON = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const USER = { name: 'u', groups: ['system:authenticated'] };

/** Non-resource attributes. */
const path = (p: string, user = ANON, verb = 'get'): AuthorizationAttributes => ({
  user,
  verb,
  isResourceRequest: false,
  path: p,
  apiGroup: '',
  apiVersion: '',
  namespace: '',
  resource: '',
  subresource: '',
  name: '',
});

describe('authorization/public-paths: the default public-info and discovery grants (issue #2 item 3; spec 000 § Other paths)', () => {
  const rows: Array<[string, AuthorizationAttributes, 'Allow' | 'NoOpinion']> = [
    ['health and version to anonymous: /healthz', path('/healthz'), 'Allow'],
    ['health and version to anonymous: /livez', path('/livez'), 'Allow'],
    ['health and version to anonymous: /readyz', path('/readyz'), 'Allow'],
    ['health and version to anonymous: /version', path('/version'), 'Allow'],
    ['health and version to anonymous: /version/', path('/version/'), 'Allow'],
    ['not a single health check to anonymous: /livez/etcd', path('/livez/etcd'), 'NoOpinion'],
    ['not discovery to anonymous: /api', path('/api'), 'NoOpinion'],
    ['not discovery to anonymous: /apis/apps/v1', path('/apis/apps/v1'), 'NoOpinion'],
    ['not OpenAPI to anonymous', path('/openapi/v2'), 'NoOpinion'],
    ['discovery to authenticated users: /api', path('/api', USER), 'Allow'],
    ['discovery to authenticated users: /api/v1', path('/api/v1', USER), 'Allow'],
    ['discovery to authenticated users: /apis', path('/apis', USER), 'Allow'],
    ['discovery to authenticated users: /apis/apps/v1', path('/apis/apps/v1', USER), 'Allow'],
    ['OpenAPI to authenticated users: /openapi/v2', path('/openapi/v2', USER), 'Allow'],
    ['OpenAPI to authenticated users: /openapi/v3/apis/apps/v1', path('/openapi/v3/apis/apps/v1', USER), 'Allow'],
    ['health to authenticated users', path('/readyz', USER), 'Allow'],
    ['a path merely starting like a discovery path: /apiserver', path('/apiserver', USER), 'NoOpinion'],
    ['/metrics is not public', path('/metrics', USER), 'NoOpinion'],
    ['/logs is not public', path('/logs', USER), 'NoOpinion'],
    ['only get: HEAD /healthz', path('/healthz', ANON, 'head'), 'NoOpinion'],
    ['only get: POST /api', path('/api', USER, 'post'), 'NoOpinion'],
  ];
  for (const [what, attrs, decision] of rows) {
    it(`${what} → ${decision}`, async () => {
      expect((await new PublicPathsAuthorizer().authorize(attrs)).decision).to.equal(decision);
    });
  }

  it('never has an opinion about resource requests', async () => {
    const a = { ...path('/api/v1/namespaces', USER), isResourceRequest: true, verb: 'list', resource: 'namespaces' };
    expect((await new PublicPathsAuthorizer().authorize(a)).decision).to.equal('NoOpinion');
  });
});
