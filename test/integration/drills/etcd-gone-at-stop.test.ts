/**
 * The stop drill with etcd gone: a real server process over a single-member etcd started by the
 * test gets SIGTERM right after the member is SIGKILLed, and again (a second server) a few seconds
 * after. Each must exit 0 within {@link STOP_BOUND_MS}, its etcd clean-up (endpoint removal,
 * leader election release) skipped rather than retried: before lib/controlplane/etcd-cleanup.ts,
 * each stop took 20–25 s (the etcd client's 10 s retries, step after step). Prints the figures.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';

/** The stop must end within this (ms): the probe of etcd takes 1 s; slack for a shared CI box. */
const STOP_BOUND_MS = 8_000;
/** How long etcd has been gone at the SIGTERM of the second case (ms). */
const GONE_BEFORE_MS = 3_000;

describe('drill: SIGTERM while etcd is gone', function () {
  this.timeout(60_000);
  let cluster: EtcdCluster | undefined;
  let server: ServerProcess | undefined;

  after(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  /** Starts a server on the (running) member, kills the member, waits `goneMs`, stops the server; asserts a prompt exit 0. */
  async function stopWithEtcdGone(goneMs: number): Promise<void> {
    server = await startServerProcess([`--etcd-servers=${cluster!.endpoints[0]}`]);
    await cluster!.kill(0);
    await sleep(goneMs);
    const started = Date.now();
    const code = await server.stop();
    const ms = Date.now() - started;
    console.log(`      figures: etcd killed ${goneMs} ms before the SIGTERM; the server exited ${ms} ms after it`);
    expect(ms, 'stop duration (ms)').to.be.below(STOP_BOUND_MS);
    expect(code, server.log()).to.equal(0);
    expect(server.log()).to.include('etcd is unreachable: skipping the etcd clean-up of the stop');
    server = undefined;
  }

  it('exits promptly when etcd dies at the SIGTERM and when it has been gone for a while', async () => {
    cluster = await startEtcdCluster({ members: 1 });
    await stopWithEtcdGone(0);
    await cluster.restart(0);
    await stopWithEtcdGone(GONE_BEFORE_MS);
  });
});
