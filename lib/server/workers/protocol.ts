/**
 * The messages between the primary process and its server workers (issue #17 item 4), sent over
 * node:cluster's IPC channel: a worker says once that it serves (and on which port), the primary
 * asks a worker to shut down gracefully. Anything else on the channel is ignored.
 */
import cluster from 'node:cluster';

/** Worker → primary: the worker's server listens; `port` is the bound secure port. */
export interface ServingMessage {
  type: 'serving';
  port: number;
}

/** Primary → worker: stop gracefully (shutdown delay, drain), then exit 0. */
export interface ShutdownMessage {
  type: 'shutdown';
}

/** Whether `m` is a {@link ServingMessage}. */
export function isServingMessage(m: unknown): m is ServingMessage {
  return typeof m === 'object' && m !== null && (m as ServingMessage).type === 'serving' && typeof (m as ServingMessage).port === 'number';
}

/** Whether `m` is a {@link ShutdownMessage}. */
export function isShutdownMessage(m: unknown): m is ShutdownMessage {
  return typeof m === 'object' && m !== null && (m as ShutdownMessage).type === 'shutdown';
}

/** Whether this process is a server worker forked by a primary (node:cluster). */
export function isServerWorker(): boolean {
  return cluster.isWorker;
}

/** The worker's number (1, 2, … in fork order across restarts), or undefined in a primary or single process. */
export function workerNumber(): number | undefined {
  return cluster.worker?.id;
}

/** Worker side: tells the primary that this worker serves on `port`. A no-op outside a worker. */
export function announceServing(port: number): void {
  if (!cluster.isWorker) return;
  const m: ServingMessage = { type: 'serving', port };
  process.send?.(m);
}

/** Worker side: calls `stop` when the primary asks this worker to shut down. A no-op outside a worker. */
export function onShutdownRequest(stop: () => void): void {
  if (!cluster.isWorker) return;
  process.on('message', (m: unknown) => {
    if (isShutdownMessage(m)) stop();
  });
}
