import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ConnectEnv, NS, expectStatus, pod, portForward, roundTrip, startConnectEnv, stopKubectlChildren } from './fixtures.js';

const PODS = `/api/v1/namespaces/${NS}/pods`;

/**
 * Connect subresources are long-running requests, as upstream's `--request-timeout` filter and
 * flow control count them (exec, attach, portforward, log, proxy; issue #20): a followed log
 * and a port-forward session outlive the request timeout.
 */
describe('connect subresources outlive --request-timeout (long-running, as upstream)', function () {
  this.timeout(30_000);
  let env: ConnectEnv;

  before(async () => {
    env = await startConnectEnv([], { timeouts: { requestTimeoutMs: 1_000, minRequestTimeoutSeconds: 1800 } });
    const admin = env.server.admin;
    expectStatus(await admin.post(PODS, pod('p1', ['c1'], 'n1')), 201);
    const created = (await admin.get(`${PODS}/p1`)).body;
    // kubectl port-forward asks for a Running pod.
    expectStatus(await admin.put(`${PODS}/p1/status`, { ...created, status: { ...created.status, phase: 'Running' } }), 200);
  });
  after(async () => {
    stopKubectlChildren();
    await env?.stop();
  });

  it('a followed log keeps streaming past the 1 s request timeout', async () => {
    const stream = await env.server.admin.rawStream(`${PODS}/p1/log?follow=true`);
    expect(stream.status).to.equal(200);
    const it = (stream.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    expect((await it.next()).value.toString()).to.equal('p1/c1 line 1\n');
    await sleep(1_500);
    env.kubelet.releaseFollow();
    let rest = '';
    for (let r = await it.next(); !r.done; r = await it.next()) rest += r.value.toString();
    expect(rest).to.equal('p1/c1 line 2\np1/c1 line 3\n');
  });

  it('a kubectl port-forward session still carries a round trip after the 1 s request timeout', async () => {
    const pf = await portForward(env.kubeconfigs.admin!, ['-n', NS, 'port-forward', 'pod/p1', ':8080']);
    try {
      await sleep(1_500);
      expect(await roundTrip(pf.port, 'ping')).to.equal('ping');
    } finally {
      pf.stop();
    }
  });
});
