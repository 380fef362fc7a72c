import { expect } from 'chai';
import { EVENTS_GROUP } from '../../../../lib/apis/events/v1/event.js';
import { canonicalGroup, upstreamAlias } from '../../../../lib/apis/vendor.js';
import { FlagError, formatHelp, parseServerFlags } from '../../../../lib/server/options/flags.js';
import { parseWatchCacheSizes, watchCachePolicy } from '../../../../lib/server/options/watch-cache-flags.js';

describe('server/options/watch-cache-flags (issue #16 item 6)', () => {
  it('defaults: --watch-cache on, no sizes', () => {
    expect(parseServerFlags([]).watchCache).to.deep.equal({ enabled: true, sizes: [] });
  });

  it('collects --watch-cache-sizes comma lists and repeats; --watch-cache=false', () => {
    const o = parseServerFlags(['--watch-cache-sizes=configmaps#0,deployments.apps#500', '--watch-cache-sizes', 'secrets#10', '--watch-cache=false']);
    expect(o.watchCache).to.deep.equal({ enabled: false, sizes: ['configmaps#0', 'deployments.apps#500', 'secrets#10'] });
  });

  const bad: Array<[string, string]> = [
    ['replicasets.extensions', 'invalid value of watch cache size: replicasets.extensions'],
    ['pods#1#2', 'invalid value of watch cache size: pods#1#2'],
    ['replicasets.extensions#655d1', 'invalid size of watch cache size: replicasets.extensions#655d1'],
    ['pods#', 'invalid size of watch cache size: pods#'],
    ['replicasets.extensions#-65536', 'watch cache size cannot be negative: replicasets.extensions#-65536'],
  ];
  for (const [entry, message] of bad) {
    it(`refuses ${entry} with upstream's message`, () => {
      expect(() => parseWatchCacheSizes([entry])).to.throw(Error, message);
      expect(() => parseServerFlags([`--watch-cache-sizes=deployments.apps#65536,${entry}`])).to.throw(FlagError, message);
    });
  }

  it('parses resource[.group]#size, splitting the group at the first dot, a later entry winning', () => {
    const sizes = parseWatchCacheSizes(['deployments.apps#65536', 'events#+3', `events.${EVENTS_GROUP}#7`, 'deployments.apps#1']);
    expect([...sizes]).to.deep.equal([
      ['apps/deployments', 1],
      ['/events', 3],
      [`${EVENTS_GROUP}/events`, 7],
    ]);
  });

  it('an upstream group spelling names the vendor group', () => {
    const alias = upstreamAlias(EVENTS_GROUP)!;
    expect(canonicalGroup(alias)).to.equal(EVENTS_GROUP);
    expect([...parseWatchCacheSizes([`events.${alias}#0`])]).to.deep.equal([[`${EVENTS_GROUP}/events`, 0]]);
  });

  describe('policy', () => {
    it('by default caches everything but core events and the events group events', () => {
      const p = watchCachePolicy({ enabled: true, sizes: [] });
      expect(p.choose('', 'events')).to.deep.equal({ cached: false });
      expect(p.choose(EVENTS_GROUP, 'events')).to.deep.equal({ cached: false });
      expect(p.choose('', 'configmaps')).to.deep.equal({ cached: true });
      expect(p.choose('apps', 'deployments')).to.deep.equal({ cached: true });
    });

    it('size 0 uncaches, another size bounds the window and overrides the events default', () => {
      const p = watchCachePolicy({ enabled: true, sizes: ['configmaps#0', 'events#250'] });
      expect(p.choose('', 'configmaps')).to.deep.equal({ cached: false });
      expect(p.choose('', 'events')).to.deep.equal({ cached: true, maxEvents: 250 });
      expect(p.choose(EVENTS_GROUP, 'events')).to.deep.equal({ cached: false });
    });

    it('--watch-cache=false uncaches every resource whatever the sizes', () => {
      const p = watchCachePolicy({ enabled: false, sizes: ['configmaps#100'] });
      expect(p.choose('', 'configmaps')).to.deep.equal({ cached: false });
      expect(p.choose('apps', 'deployments')).to.deep.equal({ cached: false });
    });
  });

  it('lists both flags in the Etcd section of --help', () => {
    const help = formatHelp();
    const etcd = help.slice(help.indexOf('Etcd flags:'), help.indexOf('flags:', help.indexOf('Etcd flags:') + 11));
    expect(etcd).to.match(/--watch-cache {2,}Enable watch caching in the apiserver \(default true\)/);
    expect(etcd).to.match(/--watch-cache-sizes strings {2,}Watch cache size settings for some resources \(pods, nodes, etc\.\), comma separated\./);
  });
});
