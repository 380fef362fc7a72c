/**
 * The debugging paths of the handler chain (issue #16 item 7): `/debug/pprof…` and `/debug/flags…`
 * (the run-time `-v` setter) when profiling is on (`--profiling`, default true), as upstream, and
 * `/logs…` when the logs handler is (`--enable-logs-handler`).
 * They sit behind authentication and authorization like every non-resource URL: a user needs
 * `get` on the non-resource URL (`/debug/*`, `/logs/*`), else 403. Off: the paths are 404.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { requestContextOf } from '../../endpoints/filters/request-info.js';
import type { Logger } from '../logging.js';
import { serveFlagsIndex, serveVerbosityFlag } from './flags.js';
import { serveLogs } from './logs.js';
import { serveCPUProfile, serveHeap, serveIndex, serveUnknownProfile } from './pprof.js';

/** What the debugging paths serve. */
export interface DebugConfig {
  /** `--profiling`: serve `/debug/pprof/`. */
  profiling: boolean;
  /** `--enable-logs-handler`: serve `/logs/`. */
  logsHandler: boolean;
  /** The directory `/logs/` serves (upstream: `/var/log`). */
  logsDir: string;
}

/** A router wildcard's value as one path ('' when absent; path-to-regexp may give segments). */
function wildcard(koa: Context, name: string): string {
  const v = (koa.params as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v.join('/') : (v ?? '');
}

/**
 * Installs the enabled debugging routes on `router`.
 * @param requestTimeoutMs the deadline of non-long-running requests: a CPU profile must end before it.
 * @param log the logger whose verbosity `/debug/flags/v` sets.
 */
export function installDebugRoutes(router: Router, cfg: DebugConfig, requestTimeoutMs: number, log: Logger): void {
  if (cfg.profiling) {
    router.get('/debug/pprof', (koa) => {
      if (koa.path.endsWith('/')) return serveIndex(koa);
      koa.status = 302;
      koa.set('Location', '/debug/pprof/');
    });
    router.get('/debug/pprof/heap', (koa) => serveHeap(koa, requestContextOf(koa).signal, requestTimeoutMs / 1000));
    router.get('/debug/pprof/profile', (koa) => serveCPUProfile(koa, requestContextOf(koa).signal, requestTimeoutMs / 1000));
    router.get('/debug/pprof/*name', (koa) => serveUnknownProfile(koa));
    router.all('/debug/flags/v', (koa) => serveVerbosityFlag(koa, log));
    router.get('/debug/flags', (koa) => serveFlagsIndex(koa));
    router.get('/debug/flags/*name', (koa) => serveFlagsIndex(koa));
  }
  if (cfg.logsHandler) {
    router.get('/logs', (koa) => serveLogs(koa, cfg.logsDir, ''));
    router.get('/logs/*rel', (koa) => serveLogs(koa, cfg.logsDir, wildcard(koa, 'rel')));
  }
}
