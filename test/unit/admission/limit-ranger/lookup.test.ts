import { expect } from 'chai';
import { LIVE_TTL_MS, LimitRangeLookup } from '../../../../lib/admission/plugins/limit-ranger/lookup.js';
import type { Obj } from '../../../../lib/apis/define.js';

describe('LimitRanger lookup (upstream v1.30 GetLimitRanges)', () => {
  const lr: Obj = { metadata: { name: 'lr', namespace: 'ns' } };

  it('uses the informer cache when it has LimitRanges for the namespace', async () => {
    let lists = 0;
    const lookup = new LimitRangeLookup({ get: () => undefined, list: (ns) => (ns === 'ns' ? [lr] : []), generation: () => 0 }, async () => {
      lists++;
      return [];
    });
    expect(await lookup.forNamespace('ns')).to.deep.equal([lr]);
    expect(lists).to.equal(0);
  });

  it('lists live when the cache has none, remembers the answer for 30 s, and shares concurrent lookups', async () => {
    let now = 1_000;
    let lists = 0;
    let answer: Obj[] = [lr];
    const lookup = new LimitRangeLookup(
      { get: () => undefined, list: () => [], generation: () => 0 },
      async () => {
        lists++;
        await new Promise((r) => setTimeout(r, 5));
        return answer;
      },
      () => now,
    );
    const [a, b] = await Promise.all([lookup.forNamespace('ns'), lookup.forNamespace('ns')]);
    expect(a).to.deep.equal([lr]);
    expect(b).to.deep.equal([lr]);
    expect(lists).to.equal(1);
    answer = [];
    now += LIVE_TTL_MS;
    expect(await lookup.forNamespace('ns')).to.deep.equal([lr]);
    expect(lists).to.equal(1);
    now += 1;
    expect(await lookup.forNamespace('ns')).to.deep.equal([]);
    expect(lists).to.equal(2);
  });

  it('does not remember a failed live list', async () => {
    let fail = true;
    const lookup = new LimitRangeLookup({ get: () => undefined, list: () => [], generation: () => 0 }, async () => {
      if (fail) throw new Error('down');
      return [lr];
    });
    let message = '';
    await lookup.forNamespace('ns').catch((err: Error) => (message = err.message));
    expect(message).to.equal('down');
    fail = false;
    expect(await lookup.forNamespace('ns')).to.deep.equal([lr]);
  });
});
