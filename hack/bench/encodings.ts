/**
 * Encodings benchmark (issue #6 item 10): a list of 10,000 Pods as JSON, protobuf, Table and
 * gzip-JSON — bytes on the wire and time per response (served from the watch cache); and JSON vs
 * protobuf create throughput. Run: `npx tsx hack/bench/encodings.ts` (part of `make bench`).
 */
import os from 'node:os';
import { pod as podKind } from '../../lib/apis/core/v1/workloads.js';
import { encodeProtobuf } from '../../lib/apimachinery/serializers/protobuf/index.js';
import { runBench } from './bench-client.js';
import { measure, printTable } from './stats.js';

const PODS = Number(process.env.BENCH_PODS ?? 10_000);
const PB = 'application/vnd.orch.protobuf';

function pod(name: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'bench', tier: 'backend' }, annotations: { note: 'x'.repeat(600) } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/team/app:1.2.3',
          args: ['--port=8080'],
          ports: [{ name: 'http', containerPort: 8080 }],
          env: [{ name: 'MODE', value: 'production' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
      nodeName: 'node-1',
    },
  };
}

runBench('encodings', 32, async ({ client }) => {
  const call = (method: string, p: string, headers: Record<string, string>, payload?: Buffer) => client.call(method, p, { headers, body: payload }).then((r) => r.bytes);
  const pods = '/api/v1/namespaces/default/pods';
  const pbKind = { apiVersion: 'v1', kind: 'Pod', schema: podKind.schema };
  const jsonCreate = await measure('create, JSON body', PODS / 2, 32, (i) => call('POST', pods, { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify(pod(`j-${i}`)))).then(() => undefined));
  const pbCreate = await measure('create, protobuf body and answer', PODS / 2, 32, (i) =>
    call('POST', pods, { 'Content-Type': PB, Accept: PB }, encodeProtobuf(pod(`p-${i}`), pbKind)).then(() => undefined),
  );
  const rows: (string | number)[][] = [];
  for (const [name, headers] of [
    ['JSON', { Accept: 'application/json' }],
    ['protobuf', { Accept: PB }],
    ['Table', { Accept: 'application/json;as=Table;g=meta.orch.io;v=v1' }],
    ['gzip JSON', { Accept: 'application/json', 'Accept-Encoding': 'gzip' }],
  ] as const) {
    let bytes = 0;
    const r = await measure(name, 8, 1, async () => {
      bytes = await call('GET', `${pods}?resourceVersion=0`, headers);
    });
    rows.push([name, (bytes / 1024 / 1024).toFixed(2), r.p50, r.p99]);
  }
  console.log(`\nList of ${PODS} Pods from the watch cache, by encoding (${os.cpus().length} cores, node ${process.version})\n`);
  printTable(['encoding', 'MiB on the wire', 'p50 ms', 'max ms'], rows);
  console.log('\nCreate throughput, 32 clients\n');
  printTable(['write', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors'], [jsonCreate, pbCreate].map((r) => [r.name, r.count, r.rate, r.p50, r.p99, r.errors]));
});
