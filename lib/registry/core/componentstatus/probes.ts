/**
 * The probes behind ComponentStatus (upstream v1.30 `pkg/registry/core/componentstatus`
 * validator): each answers a probe result, a message and an error text, never throws. Upstream's
 * etcd probe reads a key through a client of the server's storage configuration within 20
 * seconds; a failure is `Failure` with the error `error getting data from etcd: <cause>`.
 */
import { withDeadline } from '../../../apimachinery/deadline.js';

/** Upstream probe.Result. */
export type ProbeResult = 'Success' | 'Warning' | 'Failure' | 'Unknown';

/** What a probe found. */
export interface ProbeOutcome {
  result: ProbeResult;
  /** What the component answered ('' for none). */
  message: string;
  /** Why the probe failed or could not be run ('' for none). */
  error: string;
}

/** One component to probe. */
export interface ComponentProbe {
  check(): Promise<ProbeOutcome>;
}

/** Upstream's probe timeout. */
export const PROBE_TIMEOUT_MS = 20_000;

/**
 * The etcd probe: `read` is one read of the storage (resolves when etcd answered); healthy with
 * no message when it answers within `timeoutMs`.
 */
export function etcdProbe(read: () => Promise<unknown>, timeoutMs = PROBE_TIMEOUT_MS): ComponentProbe {
  return {
    async check(): Promise<ProbeOutcome> {
      try {
        await withDeadline(read(), timeoutMs, () => new Error('context deadline exceeded'));
        return { result: 'Success', message: '', error: '' };
      } catch (err) {
        return { result: 'Failure', message: '', error: `error getting data from etcd: ${err instanceof Error ? err.message : String(err)}` };
      }
    },
  };
}
