import { expect } from 'chai';
import http2, { type ClientHttp2Session } from 'node:http2';
import { ETCD_FLOW_CONTROL_WINDOW, newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { useEtcd } from '../../framework/etcd.js';

/**
 * The HTTP/2 connection to etcd advertises a large flow-control window, for the connection and
 * for each stream (issue #24: with HTTP/2's default of 64 KiB, etcd could send only as fast as
 * a busy event loop acknowledged data, and the watch caches fell seconds behind etcd). The
 * sessions are the real ones the gRPC client opens, seen by wrapping `http2.connect`.
 */
describe('storage/etcd3: flow control of the connection to etcd', function () {
  this.timeout(30_000);
  const connect = http2.connect;
  const sessions: ClientHttp2Session[] = [];

  before(() => {
    (http2 as { connect: typeof http2.connect }).connect = ((...args: Parameters<typeof http2.connect>) => {
      const session = connect(...args);
      sessions.push(session);
      return session;
    }) as typeof http2.connect;
  });
  after(() => {
    (http2 as { connect: typeof http2.connect }).connect = connect;
  });

  it('advertises a window of 16 MiB for the connection and for every stream, beyond the 64 KiB default', async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    try {
      await client.get('/flow-control-probe').string();
      expect(sessions.length).to.be.greaterThan(0);
      const session = sessions.at(-1)!;
      expect(ETCD_FLOW_CONTROL_WINDOW).to.equal(16 * 1024 * 1024);
      expect(session.localSettings.initialWindowSize).to.equal(ETCD_FLOW_CONTROL_WINDOW);
      // The connection window, less what the answers read so far took of it.
      expect(session.state.localWindowSize).to.be.greaterThan(ETCD_FLOW_CONTROL_WINDOW - 65_536);
    } finally {
      client.close();
    }
  });
});
