/**
 * The Node authorizer's graph at scale (issue #24: 150,000 Pods on 5,000 nodes in one process):
 * heap bytes per bound Pod (each with its service account and one config map, shared in its
 * namespace), and microseconds per decision ("may node N read this config map / this pod") for
 * a granted and a refused node. Pure in-process; figures are printed, never asserted.
 * Run: `npx tsx hack/bench/node-graph.ts`.
 */
import { NodeGraph } from '../../lib/authorization/node/graph.js';
import { usedHeapBytes } from './proc.js';
import { printTable } from './stats.js';

const SIZES: Array<[pods: number, nodes: number]> = [
  [15_000, 500],
  [60_000, 2_000],
  [150_000, 5_000],
];
const NAMESPACES = 100;
const DECISIONS = 200_000;

const rows: (string | number)[][] = [];
for (const [pods, nodes] of SIZES) {
  const before = usedHeapBytes();
  const g = new NodeGraph();
  for (let i = 0; i < pods; i++) {
    g.addPod({ namespace: `ns-${i % NAMESPACES}`, name: `pod-${i}`, nodeName: `node-${i % nodes}`, mirror: false, serviceAccountName: 'default', secrets: [], configMaps: ['root-ca.crt'], claims: [], resourceClaims: [] });
  }
  const perPod = (usedHeapBytes() - before) / pods;
  const time = (ask: (i: number) => boolean, want: boolean): number => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < DECISIONS; i++) if (ask(i) !== want) throw new Error('wrong decision');
    return Number(process.hrtime.bigint() - start) / 1e3 / DECISIONS;
  };
  const ownNode = (i: number) => `node-${i % nodes}`;
  rows.push([
    `${pods} pods / ${nodes} nodes`,
    Math.round(perPod),
    time((i) => g.hasPathFrom(ownNode(i), 'configmap', `ns-${i % NAMESPACES}`, 'root-ca.crt'), true).toFixed(2),
    time((i) => g.hasPathFrom(ownNode(i + 1), 'pod', `ns-${i % NAMESPACES}`, `pod-${i % pods}`), false).toFixed(2),
    time((i) => g.hasPathFrom(ownNode(i), 'pod', `ns-${i % NAMESPACES}`, `pod-${i % pods}`), true).toFixed(2),
  ]);
}
printTable(['graph', 'heap B / pod', 'shared config map µs (granted)', 'pod µs (refused)', 'pod µs (granted)'], rows);
