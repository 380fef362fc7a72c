/**
 * Server-side apply benchmark (issue #5 item 8): apply of a Deployment with 10 containers by two
 * field managers (each owning half the containers), against a plain PUT of the same object, in one
 * run; throughput, p99 and the ratio. Run: `npx tsx hack/bench/apply.ts` (part of `make bench`).
 */
import os from 'node:os';
import { runBench } from './bench-client.js';
import { measure, printTable } from './stats.js';

const CONTAINERS = 10;
const ROUNDS = Number(process.env.BENCH_APPLY_ROUNDS ?? 400);

function container(i: number, image: string): Record<string, unknown> {
  return {
    name: `c${i}`,
    image,
    ports: [{ containerPort: 8000 + i, name: `p${i}` }],
    env: [
      { name: 'A', value: String(i) },
      { name: 'B', value: 'x' },
    ],
    resources: { requests: { cpu: '10m', memory: '16Mi' } },
  };
}

function deployment(name: string, indexes: number[], image: string): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: indexes.map((i) => container(i, image)) } },
    },
  };
}

runBench('apply', 8, async ({ client }) => {
  const call = (method: string, p: string, body: unknown, contentType = 'application/json') =>
    client.call(method, p, { body, headers: { 'Content-Type': contentType } }).then(() => undefined);
  const base = '/apis/apps/v1/namespaces/default/deployments';
  const first = Array.from({ length: CONTAINERS / 2 }, (_, i) => i);
  const second = Array.from({ length: CONTAINERS / 2 }, (_, i) => i + CONTAINERS / 2);
  await call('PATCH', `${base}/applied?fieldManager=team-a`, deployment('applied', first, 'img:0'), 'application/apply-patch+yaml');
  await call('PATCH', `${base}/applied?fieldManager=team-b`, deployment('applied', second, 'img:0'), 'application/apply-patch+yaml');
  await call('POST', base, deployment('put', [...first, ...second], 'img:0'));
  const applyRun = await measure('apply (2 managers, 10 containers)', ROUNDS, 1, (i) => {
    const [manager, idx] = i % 2 === 0 ? ['team-a', first] : ['team-b', second];
    return call('PATCH', `${base}/applied?fieldManager=${manager}`, deployment('applied', idx, `img:${i}`), 'application/apply-patch+yaml');
  });
  const putRun = await measure('PUT (10 containers)', ROUNDS, 1, (i) => call('PUT', `${base}/put`, deployment('put', [...first, ...second], `img:${i}`)));
  console.log(`\nApply vs PUT, Deployment with ${CONTAINERS} containers, 1 client (${os.cpus().length} cores, node ${process.version})\n`);
  printTable(
    ['write', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
    [applyRun, putRun].map((r) => [r.name, r.count, r.rate, r.p50, r.p99, r.errors]),
  );
  console.log(`\napply/PUT throughput ratio: ${(applyRun.rate / putRun.rate).toFixed(2)}; p99 ratio: ${(applyRun.p99 / putRun.p99).toFixed(2)}`);
});
