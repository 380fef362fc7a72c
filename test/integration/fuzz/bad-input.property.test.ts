/**
 * Bad input at scale (issue #19 item 6; spec 001 § Errors): ≥ 10 000 generated requests
 * (test/framework/fuzz/requests.ts: methods × paths × query parameters × content types × bodies)
 * against a real server over a few keep-alive HTTPS connections with the admin certificate. No
 * answer is a server error, every JSON error is a Status whose code is the HTTP status, the
 * status is the one the input decides where it does (404, 400, 413, 415), and afterwards the
 * server is ready and creates and reads objects as before.
 *
 * The seed is fixed (`FUZZ_SEED` overrides it, `FUZZ_RUNS` the number of batches of 8,
 * `FUZZ_PATH` replays one run of a failure report). On
 * failure fast-check prints the seed, the path of the failing run and the batch; this suite
 * stops at the first failure instead of shrinking against the live server unless `FUZZ_SHRINK=1`.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { deployment } from '../../../lib/apis/apps/v1/deployment.js';
import { configMap } from '../../../lib/apis/core/v1/config-map.js';
import { namespace } from '../../../lib/apis/core/v1/namespace.js';
import { pod } from '../../../lib/apis/core/v1/pod.js';
import { secret } from '../../../lib/apis/core/v1/secret.js';
import { serviceAccount } from '../../../lib/apis/core/v1/service-account.js';
import { service } from '../../../lib/apis/core/v1/service.js';
import { clusterRole } from '../../../lib/apis/rbac/v1/kinds.js';
import { WireSender } from '../../framework/fuzz/http.js';
import { type FuzzRequest, type FuzzTarget, requestArbitrary } from '../../framework/fuzz/requests.js';
import { answerProblems } from '../../framework/fuzz/status-check.js';
import { useTestServer } from '../../framework/test-server.js';

const SEED = Number(process.env.FUZZ_SEED ?? 190_006);
const BATCH = 8;
const RUNS = Number(process.env.FUZZ_RUNS ?? 1250);

const TARGETS: FuzzTarget[] = [
  { prefix: '/api/v1', resource: 'configmaps', kind: configMap, subresources: [] },
  { prefix: '/api/v1', resource: 'secrets', kind: secret, subresources: [] },
  { prefix: '/api/v1', resource: 'services', kind: service, subresources: ['status'] },
  { prefix: '/api/v1', resource: 'pods', kind: pod, subresources: ['status', 'binding', 'eviction', 'ephemeralcontainers'] },
  { prefix: '/api/v1', resource: 'serviceaccounts', kind: serviceAccount, subresources: ['token'] },
  { prefix: '/api/v1', resource: 'namespaces', kind: namespace, subresources: ['status', 'finalize'] },
  { prefix: '/apis/apps/v1', resource: 'deployments', kind: deployment, subresources: ['status', 'scale'] },
  { prefix: '/apis/rbac.authorization.k8s.io/v1', resource: 'clusterroles', kind: clusterRole, subresources: [] },
];

describe('bad input at scale: generated requests never get a server error (issue #19 item 6)', function () {
  this.timeout(300_000);
  const server = useTestServer();

  it(`answers ${BATCH * RUNS} generated requests (seed ${SEED}) with Status errors of the right code, and keeps serving`, async () => {
    const s = server();
    for (const ns of ['fuzz']) expect((await s.admin.post('/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    const sender = new WireSender({ url: s.url, ca: s.admin.ca, cert: s.admin.creds.cert!, key: s.admin.creds.key!, connections: 4, streamMs: 200 });
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = Date.now();
    const slowest: { ms: number; what: string }[] = [];
    const arb = requestArbitrary({ targets: TARGETS, namespaces: ['fuzz', 'default'], names: ['fz-a', 'fz-b', 'default'] });
    console.log(`bad-input fuzz: seed ${SEED}, ${RUNS} runs of ${BATCH} requests`);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(arb, { minLength: BATCH, maxLength: BATCH }), async (batch: FuzzRequest[]) => {
          const answers = await Promise.all(batch.map((r) => sender.send(r)));
          sent += batch.length;
          const failures: string[] = [];
          answers.forEach((res, i) => {
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (slowest.length < 3 || res.ms > slowest[slowest.length - 1]!.ms) {
              slowest.push({ ms: res.ms, what: `${batch[i]![fc.toStringMethod]().slice(0, 300)} → ${res.status}` });
              slowest.sort((a, b) => b.ms - a.ms).splice(3);
            }
            const problems = answerProblems(batch[i]!, res);
            if (problems.length > 0) failures.push(`request ${i}: ${problems.join('; ')}\n  request: ${batch[i]![fc.toStringMethod]()}\n  answer: ${res.bytes.subarray(0, 400).toString('utf8')}`);
          });
          if (failures.length > 0) throw new Error(failures.join('\n'));
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: process.env.FUZZ_SHRINK !== '1', ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}) },
      );
    } finally {
      sender.close();
      console.log(`bad-input fuzz: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
      for (const x of slowest) console.log(`  slowest: ${x.ms} ms ${x.what}`);
    }
    expect(sent).to.be.at.least(10_000);

    expect((await s.admin.get('/readyz')).status).to.equal(200);
    expect((await s.admin.post('/api/v1/namespaces', { metadata: { name: 'after-fuzz' } })).status).to.equal(201);
    const created = await s.admin.post('/api/v1/namespaces/after-fuzz/configmaps', { metadata: { name: 'alive' }, data: { k: 'v' } });
    expect(created.status).to.equal(201);
    const got = await s.admin.get('/api/v1/namespaces/after-fuzz/configmaps/alive');
    expect(got.status).to.equal(200);
    expect(got.body.data).to.deep.equal({ k: 'v' });
  });
});
