/**
 * The once-per-cluster work of a server (issue #16 item 1): controllers that must not run in two
 * replicas at once (upstream's kube-controller-manager controllers, run here in process). Each
 * task is registered under the name of the post-start hook that starts it when leader election
 * is off; under leader election all of them start when this server begins to lead and stop with
 * the term's signal.
 */

/** Starts one controller: it runs until `signal` aborts; resolves once it is running (its caches synced). */
export type LeaderTaskStart = (signal: AbortSignal) => Promise<void>;

/** One task: its hook name and how it starts. */
export interface LeaderTask {
  name: string;
  start: LeaderTaskStart;
}

/** The registry of leader-elected tasks. */
export class LeaderTasks {
  private readonly list: LeaderTask[] = [];

  /** Registers a task (before the server starts). */
  add(name: string, start: LeaderTaskStart): void {
    this.list.push({ name, start });
  }

  /** The tasks in registration order. */
  tasks(): readonly LeaderTask[] {
    return this.list;
  }
}
