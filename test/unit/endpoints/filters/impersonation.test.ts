import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import {
  formatImpersonationRequests,
  impersonatedUser,
  impersonationAttributes,
  impersonationRequests,
  pathUnescape,
} from '../../../../lib/endpoints/filters/impersonation.js';

/** The StatusError `fn` throws. */
function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(StatusError);
    return err as StatusError;
  }
  expect.fail('expected a StatusError');
}

describe('endpoints/filters/impersonation: the requests of the headers (spec 001 § Impersonation)', () => {
  it('no impersonation headers: nothing to impersonate', () => {
    expect(impersonationRequests({ accept: ['*/*'] })).to.deep.equal([]);
  });

  it('a user, groups in order, extras, a uid — in upstream order', () => {
    const r = impersonationRequests({
      'impersonate-uid': ['u-1'],
      'impersonate-extra-scopes': ['view', 'edit'],
      'impersonate-group': ['devs', 'ops'],
      'impersonate-user': ['jane'],
    });
    expect(r.map((x) => [x.kind, x.name, x.fieldPath])).to.deep.equal([
      ['User', 'jane', ''],
      ['Group', 'devs', ''],
      ['Group', 'ops', ''],
      ['UserExtra', 'view', 'scopes'],
      ['UserExtra', 'edit', 'scopes'],
      ['UID', 'u-1', ''],
    ]);
  });

  it('only the first Impersonate-User counts (Go Header.Get)', () => {
    expect(impersonationRequests({ 'impersonate-user': ['a', 'b'] }).map((x) => x.name)).to.deep.equal(['a']);
  });

  it('a service-account username is a ServiceAccount request with namespace and name', () => {
    expect(impersonationRequests({ 'impersonate-user': ['system:serviceaccount:kube:builder'] })[0]).to.deep.include({ kind: 'ServiceAccount', namespace: 'kube', name: 'builder' });
  });

  it('a malformed service-account username is an ordinary user', () => {
    for (const u of ['system:serviceaccount:Bad_NS:x', 'system:serviceaccount:ns', 'system:serviceaccount:ns:a:b', 'system:serviceaccount::x']) {
      expect(impersonationRequests({ 'impersonate-user': [u] })[0], u).to.deep.include({ kind: 'User', name: u });
    }
  });

  it('extra keys are percent-decoded (the header name is already lower case)', () => {
    const r = impersonationRequests({ 'impersonate-user': ['jane'], 'impersonate-extra-example.org%2fteam': ['a'] });
    expect(r[1]).to.deep.include({ kind: 'UserExtra', fieldPath: 'example.org/team', name: 'a', apiVersion: 'authentication.orch.io/v1' });
  });

  it('groups without a user: 400 BadRequest with upstream\'s message (Go %v of the requests)', () => {
    const err = statusOf(() => impersonationRequests({ 'impersonate-group': ['devs'] }));
    expect(err.status).to.deep.include({ code: 400, reason: 'BadRequest', message: 'requested [{Group  devs    }] without impersonating a user' });
  });

  it('extra without a user: 400', () => {
    const err = statusOf(() => impersonationRequests({ 'impersonate-extra-scopes': ['view'] }));
    expect(err.status.message).to.equal('requested [{UserExtra  view  authentication.orch.io/v1  scopes}] without impersonating a user');
  });

  it('a uid without a user: 400', () => {
    const err = statusOf(() => impersonationRequests({ 'impersonate-uid': ['u-1'], 'impersonate-group': ['g'] }));
    expect(err.status.message).to.equal('requested [{Group  g    } {UID  u-1  authentication.orch.io/v1  }] without impersonating a user');
  });

  it('an empty Impersonate-User does not count as a user', () => {
    expect(statusOf(() => impersonationRequests({ 'impersonate-user': [''], 'impersonate-group': ['g'] })).status.code).to.equal(400);
  });
});

describe('endpoints/filters/impersonation: pathUnescape (Go url.PathUnescape)', () => {
  const rows: Array<[string, string]> = [
    ['plain', 'plain'],
    ['a%2fb', 'a/b'],
    ['%E2%9C%93', '\u2713'],
    ['a+b', 'a+b'],
    ['bad%zz', 'bad%zz'],
    ['trailing%2', 'trailing%2'],
  ];
  for (const [input, want] of rows) it(`${input} → ${want}`, () => expect(pathUnescape(input)).to.equal(want));
});

describe('endpoints/filters/impersonation: what is authorized', () => {
  const requestor = { name: 'y', groups: ['system:authenticated'] };
  const attrsOf = (headers: Record<string, string[]>) => impersonationRequests(headers).map((r) => impersonationAttributes(requestor, r));

  it('users, groups: verb impersonate in the core group, the value as the name', () => {
    const [u, g] = attrsOf({ 'impersonate-user': ['x'], 'impersonate-group': ['devs'] });
    expect(u).to.deep.include({ verb: 'impersonate', isResourceRequest: true, apiGroup: '', resource: 'users', name: 'x', namespace: '' });
    expect(g).to.deep.include({ verb: 'impersonate', apiGroup: '', resource: 'groups', name: 'devs' });
  });

  it('a service account: serviceaccounts in its namespace, with its name', () => {
    const [sa] = attrsOf({ 'impersonate-user': ['system:serviceaccount:ns1:builder'] });
    expect(sa).to.deep.include({ resource: 'serviceaccounts', namespace: 'ns1', name: 'builder', apiGroup: '' });
  });

  it('userextras/<key> and uids in the authentication group', () => {
    const [, extra, uid] = attrsOf({ 'impersonate-user': ['x'], 'impersonate-extra-scopes': ['view'], 'impersonate-uid': ['u-1'] });
    expect(extra).to.deep.include({ apiGroup: 'authentication.orch.io', apiVersion: 'v1', resource: 'userextras', subresource: 'scopes', name: 'view' });
    expect(uid).to.deep.include({ apiGroup: 'authentication.orch.io', apiVersion: 'v1', resource: 'uids', name: 'u-1' });
  });
});

describe('endpoints/filters/impersonation: the impersonated user (upstream WithImpersonation)', () => {
  const user = (headers: Record<string, string[]>) => impersonatedUser(impersonationRequests(headers), (headers['impersonate-group']?.length ?? 0) > 0);

  it('a user alone: system:authenticated added', () => {
    expect(user({ 'impersonate-user': ['jane'] })).to.deep.equal({ name: 'jane', groups: ['system:authenticated'] });
  });

  it('groups as given, then system:authenticated; extra and uid as given', () => {
    expect(user({ 'impersonate-user': ['jane'], 'impersonate-group': ['devs'], 'impersonate-extra-scopes': ['a', 'b'], 'impersonate-uid': ['u'] })).to.deep.equal({
      name: 'jane',
      groups: ['devs', 'system:authenticated'],
      uid: 'u',
      extra: { scopes: ['a', 'b'] },
    });
  });

  it('a group list holding system:authenticated or system:unauthenticated gets nothing added', () => {
    expect(user({ 'impersonate-user': ['jane'], 'impersonate-group': ['system:authenticated'] }).groups).to.deep.equal(['system:authenticated']);
    expect(user({ 'impersonate-user': ['jane'], 'impersonate-group': ['system:unauthenticated'] }).groups).to.deep.equal(['system:unauthenticated']);
  });

  it('system:anonymous gets system:unauthenticated, not system:authenticated', () => {
    expect(user({ 'impersonate-user': ['system:anonymous'] })).to.deep.equal({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
    expect(user({ 'impersonate-user': ['system:anonymous'], 'impersonate-group': ['system:unauthenticated'] }).groups).to.deep.equal(['system:unauthenticated']);
  });

  it('a service account gets its two groups and system:authenticated', () => {
    expect(user({ 'impersonate-user': ['system:serviceaccount:ns1:builder'] })).to.deep.equal({
      name: 'system:serviceaccount:ns1:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
    });
  });

  it('a service account with Impersonate-Group: the given groups instead of its own', () => {
    expect(user({ 'impersonate-user': ['system:serviceaccount:ns1:builder'], 'impersonate-group': ['g'] }).groups).to.deep.equal(['g', 'system:authenticated']);
  });

  it('printing: a one-element list', () => {
    expect(formatImpersonationRequests([{ kind: 'User', namespace: '', name: 'x', apiVersion: '', fieldPath: '' }])).to.equal('[{User  x    }]');
  });
});
