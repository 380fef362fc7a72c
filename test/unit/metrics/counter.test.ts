/**
 * The registry's counter (lib/metrics/counter.ts; issue #17 item 1): the same exposition as
 * prom-client's Counter for the same calls (label sets, numbers as label values, labels in another
 * key order or missing, bound children, increments of 0, reset, a collect function run before each
 * read with the counter as `this`) and the same errors (an undeclared label name, a negative or
 * infinite increment).
 */
import { expect } from 'chai';
import { Counter as PromCounter, Registry } from 'prom-client';
import { Counter } from '../../../lib/metrics/counter.js';
import { renderExposition } from '../../../lib/metrics/exposition.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';

const NINE = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'] as const;

/** The same counter twice, ours and prom-client's, each in a registry of its own. */
function pair<L extends string>(labelNames: readonly L[], collect?: (this: { inc(labels: Partial<Record<L, string>>, n: number): void }) => void) {
  const ours = new Registry();
  const theirs = new Registry();
  const c = new Counter<L>({ name: 'c_total', help: 'help "with" \\ escapes', labelNames, ...(collect && { collect }) });
  ours.registerMetric(c as never);
  const p = new PromCounter<L>({ name: 'c_total', help: 'help "with" \\ escapes', labelNames: [...labelNames], registers: [theirs], ...(collect && { collect }) });
  return { c, p, ours, theirs };
}

/** Both registries render alike, with prom-client's renderer and with ours (each read of one runs its collect function once). */
async function expectSameExposition(ours: Registry, theirs: Registry): Promise<void> {
  expect(await ours.metrics()).to.equal(await theirs.metrics());
  expect(await renderExposition(ours)).to.equal(await theirs.metrics());
}

/** The message prom-client throws for `run`. */
function promClientError(run: () => void): string {
  try {
    run();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('prom-client did not throw');
}

describe('metrics/counter (issue #17 item 1)', () => {
  it('nine labels, numbers as label values, another key order, missing labels, children: the exposition of prom-client', async () => {
    const { c, p, ours, theirs } = pair(NINE);
    const base = { verb: 'GET', dry_run: '', group: 'apps', version: 'v1', resource: 'deployments', subresource: '', scope: 'namespace', component: 'apiserver', code: '200' };
    const calls: Array<[Record<string, string | number>, number | undefined]> = [
      [base, undefined],
      [{ ...base, code: 200 }, 2], // the same series as '200'
      [Object.fromEntries(Object.entries({ ...base, code: '404' }).reverse()), 1], // a new series: its labels in this call's key order
      [{ ...base, code: '404' }, 0.5], // that series again
      [{ verb: 'WATCH', resource: 'pods' }, 0], // labels missing: left out; 0 creates the series
      [{ verb: 'WATCH', resource: 'pods', group: undefined as unknown as string }, 3], // undefined: missing too
      [{ ...base, code: 'a "quoted"\nvalue\\' }, undefined],
    ];
    for (const [labels, n] of calls) {
      c.inc(labels, n);
      p.inc(labels, n);
    }
    const child = c.labels({ ...base, verb: 'LIST' });
    const theirChild = p.labels({ ...base, verb: 'LIST' });
    expect([...c.series()]).to.have.length(4);
    child.inc();
    child.inc(5);
    theirChild.inc();
    theirChild.inc(5);
    await expectSameExposition(ours, theirs);
    expect([...c.series()]).to.have.length(5);
  });

  it('without labels: 0 from the start and again after a reset; inc(n)', async () => {
    const { c, p, ours, theirs } = pair([]);
    await expectSameExposition(ours, theirs);
    c.inc();
    p.inc();
    c.inc(2.5);
    p.inc(2.5);
    await expectSameExposition(ours, theirs);
    c.reset();
    p.reset();
    await expectSameExposition(ours, theirs);
  });

  it('reset forgets every label set; a child bound before counts from 0 in a new series', async () => {
    const { c, p, ours, theirs } = pair(['resource']);
    const child = c.labels({ resource: 'pods' });
    const theirChild = p.labels({ resource: 'pods' });
    child.inc(4);
    theirChild.inc(4);
    c.inc({ resource: 'nodes' });
    p.inc({ resource: 'nodes' });
    c.reset();
    p.reset();
    await expectSameExposition(ours, theirs);
    child.inc();
    theirChild.inc();
    await expectSameExposition(ours, theirs);
  });

  it('runs the collect function before each read, the counter as this', async () => {
    let pending = 0;
    const { c, p, ours, theirs } = pair(['kind'], function () {
      this.inc({ kind: 'Pod' }, pending);
    });
    pending = 3;
    await expectSameExposition(ours, theirs);
    c.inc({ kind: 'Node' });
    p.inc({ kind: 'Node' });
    pending = 1;
    await expectSameExposition(ours, theirs);
    expect((await c.get()).values.map((v) => v.value)).to.deep.equal([3 + 3 + 1 + 1 + 1, 1]);
  });

  it('through the registry: the counter per declaration, hidden or not, with its collect function', async () => {
    const r = new StabilityRegistry();
    const c = r.counter({ name: 'x_total', help: 'x', labelNames: ['a'], stabilityLevel: 'STABLE' }, function () {
      this.inc({ a: '1' });
    });
    const hidden = r.counter({ name: 'old_total', help: 'old', labelNames: [], stabilityLevel: 'ALPHA', deprecatedVersion: '1.0.0' });
    hidden.inc();
    c.inc({ a: 2 });
    expect(await r.registry.metrics()).to.equal('# HELP x_total [STABLE] x\n# TYPE x_total counter\nx_total{a="2"} 1\nx_total{a="1"} 1\n');
  });

  it('throws where prom-client throws: an undeclared label name (on a new or a known label set), a negative or infinite increment', () => {
    const { c, p } = pair(['group', 'kind']);
    const labels = { group: '', kind: 'Pod' };
    c.inc(labels);
    p.inc(labels);
    for (const bad of [{ ...labels, knd: 'Pod' }, { group: '', kidn: 'Pod' }]) {
      const message = promClientError(() => p.inc(bad as never));
      expect(() => c.inc(bad as never)).to.throw(message);
      expect(() => c.labels(bad as never)).to.throw(message);
    }
    for (const n of [-1, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const message = promClientError(() => p.inc(labels, n));
      expect(() => c.inc(labels, n)).to.throw(message);
      expect(() => c.labels(labels).inc(n)).to.throw(message);
    }
    expect([...c.series()].map((s) => s.value)).to.deep.equal([1]);
  });

  it('rejects declaration bugs: invalid metric and label names', () => {
    expect(() => new Counter({ name: 'c-1', help: 'help', labelNames: [] })).to.throw(/Invalid metric name/);
    expect(() => new Counter({ name: 'c', help: 'help', labelNames: ['a.b'] })).to.throw(/Invalid label name/);
  });
});
