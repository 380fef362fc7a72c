import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { AuthorizationResult, Authorizer } from '../../../../lib/authorization/interface.js';
import { withAuthorization } from '../../../../lib/endpoints/filters/authorization.js';
import { requestContextOf, withRequestInfo } from '../../../../lib/endpoints/filters/request-info.js';
import { withStatusErrors } from '../../../../lib/server/filters/errors.js';

/** Serves `authorizer`'s decisions for user `u` over plain HTTP; answers the response of `method path`. */
async function respond(result: AuthorizationResult, method: string, path: string) {
  const seen: unknown[] = [];
  const authorizer: Authorizer = { authorize: async (a) => (seen.push(a), result) };
  const app = new Koa();
  app.use(withStatusErrors(() => {}));
  app.use(withRequestInfo(new AbortController().signal));
  app.use(async (koa, next) => {
    requestContextOf(koa).user = { name: 'u', groups: [] };
    await next();
  });
  app.use(withAuthorization(authorizer));
  app.use((koa) => {
    koa.body = 'served';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method });
    return { status: res.status, type: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options'), text: await res.text(), seen };
  } finally {
    server.close();
  }
}

describe('endpoints/filters/authorization (upstream WithAuthorization; spec 001 § Authorization, § Errors)', () => {
  it('an Allow passes, even with an evaluation error', async () => {
    const res = await respond({ decision: 'Allow', reason: '', evaluationError: 'partial' }, 'GET', '/api/v1/pods');
    expect([res.status, res.text]).to.deep.equal([200, 'served']);
  });

  it('NoOpinion: 403 Status with the message in the client\'s group spelling, the attributes in the canonical one', async () => {
    const res = await respond({ decision: 'NoOpinion', reason: '' }, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin');
    expect(res.status).to.equal(403);
    expect(JSON.parse(res.text)).to.deep.include({
      message: 'clusterroles.rbac.authorization.k8s.io "admin" is forbidden: User "u" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
      details: { name: 'admin', group: 'rbac.authorization.k8s.io', kind: 'clusterroles' },
    });
    expect(res.seen[0]).to.deep.include({ apiGroup: 'rbac.authorization.orch.io', verb: 'get', resource: 'clusterroles', name: 'admin' });
  });

  it('a Deny appends its reason', async () => {
    const res = await respond({ decision: 'Deny', reason: 'blocked' }, 'DELETE', '/api/v1/namespaces/ns/pods');
    expect([res.status, res.nosniff]).to.deep.equal([403, 'nosniff']);
    expect(JSON.parse(res.text).message).to.equal('pods is forbidden: User "u" cannot deletecollection resource "pods" in API group "" in the namespace "ns": blocked');
  });

  it('not allowed with an evaluation error: upstream\'s plain-text 500 naming the request URI', async () => {
    const res = await respond({ decision: 'NoOpinion', reason: 'r', evaluationError: 'webhook <down>' }, 'GET', '/api/v1/pods?limit=1');
    expect([res.status, res.type, res.nosniff]).to.deep.equal([500, 'text/plain; charset=utf-8', 'nosniff']);
    expect(res.text).to.equal('Internal Server Error: "/api/v1/pods?limit=1": webhook &lt;down&gt;\n');
  });
});
