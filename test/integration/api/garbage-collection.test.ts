import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { useTestServer } from '../../framework/test-server.js';

const NS = 'gc';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const SECRETS = `/api/v1/namespaces/${NS}/secrets`;

interface Meta {
  name: string;
  uid: string;
  ownerReferences?: { uid: string; name: string; kind: string; apiVersion: string; blockOwnerDeletion?: boolean }[];
  finalizers?: string[];
  deletionTimestamp?: string;
}

describe('garbage collection (issue #12 item 3; spec 000 § Object deletion lifecycle)', () => {
  const server = useTestServer({ controllers: ['garbagecollector'] });
  const admin = () => server().admin;

  before(async () => {
    await admin().post('/api/v1/namespaces', { metadata: { name: NS } });
  });

  /** Polls `check` until it holds (5 s), then asserts it once more. */
  async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 100 && !(await check()); i++) await sleep(50);
    expect(await check(), what).to.equal(true);
  }
  const gone = (path: string) => async () => (await admin().get(path)).status === 404;
  const metaOf = async (path: string): Promise<Meta> => (await admin().get(path)).body.metadata as Meta;

  async function owner(name: string): Promise<Meta> {
    return (await admin().post(CMS, { metadata: { name } })).body.metadata as Meta;
  }
  async function dependent(name: string, owners: Meta[], opts: { block?: boolean; path?: string } = {}): Promise<Meta> {
    const ownerReferences = owners.map((o) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.name, uid: o.uid, ...(opts.block ? { blockOwnerDeletion: true } : {}) }));
    const res = await admin().post(opts.path ?? SECRETS, { metadata: { name, ownerReferences } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.metadata as Meta;
  }

  it('deletes dependents after their owner is deleted in the background (the default)', async () => {
    const o = await owner('bg-owner');
    await dependent('bg-dep-1', [o]);
    await dependent('bg-dep-2', [o], { path: CMS });
    expect((await admin().delete(`${CMS}/bg-owner`)).status).to.equal(200);
    expect((await admin().get(`${CMS}/bg-owner`)).status, 'the owner goes at once').to.equal(404);
    await eventually('dependents deleted', async () => (await gone(`${SECRETS}/bg-dep-1`)()) && (await gone(`${CMS}/bg-dep-2`)()));
  });

  it('keeps a dependent that still has a live owner, removing only the reference to the deleted one', async () => {
    const a = await owner('two-a');
    const b = await owner('two-b');
    await dependent('two-dep', [a, b]);
    await admin().delete(`${CMS}/two-a`);
    await eventually('reference removed', async () => (await metaOf(`${SECRETS}/two-dep`)).ownerReferences?.length === 1);
    expect((await metaOf(`${SECRETS}/two-dep`)).ownerReferences!.map((r) => r.name)).to.deep.equal(['two-b']);
  });

  it('deletes a dependent whose owner never existed (a dangling reference), but not one whose owner exists', async () => {
    const live = await owner('live-owner');
    await dependent('dangling', [{ name: 'nobody', uid: '00000000-0000-0000-0000-000000000000' }]);
    await dependent('kept', [live]);
    await eventually('dangling dependent deleted', gone(`${SECRETS}/dangling`));
    expect((await admin().get(`${SECRETS}/kept`)).status).to.equal(200);
  });

  it('treats an owner with the same name but another uid as absent', async () => {
    const first = await owner('reborn');
    await admin().delete(`${CMS}/reborn`);
    await owner('reborn');
    await dependent('of-first', [first]);
    await eventually('dependent of the old incarnation deleted', gone(`${SECRETS}/of-first`));
  });

  it('orphans: the owner keeps the orphan finalizer until its dependents no longer reference it', async () => {
    const o = await owner('orphaner');
    await dependent('orphan-dep', [o]);
    const del = await admin().delete(`${CMS}/orphaner?propagationPolicy=Orphan`);
    expect(del.body.metadata.finalizers).to.deep.equal(['orphan']);
    await eventually('owner gone', gone(`${CMS}/orphaner`));
    const dep = await metaOf(`${SECRETS}/orphan-dep`);
    expect(dep.ownerReferences).to.equal(undefined);
  });

  it('foreground: the owner stays until its blocking dependents are gone, then goes', async () => {
    const o = await owner('fg-owner');
    await dependent('fg-block', [o], { block: true });
    await dependent('fg-plain', [o]);
    // A finalizer of its own keeps the blocking dependent, so the owner must wait.
    const pinned = (await admin().get(`${SECRETS}/fg-block`)).body;
    await admin().put(`${SECRETS}/fg-block`, { ...pinned, metadata: { ...pinned.metadata, finalizers: ['example.com/hold'] } });
    const del = await admin().delete(`${CMS}/fg-owner?propagationPolicy=Foreground`);
    expect(del.body.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    await eventually('non-blocking dependent deleted', gone(`${SECRETS}/fg-plain`));
    await eventually('blocking dependent terminating', async () => (await metaOf(`${SECRETS}/fg-block`)).deletionTimestamp !== undefined);
    await sleep(300);
    expect((await metaOf(`${CMS}/fg-owner`)).deletionTimestamp, 'owner waits').to.be.a('string');
    const held = (await admin().get(`${SECRETS}/fg-block`)).body;
    await admin().put(`${SECRETS}/fg-block`, { ...held, metadata: { ...held.metadata, finalizers: [] } });
    await eventually('owner gone once the blocking dependent is', gone(`${CMS}/fg-owner`));
  });

  it('deletes a chain: owner → dependent → its dependent', async () => {
    const o = await owner('chain-0');
    const d1 = await dependent('chain-1', [o], { path: CMS });
    await dependent('chain-2', [d1]);
    await admin().delete(`${CMS}/chain-0`);
    await eventually('whole chain deleted', async () => (await gone(`${CMS}/chain-1`)()) && (await gone(`${SECRETS}/chain-2`)()));
  });
});
