/** The SelfSubjectReview Creater (issue #10 item 8): the requesting user's attributes, as upstream's REST answers them. */
import { expect } from 'chai';
import { isReason } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { selfSubjectReviewCreater } from '../../../../lib/registry/authentication/selfsubjectreview/rest.js';
import { internalContext } from '../../../../lib/request/context.js';
import type { UserInfo } from '../../../../lib/request/user.js';

async function review(user: UserInfo | undefined): Promise<Obj> {
  const ctx = internalContext({ name: 'x', groups: [] });
  ctx.user = user;
  const validated: Obj[] = [];
  const out = await selfSubjectReviewCreater.create(ctx, { namespace: '', name: '' }, { metadata: { name: 'ignored' }, status: { userInfo: { username: 'forged' } } }, {
    dryRun: false,
    validate: async (o) => void validated.push(o),
  });
  expect(validated).to.have.length(1);
  return out;
}

describe('SelfSubjectReview Creater (issue #10 item 8)', () => {
  it('answers a fresh review with the creation time and every attribute of the user, extra values copied', async () => {
    const user: UserInfo = { name: 'alice', uid: 'uid-1', groups: ['g1', 'system:authenticated'], extra: { 'example.com/scopes': ['a', 'b'] } };
    const out = await review(user);
    expect(out.metadata).to.have.all.keys('creationTimestamp');
    expect((out.metadata as Obj).creationTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(out.status).to.deep.equal({ userInfo: { username: 'alice', uid: 'uid-1', groups: ['g1', 'system:authenticated'], extra: { 'example.com/scopes': ['a', 'b'] } } });
    expect(((out.status as Obj).userInfo as Obj).extra).to.not.equal(user.extra);
  });

  it('leaves out an empty uid, groups and extra (Go omitempty)', async () => {
    expect((await review({ name: 'system:anonymous', groups: [], extra: {} })).status).to.deep.equal({ userInfo: { username: 'system:anonymous' } });
  });

  it('answers 400 `no user present on request` without a user', async () => {
    const err = await review(undefined).catch((e: unknown) => e);
    expect(isReason(err, 'BadRequest')).to.equal(true);
    expect((err as { status: { message: string } }).status.message).to.equal('no user present on request');
  });
});
