/**
 * Post-start hooks: named tasks run once the server listens (bootstrap namespaces, controllers).
 * Each is a health check `poststarthook/<name>` that fails until the hook has finished; in
 * `/livez` it passes during `--livez-grace-period` (spec 000 § Health endpoints).
 */
import type { HealthCheck } from './healthz/checks.js';

/** A hook: runs until done; throwing is logged and retried by the hook itself if it wants. */
export type PostStartHook = (signal: AbortSignal) => Promise<void>;

interface HookState {
  name: string;
  hook: PostStartHook;
  done: boolean;
  error?: string;
}

/** Registry and runner of post-start hooks. */
export class PostStartHooks {
  private readonly hooks: HookState[] = [];
  private startedAt = 0;
  private allDone!: () => void;
  private readonly done = new Promise<void>((resolve) => (this.allDone = resolve));

  /** Adds a hook (before `runAll`). */
  add(name: string, hook: PostStartHook): void {
    this.hooks.push({ name, hook, done: false });
  }

  /** Starts every hook concurrently; failures are reported to `log`. */
  runAll(signal: AbortSignal, log: (msg: string) => void): void {
    this.startedAt = Date.now();
    if (this.hooks.length === 0) this.allDone();
    for (const h of this.hooks) {
      h.hook(signal).then(
        () => {
          h.done = true;
          if (this.hooks.every((x) => x.done)) this.allDone();
        },
        (err: unknown) => {
          h.error = err instanceof Error ? err.message : String(err);
          log(`post-start hook ${h.name} failed: ${h.error}`);
        },
      );
    }
  }

  /** Resolves once every hook has finished after `runAll`; stays pending while one has failed (as `/readyz` keeps failing). */
  whenDone(): Promise<void> {
    return this.done;
  }

  /** Health checks of the hooks; `graceMs` > 0 makes them pass that long after start (livez). */
  checks(graceMs = 0): HealthCheck[] {
    return this.hooks.map((h) => ({
      name: `poststarthook/${h.name}`,
      check: async () => {
        if (h.done) return;
        if (graceMs > 0 && this.startedAt > 0 && Date.now() - this.startedAt < graceMs) return;
        throw new Error(h.error ?? 'not finished');
      },
    }));
  }
}
