/**
 * Event-loop pressure against a real server (`--max-event-loop-delay=50ms`): the test server
 * shares this process's event loop, so the test saturates it by busy stretches, as a server's
 * own work would. The least important levels are then held to one seat while node-high work
 * runs at once (issue #24 item 4).
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { COORDINATION_GROUP } from '../../../lib/apis/coordination/v1/lease.js';
import { FLOWCONTROL_GROUP } from '../../../lib/apis/flowcontrol/v1/index.js';
import { APF_PRIORITY_LEVEL_UID_HEADER } from '../../../lib/apis/vendor.js';
import { NODES_GROUP } from '../../../lib/request/node-identity.js';
import { heldCreate, metric } from '../../framework/flowcontrol.js';
import { useTestServer } from '../../framework/test-server.js';

const PRESSURE = 'apiserver_flowcontrol_event_loop_pressure';

describe('API Priority and Fairness under event-loop pressure', function () {
  this.timeout(60_000);
  const server = useTestServer({ flowControl: { maxEventLoopDelayMs: 50 }, authorization: { modes: ['AlwaysAllow'] } });
  const admin = () => server().admin;

  it('holds global-default to one seat while a node-high request is served at once', async () => {
    const dave = { headers: { 'Impersonate-User': 'dave' } };
    const node = { headers: { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': NODES_GROUP } };
    expect(await metric(admin(), PRESSURE, {})).to.equal(0);
    // Busy stretches of 200 ms with 5 ms gaps: the loop's mean delay is far above 50 ms.
    const deadline = Date.now() + 20_000;
    while ((await metric(admin(), PRESSURE, {})) < 2.5) {
      expect(Date.now(), 'the pressure never reached 2.5').to.be.below(deadline);
      const end = Date.now() + 200;
      while (Date.now() < end);
      await sleep(5);
    }
    expect(await metric(admin(), 'apiserver_flowcontrol_current_limit_seats', { priority_level: 'global-default' })).to.equal(1);

    const held = await heldCreate(server().url, 'dave', 'dave-held');
    let queued: Promise<number> | undefined;
    try {
      while ((await metric(admin(), 'apiserver_flowcontrol_current_executing_requests', { priority_level: 'global-default' })) !== 1) await sleep(10);
      let answered = false;
      queued = admin()
        .get('/api/v1/namespaces/default/configmaps', dave)
        .then((r) => ((answered = true), r.status));
      while ((await metric(admin(), 'apiserver_flowcontrol_current_inqueue_requests', { priority_level: 'global-default' })) !== 1) await sleep(10);

      const lease = await admin().get(`/apis/${COORDINATION_GROUP}/v1/namespaces/default/leases/n1`, node);
      expect(lease.status).to.equal(404);
      const nodeHigh = (await admin().get(`/apis/${FLOWCONTROL_GROUP}/v1/prioritylevelconfigurations/node-high`)).body.metadata.uid;
      expect(lease.headers[APF_PRIORITY_LEVEL_UID_HEADER.toLowerCase()]).to.equal(nodeHigh);
      expect(answered, 'the global-default request waited behind the held one').to.equal(false);
      expect(await metric(admin(), PRESSURE, {})).to.be.at.least(2);
    } finally {
      expect(await held.release()).to.equal(201);
    }
    expect(await queued).to.equal(200);
  });
});
