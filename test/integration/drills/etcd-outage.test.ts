/**
 * The etcd outage drill (issue #19 items 3 and 5): a real server process with
 * `--request-timeout=3s` against a single-member etcd started by the test; the member is frozen
 * (SIGSTOP) for a few seconds. While frozen, a quorum GET and a create must each be answered
 * `504 Timeout` with upstream's Status within the request timeout plus slack, and `/readyz` must
 * fail. After the thaw (SIGCONT), a create must succeed at once, `/readyz` recover, and a watch
 * resumed from the resourceVersion before the outage must deliver every object that exists,
 * including any create whose 504 hid that it reached etcd. Prints the figures.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';
import { REQUEST_TIMEOUT_STATUS } from '../../framework/status-error.js';

const REQUEST_TIMEOUT_S = 3;
/** Answers must come within the request timeout plus this much (event loop, TLS, scheduling on a shared CI box). */
const SLACK_MS = 4_000;
const CM = '/api/v1/namespaces/default/configmaps';

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });

describe('drill: the only etcd member frozen (issue #19 items 3 and 5)', function () {
  this.timeout(90_000);
  let cluster: EtcdCluster | undefined;
  let server: ServerProcess | undefined;

  after(async () => {
    cluster?.thaw(0);
    await server?.stop();
    await cluster?.stop();
  });

  it('answers 504 within the request timeout, fails /readyz, and recovers with nothing missed', async () => {
    cluster = await startEtcdCluster({ members: 1 });
    server = await startServerProcess([`--etcd-servers=${cluster.endpoints[0]}`, `--request-timeout=${REQUEST_TIMEOUT_S}s`]);
    const admin = server.admin;
    const before = await admin.post(CM, configMap('before'));
    expect(before.status).to.equal(201);
    const rv0 = before.body.metadata.resourceVersion as string;

    cluster.freeze(0);
    const frozenAt = Date.now();
    const readyz = (async () => {
      for (;;) {
        const r = await admin.get('/readyz');
        if (r.status !== 200) return { ms: Date.now() - frozenAt, status: r.status, text: r.text };
        await sleep(100);
      }
    })();
    const timed = async (send: () => Promise<{ status: number; body: unknown }>) => {
      const t = Date.now();
      const res = await send();
      return { ms: Date.now() - t, status: res.status, body: res.body as Record<string, unknown> };
    };
    const [get, create, notReady] = await Promise.all([
      timed(() => admin.get(`${CM}/before`)),
      timed(() => admin.post(CM, configMap('during'))),
      readyz,
    ]);
    for (const answer of [get, create]) {
      expect(answer.status).to.equal(504);
      expect(answer.body).to.deep.equal(REQUEST_TIMEOUT_STATUS);
      expect(answer.ms).to.be.at.least(REQUEST_TIMEOUT_S * 1000 - 50).and.below(REQUEST_TIMEOUT_S * 1000 + SLACK_MS);
    }
    expect(notReady.status).to.equal(500);
    expect(notReady.text).to.include('[-]etcd failed');
    expect(notReady.ms).to.be.below(REQUEST_TIMEOUT_S * 1000 + SLACK_MS);

    const frozenFor = Date.now() - frozenAt;
    cluster.thaw(0);
    const thawedAt = Date.now();
    const after = await admin.post(CM, configMap('after'));
    const firstWriteMs = Date.now() - thawedAt;
    expect(after.status).to.equal(201);
    for (;;) {
      if ((await admin.get('/readyz')).status === 200) break;
      expect(Date.now() - thawedAt).to.be.below(15_000);
      await sleep(100);
    }
    const readyAgainMs = Date.now() - thawedAt;

    const list = await admin.get(CM);
    expect(list.status).to.equal(200);
    const names = (list.body.items as Array<{ metadata: { name: string; resourceVersion: string } }>)
      .filter((i) => BigInt(i.metadata.resourceVersion) > BigInt(rv0))
      .map((i) => i.metadata.name)
      .sort();
    expect(names).to.include('after');
    const watch = await admin.watch(`${CM}?watch=true&resourceVersion=${rv0}`);
    try {
      const seen: string[] = [];
      while (seen.length < names.length) {
        const ev = await watch.next(10_000);
        expect(ev, 'watch ended early').to.not.equal(null);
        expect(ev.type).to.equal('ADDED');
        seen.push(ev.object.metadata.name);
      }
      expect(seen.sort()).to.deep.equal(names);
    } finally {
      watch.close();
    }
    console.log(
      `      figures: request timeout ${REQUEST_TIMEOUT_S}s; frozen ${frozenFor} ms; quorum GET 504 after ${get.ms} ms; create 504 after ${create.ms} ms; ` +
        `/readyz failed after ${notReady.ms} ms; first write after thaw ${firstWriteMs} ms; /readyz ok again after ${readyAgainMs} ms; ` +
        `created during the freeze and applied after the thaw: ${names.includes('during')}`,
    );
  });
});
