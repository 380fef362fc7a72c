import { expect } from 'chai';
import type { QuotaRequest } from '../../../../lib/admission/plugins/resource-quota/check.js';
import { EvaluatorRegistry } from '../../../../lib/admission/plugins/resource-quota/evaluators.js';
import { type QuotaAccess, QuotaReserver } from '../../../../lib/admission/plugins/resource-quota/reserver.js';
import { StatusError, newConflict } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { internalContext } from '../../../../lib/request/context.js';

const pods = new EvaluatorRegistry().get('', 'pods');
const ctx = internalContext({ name: 'test', groups: [] });
const podRequest = (name: string): QuotaRequest => ({
  operation: 'CREATE',
  group: '',
  resource: 'pods',
  object: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'x' }] } },
  oldObject: null,
});

/** Quotas in memory with etcd-like compare-and-swap; the lister shows `cached` (possibly stale). */
class FakeQuotas implements QuotaAccess {
  stored = new Map<string, Obj>();
  cached = new Map<string, Obj>();
  rev = 1;
  writes = 0;
  conflicts = 0;
  /** Called before each write; may change `stored` (another writer). */
  beforeWrite: (() => void) | undefined;
  hang = false;

  put(name: string, hard: Obj, used: Obj): void {
    const q = { metadata: { name, namespace: 'ns', resourceVersion: String(++this.rev) }, spec: { hard }, status: { hard, used } };
    this.stored.set(name, q);
    this.cached.set(name, q);
  }
  used(name: string): Obj {
    return (this.stored.get(name)!.status as Obj).used as Obj;
  }
  lister = {
    get: (_ns: string, name: string) => this.cached.get(name),
    list: (ns?: string) => (ns === 'ns' ? [...this.cached.values()] : []),
    generation: () => this.rev,
  };
  async get(_ns: string, name: string): Promise<Obj | null> {
    return structuredClone(this.stored.get(name) ?? null);
  }
  async updateStatus(_ctx: unknown, o: Obj): Promise<Obj> {
    if (this.hang) return new Promise(() => undefined);
    this.beforeWrite?.();
    const meta = o.metadata as Obj;
    const cur = this.stored.get(meta.name as string)!;
    if ((cur.metadata as Obj).resourceVersion !== meta.resourceVersion) {
      this.conflicts++;
      throw newConflict({ group: '', resource: 'resourcequotas' }, meta.name as string);
    }
    this.writes++;
    const next = { ...structuredClone(o), metadata: { ...meta, resourceVersion: String(++this.rev) } };
    this.stored.set(meta.name as string, next);
    return structuredClone(next);
  }
}

async function outcomes(promises: Promise<void>[]): Promise<Array<StatusError | null>> {
  return Promise.all(promises.map((p) => p.then(() => null, (err: StatusError) => err)));
}

describe('ResourceQuota reservation (transactional, batched per namespace)', () => {
  it('admits exactly what fits from concurrent requests, in few writes', async () => {
    const store = new FakeQuotas();
    store.put('q', { pods: '5' }, { pods: '0' });
    const r = new QuotaReserver(store, ctx);
    const results = await outcomes(Array.from({ length: 20 }, (_, i) => r.reserve('ns', podRequest(`p${i}`), pods, false)));
    expect(results.filter((x) => x === null)).to.have.length(5);
    const rejected = results.filter((x): x is StatusError => x !== null);
    expect(rejected).to.have.length(15);
    expect(rejected[0]!.status.message).to.equal(`pods "p${results.indexOf(rejected[0]!)}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=5, limited: pods=5`);
    expect(store.used('q')).to.deep.equal({ pods: '5' });
    expect(store.writes).to.be.lessThan(5);
  });

  it('re-reads a quota another writer changed and re-checks, never exceeding it', async () => {
    const store = new FakeQuotas();
    store.put('q', { pods: '5' }, { pods: '0' });
    let other = 3;
    store.beforeWrite = () => {
      if (other-- <= 0) return;
      const cur = store.stored.get('q')!;
      const used = Number(((cur.status as Obj).used as Obj).pods) + 1;
      store.stored.set('q', { ...cur, metadata: { ...(cur.metadata as Obj), resourceVersion: String(++store.rev) }, status: { hard: { pods: '5' }, used: { pods: String(used) } } });
    };
    const r = new QuotaReserver(store, ctx);
    const results = await outcomes(Array.from({ length: 5 }, (_, i) => r.reserve('ns', podRequest(`p${i}`), pods, false)));
    expect(results.filter((x) => x === null)).to.have.length(2);
    expect(store.used('q')).to.deep.equal({ pods: '5' });
    expect(store.conflicts).to.equal(3);
  });

  it('uses the quota it wrote last even when the informer has not caught up', async () => {
    const store = new FakeQuotas();
    store.put('q', { pods: '2' }, { pods: '0' });
    const r = new QuotaReserver(store, ctx);
    await r.reserve('ns', podRequest('a'), pods, false);
    await r.reserve('ns', podRequest('b'), pods, false);
    const third = await outcomes([r.reserve('ns', podRequest('c'), pods, false)]);
    expect(third[0]?.status.message).to.match(/used: pods=2, limited: pods=2$/);
    expect(store.conflicts).to.equal(0);
  });

  it('returns the conflict once the retries are used up', async () => {
    const store = new FakeQuotas();
    store.put('q', { pods: '5' }, { pods: '0' });
    store.beforeWrite = () => {
      const cur = store.stored.get('q')!;
      store.stored.set('q', { ...cur, metadata: { ...(cur.metadata as Obj), resourceVersion: String(++store.rev) } });
    };
    const r = new QuotaReserver(store, ctx, { retries: 2 });
    const [err] = await outcomes([r.reserve('ns', podRequest('p'), pods, false)]);
    expect(err?.status.code).to.equal(409);
    expect(err?.status.message).to.equal('Operation cannot be fulfilled on resourcequotas "q": the object has been modified; please apply your changes to the latest version and try again');
    expect(store.conflicts).to.equal(3);
  });

  it('checks dry-run requests without charging them', async () => {
    const store = new FakeQuotas();
    store.put('q', { pods: '1' }, { pods: '0' });
    const r = new QuotaReserver(store, ctx);
    const results = await outcomes([r.reserve('ns', podRequest('dry'), pods, true), r.reserve('ns', podRequest('real'), pods, false)]);
    expect(results).to.deep.equal([null, null]);
    expect(store.used('q')).to.deep.equal({ pods: '1' });
    const [late] = await outcomes([r.reserve('ns', podRequest('dry2'), pods, true)]);
    expect(late?.status.code).to.equal(403);
    expect(store.used('q')).to.deep.equal({ pods: '1' });
  });

  it('answers 500 when the evaluation does not finish in time, and costs nothing without quotas', async () => {
    const store = new FakeQuotas();
    store.put('q', { pods: '1' }, { pods: '0' });
    store.hang = true;
    const r = new QuotaReserver(store, ctx, { timeoutMs: 50 });
    const [err] = await outcomes([r.reserve('ns', podRequest('p'), pods, false)]);
    expect(err?.status).to.deep.include({ code: 500, reason: 'InternalError', message: 'Internal error occurred: resource quota evaluation timed out' });
    expect(r.needsCheck('ns')).to.equal(true);
    expect(r.needsCheck('other')).to.equal(false);
  });
});
