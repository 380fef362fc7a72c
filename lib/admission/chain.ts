/**
 * The explicit, ordered admission plugin list: all mutating plugins in order, then all
 * validating plugins in order (spec 001 § Admission control).
 */
import type { RequestContext } from '../request/context.js';
import type { AdmissionAttributes, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from './interface.js';

/** Runs admission phases over the configured plugins. */
export class AdmissionChain {
  constructor(
    readonly mutating: readonly MutatingAdmissionPlugin[],
    readonly validating: readonly ValidatingAdmissionPlugin[],
  ) {}

  /** The mutating phase; the first rejection ends it. */
  async admit(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.mutating) if (p.handles(attrs.operation)) await p.admit(ctx, attrs);
  }

  /** The validating phase; the first rejection ends it. */
  async validate(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.validating) if (p.handles(attrs.operation)) await p.validate(ctx, attrs);
  }
}
