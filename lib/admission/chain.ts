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
    await this.timedStep('admit', attrs.operation, async () => {
      for (const p of plugins) await this.timedPlugin(p.name, 'admit', attrs.operation, () => p.admit(ctx, attrs));
      const r = attrs.reinvocation;
      if (!r.shouldReinvoke) return;
      r.isReinvoke = true;
      r.shouldReinvoke = false;
      for (const p of plugins) await this.timedPlugin(p.name, 'admit', attrs.operation, () => p.admit(ctx, attrs));
    });
  }

  /** The validating phase; the first rejection ends it. */
  async validate(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void> {
    if (this.pending) await this.pending;
    const plugins = this.byOperation.get(attrs.operation)!.validating;
    await this.timedStep('validate', attrs.operation, async () => {
      for (const p of plugins) await this.timedPlugin(p.name, 'validate', attrs.operation, () => p.validate(ctx, attrs));
    });
  }

  private timedStep(type: AdmissionStep, operation: AdmissionOperation, run: () => Promise<void>): Promise<void> {
    const m = this.metrics;
    return m ? timed(run, (rejected, seconds) => m.observeStep(type, operation, rejected, seconds)) : run();
  }

  private async timedPlugin(name: string, type: AdmissionStep, operation: AdmissionOperation, run: () => Promise<void> | void): Promise<void> {
    const m = this.metrics;
    if (!m) return run();
    return timed(run, (rejected, seconds) => m.observeController(name, type, operation, rejected, seconds));
  }
}

/** Runs `run`, then reports whether it threw (`rejected`) and how long it took, in seconds. */
async function timed(run: () => Promise<void> | void, observe: (rejected: boolean, seconds: number) => void): Promise<void> {
  const start = process.hrtime.bigint();
  let rejected = true;
  try {
    await run();
    rejected = false;
  } finally {
    observe(rejected, Number(process.hrtime.bigint() - start) / 1e9);
  }
}
