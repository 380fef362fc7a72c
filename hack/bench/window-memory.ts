/**
 * The memory a watch cache's event window holds per event, and what packing costs (issue #24
 * item 2). One process, no server: a WatchCache of Pods (the scale benchmark's, as stored: with
 * their status and managed fields) takes status updates as a kubelet sends them, each event aged
 * past PACK_AFTER_MS so that the window packs the version it supersedes. After a full GC it prints
 * the V8 heap and the memory outside it (Buffers) per event held, the CPU per event applied
 * (packing included), and the CPU per event to replay the window to a watch from its start
 * (unpacking and parsing every old version once). Run: `npx tsx hack/bench/window-memory.ts`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type CacheEvent, PACK_AFTER_MS, WatchCache } from '../../lib/storage/cacher/watch-cache.js';
import type { StoredObject } from '../../lib/storage/interface.js';
import { nodeName, pod, podStatusPatch } from './scale/objects.js';
import { printTable } from './stats.js';

const NODES = 500;
const PODS_PER_NODE = 30;
const UPDATES = 60_000;
const PREFIX = '/registry/pods/';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The managed fields of a Pod written by the benchmark and updated by its kubelet. */
function managedFields(time: string) {
  return [
    {
      manager: 'scale-bench', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {}, 'f:scale-bench/run': {}, 'f:tier': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {} } }, 'f:nodeName': {} } },
    },
    {
      manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', subresource: 'status',
      fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:message': {}, 'f:status': {}, 'f:type': {} } }, 'f:phase': {}, 'f:podIP': {} } },
    },
  ];
}

/** Pod `j` of node `i` as stored after its `seq`th status update, at revision `rv`. */
function storedPod(i: number, j: number, seq: number, rv: number): StoredObject {
  const p = pod(i, j, 10) as unknown as StoredObject & { metadata: Record<string, unknown>; spec: Record<string, unknown> };
  const at = new Date(Date.UTC(2026, 11, 2, 16, 0, 0) + seq * 1000);
  const t = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  Object.assign(p.metadata, { uid: `0b5c${String(i).padStart(4, '0')}-${String(j).padStart(4, '0')}-4f3e-9a7e-1c2d3e4f5a6b`, resourceVersion: String(rv), creationTimestamp: '2026-12-02T16:00:00Z', managedFields: managedFields(t) });
  Object.assign(p.spec, { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', securityContext: {}, enableServiceLinks: true, priority: 0 });
  return { ...p, status: podStatusPatch(i, j, seq, at).status } as StoredObject;
}

const keyOf = (o: StoredObject) => `${PREFIX}${o.metadata!.namespace}/${o.metadata!.name}`;

function held(): { heap: number; external: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external + m.arrayBuffers };
}

function main(): void {
  const cache = new WatchCache({ historyMs: 3_600_000, maxEvents: 1_000_000 });
  const total = NODES * PODS_PER_NODE;
  const current: StoredObject[] = [];
  for (let k = 0; k < total; k++) current.push(storedPod(Math.floor(k / PODS_PER_NODE), k % PODS_PER_NODE, 0, k + 1));
  let rv = total;
  cache.replace(current, rv, keyOf);
  const aged = Date.now() - PACK_AFTER_MS - 60_000;
  const before = held();
  // Only the cache's work is timed, not the making of the updates.
  let applyMs = 0;
  for (let u = 0; u < UPDATES; u++) {
    const k = (u * 7919) % total;
    const next = storedPod(Math.floor(k / PODS_PER_NODE), k % PODS_PER_NODE, u + 1, ++rv);
    const ev: CacheEvent = { type: 'MODIFIED', key: keyOf(next), object: next, prevObject: current[k], rv, at: aged };
    current[k] = next;
    const t = performance.now();
    cache.apply(ev);
    applyMs += performance.now() - t;
  }
  // The window packs at a change or a progress notification, by the wall clock: here, all at once.
  const t = performance.now();
  cache.advance(rv);
  applyMs += performance.now() - t;
  const after = held();
  const t1 = process.cpuUsage();
  const replay = cache.eventsSince(total, PREFIX);
  const replayCPU = process.cpuUsage(t1);
  const perEvent = (bytes: number) => (bytes / UPDATES).toFixed(0);
  const us = (c: NodeJS.CpuUsage, n: number) => ((c.user + c.system) / n).toFixed(1);
  console.log(`window of ${UPDATES} Pod status updates over ${total} Pods (${nodeName(0)}…), every event older than PACK_AFTER_MS:`);
  printTable(
    ['V8 heap B/event', 'Buffers B/event', 'held B/event', 'apply µs/event (packing included; wall)', 'replay µs/event'],
    [[perEvent(after.heap - before.heap), perEvent(after.external - before.external), perEvent(after.heap + after.external - before.heap - before.external), ((applyMs * 1000) / UPDATES).toFixed(1), us(replayCPU, replay.length)]],
  );
}

main();
