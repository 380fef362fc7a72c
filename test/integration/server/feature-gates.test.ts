/**
 * `--feature-gates` on the real command (issue #15 item 5; spec 001 § Deprecation rules, rule 7):
 * a locked gate set to its non-default value stops the start with upstream's message; a GA gate
 * set starts the server with upstream's warning in the log.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { useEtcd } from '../../framework/etcd.js';
import { startServerProcess } from '../../framework/server-process.js';

describe('--feature-gates on the command (issue #15 item 5)', function () {
  this.timeout(90_000);

  it('refuses a locked gate set to its non-default value at start', async () => {
    const { endpoint } = await useEtcd();
    let err: unknown;
    await startServerProcess([`--etcd-servers=${endpoint}`, `--etcd-prefix=/${randomUUID()}`, '--feature-gates=ServerSideApply=false']).catch((e: unknown) => (err = e));
    expect(String(err)).to.include(
      'Error: invalid argument "ServerSideApply=false" for "--feature-gates" flag: cannot set feature gate ServerSideApply to false, feature is locked to true',
    );
  });

  it('logs the warning of a GA gate set, and serves', async () => {
    const { endpoint } = await useEtcd();
    const server = await startServerProcess([`--etcd-servers=${endpoint}`, `--etcd-prefix=/${randomUUID()}`, '--feature-gates=APIListChunking=true,WatchList=true']);
    try {
      expect(server.log()).to.include('Setting GA feature gate APIListChunking=true. It will be removed in a future release.');
      expect(server.log()).not.to.include('WatchList=true');
      expect((await server.admin.get('/readyz')).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });
});
