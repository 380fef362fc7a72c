import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CustomResourceDefinition } from '../../../../lib/apiextensions/types.js';
import { deepCopy } from '../../../../lib/apimachinery/deep-equal.js';
import { validatingAdmissionPolicy } from '../../../../lib/apis/admissionregistration/v1/policy.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { CRD_CLEANUP_FINALIZER } from '../../../../lib/apis/vendor.js';
import type { Informer, InformerHandler } from '../../../../lib/client/informer.js';
import { runCRDEstablishingController } from '../../../../lib/controllers/apiextensions/establishing-controller.js';
import { type CustomObjects, runCRDFinalizer } from '../../../../lib/controllers/apiextensions/finalizer-controller.js';
import { runCRDNamingController } from '../../../../lib/controllers/apiextensions/naming-controller.js';
import type { Store, TransformFunc } from '../../../../lib/registry/generic/store.js';
import { internalContext } from '../../../../lib/request/context.js';
import { crd, names } from './fixtures.js';

/**
 * An in-memory stand-in for the CRD stores and informer: compare-and-swap writes that bump the
 * resourceVersion, events delivered to the informer's handlers a tick later (as a watch would).
 */
class FakeCRDs {
  readonly objs = new Map<string, CustomResourceDefinition>();
  private readonly cache = new Map<string, CustomResourceDefinition>();
  private readonly handlers: InformerHandler[] = [];
  private rv = 10;
  readonly informer = {
    addHandler: (h: InformerHandler) => this.handlers.push(h),
    get: (name: string) => this.cache.get(name),
    list: () => [...this.cache.values()],
    waitForSync: async () => undefined,
  } as unknown as Informer;

  private emit(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: CustomResourceDefinition): void {
    setImmediate(() => {
      const name = obj.metadata.name!;
      if (type === 'DELETED') this.cache.delete(name);
      else this.cache.set(name, obj);
      for (const h of this.handlers) h(type, obj as unknown as Obj);
    });
  }

  put(c: CustomResourceDefinition): CustomResourceDefinition {
    const stored = { ...deepCopy(c), metadata: { ...deepCopy(c.metadata), resourceVersion: String(++this.rv) } };
    const existed = this.objs.has(c.metadata.name!);
    this.objs.set(c.metadata.name!, stored);
    this.emit(existed ? 'MODIFIED' : 'ADDED', stored);
    return stored;
  }

  remove(name: string): void {
    const old = this.objs.get(name)!;
    this.objs.delete(name);
    this.emit('DELETED', old);
  }

  /** A store; `status` keeps everything but the status from the stored object. */
  store(status: boolean): Store {
    return {
      gr: { group: 'apiextensions.orch.io', resource: 'customresourcedefinitions' },
      strategy: { kind: validatingAdmissionPolicy },
      update: async (_ctx: unknown, _ns: string, name: string, transform: TransformFunc) => {
        const cur = this.objs.get(name);
        let next = (await transform(cur ? (deepCopy(cur) as unknown as Obj) : null)) as unknown as CustomResourceDefinition;
        if (status) next = { ...deepCopy(cur!), status: next.status };
        if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) this.remove(name);
        else next = this.put(next);
        return { obj: next, created: false };
      },
    } as unknown as Store;
  }
}

/** What a timed-out wait prints. */
let debug: () => unknown = () => undefined;
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await sleep(5);
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(debug())}`);
}

const cond = (c: CustomResourceDefinition | undefined, type: string) => c?.status?.conditions?.find((x) => x.type === type);

describe('CRD controller loops over a fake store', () => {
  let stop: AbortController;
  const errors: unknown[] = [];
  beforeEach(() => {
    stop = new AbortController();
    errors.length = 0;
  });
  afterEach(() => stop.abort());

  it('naming + establishing: of two CRDs claiming one short name, one wins; the other gets it when the first is gone', async () => {
    const fake = new FakeCRDs();
    const deps = { informer: fake.informer, statusStore: fake.store(true), ctx: internalContext({ name: 'system:apiserver', groups: [] }), onError: (e: unknown) => errors.push(e) };
    void runCRDNamingController(deps, stop.signal);
    void runCRDEstablishingController(deps, stop.signal);
    fake.put(crd('g.io', names('foo', { shortNames: ['x'] })));
    fake.put(crd('g.io', names('bar', { shortNames: ['x'] })));
    const foo = () => fake.objs.get('foos.g.io');
    debug = () => ({ objs: [...fake.objs.values()].map((o) => o.status), errors: errors.map(String) });
    const bar = () => fake.objs.get('bars.g.io');
    await until(() => cond(foo(), 'Established')?.status === 'True' && cond(bar(), 'NamesAccepted')?.status === 'False', 'the first CRD to be established');
    expect(cond(bar(), 'NamesAccepted')).to.include({ reason: 'ShortNamesConflict', message: '"x" is already in use' });
    expect(cond(bar(), 'Established')).to.include({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    expect(bar()!.status!.acceptedNames).to.deep.equal(names('bar'));
    expect(foo()!.status!.acceptedNames).to.deep.equal(names('foo', { shortNames: ['x'] }));
    expect(cond(foo(), 'Established')).to.include({ reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    fake.remove('foos.g.io');
    await until(() => cond(bar(), 'Established')?.status === 'True', 'the second CRD to be established');
    expect(bar()!.status!.acceptedNames).to.deep.equal(names('bar', { shortNames: ['x'] }));
    expect(cond(bar(), 'NamesAccepted')).to.include({ status: 'True', reason: 'NoConflicts' });
    expect(errors).to.deep.equal([]);
  });

  it('finalizer: reports progress, retries a failed delete with the failure in Terminating, removes the finalizer once empty', async () => {
    const fake = new FakeCRDs();
    const seen: string[] = [];
    const left = new Set(['a', 'b']);
    let failures = 1;
    const deleted: string[] = [];
    const instances: CustomObjects = {
      listNamespaces: async () => ['a', 'b', 'a'],
      deleteCollection: async (_crd, ns) => {
        if (failures-- > 0) throw new Error(`cannot delete in ${ns}`);
        deleted.push(ns);
        left.delete(ns);
      },
      count: async () => left.size,
    };
    const statusStore = fake.store(true);
    const watchingStatus = {
      ...statusStore,
      update: async (...args: Parameters<Store['update']>) => {
        const r = await statusStore.update(...args);
        const t = cond(r.obj as unknown as CustomResourceDefinition, 'Terminating');
        seen.push(`${t?.reason}: ${t?.message}`);
        return r;
      },
    } as unknown as Store;
    const established = { type: 'Established', status: 'True' as const, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
    const c = crd('g.io', names('foo'), names('foo'), [established]);
    c.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    c.metadata.finalizers = ['other', CRD_CLEANUP_FINALIZER];
    fake.put(c);
    const deps = { informer: fake.informer, statusStore: watchingStatus, store: fake.store(false), instances, ctx: internalContext({ name: 'system:apiserver', groups: [] }), onError: (e: unknown) => errors.push(e), pollIntervalMs: 5 };
    void runCRDFinalizer(deps, stop.signal);
    await until(() => (fake.objs.get('foos.g.io')?.metadata.finalizers ?? []).length === 1, 'the finalizer to be removed');
    expect(fake.objs.get('foos.g.io')!.metadata.finalizers).to.deep.equal(['other']);
    expect(seen).to.deep.equal([
      'InstanceDeletionInProgress: CustomResource deletion is in progress',
      'InstanceDeletionFailed: could not issue all deletes: cannot delete in a',
      'InstanceDeletionInProgress: CustomResource deletion is in progress',
      'InstanceDeletionCompleted: removed all instances',
    ]);
    expect(deleted).to.deep.equal(['b', 'a', 'b']);
    expect((errors as Error[]).map((e) => e.message)).to.deep.equal(['cannot delete in a']);
  });
});
