/**
 * The `informer-sync` check (upstream's InformerSyncHealthz): over real etcd storage, it fails
 * while a started shared informer has not loaded its first list, naming it as upstream names
 * informers, and passes once every started one has.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SharedInformers } from '../../../lib/controlplane/informers.js';
import { newResourceStorage } from '../../../lib/registry/generic/resource-storage.js';
import { configMapStrategy, leaseStrategy } from '../../../lib/registry/simple-strategies.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { useEtcd } from '../../framework/etcd.js';
import { outcome } from '../../framework/outcome.js';

describe('informer-sync health check', () => {
  let client: ReturnType<typeof newEtcdClient>;
  const stop = new AbortController();

  before(async () => {
    const { endpoint } = await useEtcd();
    client = newEtcdClient([endpoint]);
  });
  after(() => {
    stop.abort();
    client.close();
  });

  it('fails naming the started informers whose first list is not loaded, and passes once they are', async () => {
    const prefix = `/${randomUUID()}/registry`;
    const resources = [configMapStrategy, leaseStrategy].map((s) => newResourceStorage(() => new Etcd3Storage(client), prefix, s));
    const informers = new SharedInformers(resources, () => (err) => expect.fail(String(err)));
    informers.informer('', 'configmaps');
    informers.informer(leaseStrategy.kind.group, 'leases');
    expect(await outcome(informers.syncCheck.check()), 'not started: not counted').to.equal('ok');
    const synced = informers.run(stop.signal);
    expect(await outcome(informers.syncCheck.check())).to.equal('2 informers not started yet: [*v1.ConfigMap *v1.Lease]');
    await synced;
    expect(await outcome(informers.syncCheck.check())).to.equal('ok');
  });
});
