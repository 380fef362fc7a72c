/**
 * The explicit, ordered admission plugin list (spec 001 § Admission control): the mutating phase
 * runs every plugin with `admit` in order — and, when a plugin asks for it through the
 * reinvocation context (a webhook with `reinvocationPolicy: IfNeeded`), once more — then the
 * validating phase runs every plugin with `validate` in order. The first rejection ends a phase.
 * With metrics, each phase and each plugin run is timed (`apiserver_admission_step_…` and
 * `apiserver_admission_controller_admission_duration_seconds`).
 */
import type { AdmissionMetrics, AdmissionStep } from '../metrics/admission.js';
import type { RequestContext } from '../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from './interface.js';

const OPERATIONS: readonly AdmissionOperation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** Runs admission phases over the configured plugins. */
export class AdmissionChain {
  readonly mutating: readonly MutatingAdmissionPlugin[];
  readonly validating: readonly ValidatingAdmissionPlugin[];
  /** Per operation, the plugins that handle it (fixed at construction: `handles` is static). */
  private readonly byOperation: ReadonlyMap<AdmissionOperation, { mutating: MutatingAdmissionPlugin[]; validating: ValidatingAdmissionPlugin[] }>;

  /** `plugins` in the order they run (lib/admission/plugins/index.ts ORDERED_PLUGINS); `metrics` times the phases and plugins. */
  constructor(
    readonly plugins: readonly AdmissionPlugin[],
    private readonly metrics?: AdmissionMetrics,
  ) {
    this.mutating = plugins.filter((p): p is MutatingAdmissionPlugin => typeof p.admit === 'function');
    this.validating = plugins.filter((p): p is ValidatingAdmissionPlugin => typeof p.validate === 'function');
    this.byOperation = new Map(
      OPERATIONS.map((op) => [op, { mutating: this.mutating.filter((p) => p.handles(op)), validating: this.validating.filter((p) => p.handles(op)) }]),
    );
  }

  /** Until the plugins' informers have synced: requests wait for it (upstream: plugins wait for their informers). */
  private pending: Promise<void> | null = null;

  /**
   * Holds admission until `synced` resolves (the plugins' informers are loaded); resolves with it.
   * A rejection (the server stopping) releases waiting requests too.
   */
  whenReady(synced: Promise<void>): Promise<void> {
    const p = synced.finally(() => {
      if (this.pending === p) this.pending = null;
    });
    this.pending = p.catch(() => undefined);
    return p;
  }

  /** The names of the plugins, in order. */
  get names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  /** The mutating phase; the first rejection ends it. */
  async admit(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void> {
    const plugins = this.byOperation.get(attrs.operation)!.mutating;
    if (plugins.length === 0) return;
    if (this.pending) await this.pending;
    const start = performance.now();
    let rejected = true;
    try {
      await this.runPlugins(plugins, 'admit', attrs.operation, (p) => p.admit(ctx, attrs));
      const r = attrs.reinvocation;
      if (r.shouldReinvoke) {
        r.isReinvoke = true;
        r.shouldReinvoke = false;
        await this.runPlugins(plugins, 'admit', attrs.operation, (p) => p.admit(ctx, attrs));
      }
      rejected = false;
    } finally {
      this.metrics?.observeStep('admit', attrs.operation, rejected, (performance.now() - start) / 1e3);
    }
  }

  /** The validating phase; the first rejection ends it. */
  async validate(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void> {
    if (this.pending) await this.pending;
    const plugins = this.byOperation.get(attrs.operation)!.validating;
    const start = performance.now();
    let rejected = true;
    try {
      await this.runPlugins(plugins, 'validate', attrs.operation, (p) => p.validate(ctx, attrs));
      rejected = false;
    } finally {
      this.metrics?.observeStep('validate', attrs.operation, rejected, (performance.now() - start) / 1e3);
    }
  }

  /** Runs `plugins` in order through `call`, timing each (whether it threw, and how long it took): one await per plugin, no wrapper. */
  private async runPlugins<P extends AdmissionPlugin>(plugins: readonly P[], type: AdmissionStep, operation: AdmissionOperation, call: (p: P) => Promise<void>): Promise<void> {
    const m = this.metrics;
    for (const p of plugins) {
      const start = performance.now();
      let rejected = true;
      try {
        await call(p);
        rejected = false;
      } finally {
        m?.observeController(p.name, type, operation, rejected, (performance.now() - start) / 1e3);
      }
    }
  }
}
