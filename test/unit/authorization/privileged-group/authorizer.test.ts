import { expect } from 'chai';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';
import { PrivilegedGroupAuthorizer } from '../../../../lib/authorization/privileged-group/authorizer.js';

const attrs = (groups: string[], over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: { name: 'u', groups },
  verb: 'delete',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/secrets/s',
  apiGroup: '',
  apiVersion: 'v1',
  namespace: 'ns',
  resource: 'secrets',
  subresource: '',
  name: 's',
  ...over,
});

describe('authorization/privileged-group (issue #2 item 3: system:masters may do everything)', () => {
  it('allows any resource request of a system:masters member', async () => {
    expect((await new PrivilegedGroupAuthorizer().authorize(attrs(['dev', 'system:masters']))).decision).to.equal('Allow');
  });

  it('allows any non-resource request of a system:masters member', async () => {
    const a = attrs(['system:masters'], { isResourceRequest: false, verb: 'post', path: '/logs/x', resource: '' });
    expect((await new PrivilegedGroupAuthorizer().authorize(a)).decision).to.equal('Allow');
  });

  it('has no opinion about anyone else', async () => {
    expect(await new PrivilegedGroupAuthorizer().authorize(attrs(['dev', 'system:authenticated']))).to.deep.equal({ decision: 'NoOpinion', reason: '' });
  });

  it('matches the group name exactly', async () => {
    expect((await new PrivilegedGroupAuthorizer().authorize(attrs(['system:masters2', 'System:Masters']))).decision).to.equal('NoOpinion');
  });

  it('a user named like the group is not a member', async () => {
    const a = attrs([]);
    a.user.name = 'system:masters';
    expect((await new PrivilegedGroupAuthorizer().authorize(a)).decision).to.equal('NoOpinion');
  });

  it('honours another privileged group', async () => {
    expect((await new PrivilegedGroupAuthorizer('admins').authorize(attrs(['admins']))).decision).to.equal('Allow');
    expect((await new PrivilegedGroupAuthorizer('admins').authorize(attrs(['system:masters']))).decision).to.equal('NoOpinion');
  });
});
