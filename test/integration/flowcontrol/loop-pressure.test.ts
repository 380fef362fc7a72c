/**
 * Event-loop pressure against a real server (`--max-event-loop-delay=50ms`): the test server
 * shares this process's event loop, so the test saturates it by busy stretches, as a server's
 * own work would. The least important levels are then shed (429 at once) while node-high work is
 * served, and served again once the loop is quiet (issue #24 item 4).
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { COORDINATION_GROUP } from '../../../lib/apis/coordination/v1/lease.js';
import { FLOWCONTROL_GROUP } from '../../../lib/apis/flowcontrol/v1/index.js';
import { APF_PRIORITY_LEVEL_UID_HEADER } from '../../../lib/apis/vendor.js';
import { NODES_GROUP } from '../../../lib/request/node-identity.js';
import { metric } from '../../framework/flowcontrol.js';
import { eventually } from '../../framework/storage-contract.js';
import { useTestServer } from '../../framework/test-server.js';

const PRESSURE = 'apiserver_flowcontrol_event_loop_pressure';

describe('API Priority and Fairness under event-loop pressure', function () {
  this.timeout(60_000);
  const server = useTestServer({ flowControl: { maxEventLoopDelayMs: 50 }, authorization: { modes: ['AlwaysAllow'] } });
  const admin = () => server().admin;

  it('sheds global-default (429 at once) while a node-high request is served', async () => {
    const dave = { headers: { 'Impersonate-User': 'dave' } };
    const node = { headers: { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': NODES_GROUP } };
    // The server shares this process's loop: a stall of the test runner before this test (a busy
    // machine) may have raised the pressure; it falls back to 0 once the loop is quiet.
    await eventually(async () => (await metric(admin(), PRESSURE, {})) === 0, 30_000, 'the pressure at 0 before the test');
    expect((await admin().get('/api/v1/namespaces/default/configmaps', dave)).status).to.equal(200);
    // Busy stretches of 200 ms with 5 ms gaps: the loop's mean delay is far above 50 ms.
    const deadline = Date.now() + 20_000;
    while ((await metric(admin(), PRESSURE, {})) < 2.5) {
      expect(Date.now(), 'the pressure never reached 2.5').to.be.below(deadline);
      const end = Date.now() + 200;
      while (Date.now() < end);
      await sleep(5);
    }
    expect(await metric(admin(), 'apiserver_flowcontrol_current_limit_seats', { priority_level: 'global-default' })).to.equal(0);

    const shed = await admin().get('/api/v1/namespaces/default/configmaps', dave);
    expect(shed.status).to.equal(429);
    expect(shed.body).to.include({ reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
    expect(shed.headers['retry-after']).to.match(/^\d+$/);
    expect(await metric(admin(), 'apiserver_flowcontrol_rejected_requests_total', { priority_level: 'global-default', reason: 'concurrency-limit' })).to.equal(1);

    const lease = await admin().get(`/apis/${COORDINATION_GROUP}/v1/namespaces/default/leases/n1`, node);
    expect(lease.status).to.equal(404);
    const nodeHigh = (await admin().get(`/apis/${FLOWCONTROL_GROUP}/v1/prioritylevelconfigurations/node-high`)).body.metadata.uid;
    expect(lease.headers[APF_PRIORITY_LEVEL_UID_HEADER.toLowerCase()]).to.equal(nodeHigh);
    expect(await metric(admin(), PRESSURE, {}), 'the pressure held through the checks').to.be.at.least(2);
  });

  it('serves the shed level again once the loop is quiet', async () => {
    const dave = { headers: { 'Impersonate-User': 'dave' } };
    const deadline = Date.now() + 30_000;
    while ((await metric(admin(), PRESSURE, {})) > 1) {
      expect(Date.now(), 'the pressure never fell to 1').to.be.below(deadline);
      await sleep(250);
    }
    expect((await admin().get('/api/v1/namespaces/default/configmaps', dave)).status).to.equal(200);
  });
});
