/**
 * The writes of the scale benchmark one by one (issue #24, issue #17 item 1): Pod creates, Pod
 * status merge patches (a kubelet's status update), Lease renewals (PUT), Node status patches
 * and graceful Pod deletes, each at 16 concurrent clients against one server process, with the
 * server's CPU milliseconds per request. The objects are the scale benchmark's
 * (hack/bench/scale/objects.ts). Figures are printed, never asserted.
 * Run: `npx tsx hack/bench/pod-writes.ts [--pods 2000]`.
 */
import { parseArgs } from 'node:util';
import { lease, node, nodeName, nodeStatusPatch, PATHS, pod, podName, podNamespace, podStatusPatch } from './scale/objects.js';
import { runBench } from './bench-client.js';
import { cpuSeconds } from './proc.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const { values: flags } = parseArgs({ options: { pods: { type: 'string', default: '2000' } } });
const PODS = Number(flags.pods);
const PODS_PER_NODE = 30;
const NODES = Math.ceil(PODS / PODS_PER_NODE);
const NAMESPACES = 10;
const CONCURRENCY = 16;
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

runBench('pod-writes', CONCURRENCY, async ({ server, client }) => {
  const rows: (string | number)[][] = [];
  const phase = async (name: string, count: number, op: (i: number) => Promise<unknown>): Promise<void> => {
    const cpu0 = cpuSeconds(server.pid);
    const r: PhaseResult = await measure(name, count, CONCURRENCY, op);
    const cpuMs = (cpuSeconds(server.pid) - cpu0) * 1000;
    rows.push([name, r.count, r.rate, r.p50, r.p99, r.errors, cpuMs / r.count]);
  };
  const nodeOf = (k: number) => Math.floor(k / PODS_PER_NODE);
  const jOf = (k: number) => k % PODS_PER_NODE;
  for (let n = 0; n < NAMESPACES; n++) await client.call('POST', '/api/v1/namespaces', { body: { metadata: { name: podNamespace(n, NAMESPACES) } } });
  await measure('setup', NODES, CONCURRENCY, async (i) => {
    await client.call('POST', '/api/v1/nodes', { body: node(i) });
    await client.call('POST', PATHS.leases, { body: lease(i) });
  });
  const podsPath = (k: number) => PATHS.pods(podNamespace(nodeOf(k), NAMESPACES));
  const podPath = (k: number) => `${podsPath(k)}/${podName(nodeOf(k), jOf(k))}`;
  await phase('POST pod', PODS, (k) => client.call('POST', podsPath(k), { body: pod(nodeOf(k), jOf(k), NAMESPACES) }));
  await phase('PATCH pod status', PODS * 2, (k) => client.call('PATCH', `${podPath(k % PODS)}/status`, { body: podStatusPatch(nodeOf(k % PODS), jOf(k % PODS), k), headers: MERGE_PATCH }));
  await phase('PUT lease', NODES * 20, (k) => client.call('PUT', `${PATHS.leases}/${nodeName(k % NODES)}`, { body: lease(k % NODES, new Date(Date.now() + k)) }));
  await phase('PATCH node status', NODES * 20, (k) => client.call('PATCH', `/api/v1/nodes/${nodeName(k % NODES)}/status`, { body: nodeStatusPatch(new Date(Date.now() + k * 1000)), headers: MERGE_PATCH }));
  await phase('DELETE pod (graceful)', PODS, (k) => client.call('DELETE', podPath(k), { body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 30 } }));
  await phase('DELETE pod (kubelet)', PODS, (k) => client.call('DELETE', podPath(k), { body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 } }));
  console.log(`\nThe scale benchmark's writes, ${CONCURRENCY} clients, one server process (${PODS} Pods on ${NODES} Nodes)\n`);
  printTable(['request', 'count', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU ms/req'], rows);
});
