/**
 * AlwaysAdmit and AlwaysDeny (spec 001 § Admission control; upstream v1.30's deprecated plugins of
 * those names). AlwaysAdmit admits every request; AlwaysDeny rejects every create, update, delete
 * and connect with 403 `<resource> "<name>" is forbidden: admission control is denying all
 * modifications`, in both phases as upstream (the mutating phase, running first, is the one that
 * answers). Both log upstream's deprecation warning when the chain is built.
 */
import type { RequestContext } from '../../request/context.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../interface.js';
import type { AdmissionLog, AdmissionPluginFactory } from '../plugin-deps.js';

/** AlwaysDeny's reason. */
export const DENY_ALL_REASON = 'admission control is denying all modifications';

/** Upstream's start-up warning of a deprecated plugin. */
export function deprecationWarning(plugin: string): string {
  return `${plugin} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`;
}

/** The AlwaysAdmit admission plugin: a validating plugin that admits everything. */
export class AlwaysAdmit implements ValidatingAdmissionPlugin {
  readonly name = 'AlwaysAdmit';

  handles(_op: AdmissionOperation): boolean {
    return true;
  }

  /** Admits: never throws. */
  async validate(): Promise<void> {}
}

/** The AlwaysDeny admission plugin (mutating and validating). */
export class AlwaysDeny implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = 'AlwaysDeny';

  handles(_op: AdmissionOperation): boolean {
    return true;
  }

  /** @throws StatusError 403, always. */
  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    throw admissionForbidden(a, DENY_ALL_REASON);
  }

  /** @throws StatusError 403, always. */
  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    throw admissionForbidden(a, DENY_ALL_REASON);
  }
}

/** Builds a plugin after logging its deprecation warning. */
function deprecated<P>(name: string, log: AdmissionLog, make: () => P): P {
  log.warn({ plugin: name }, deprecationWarning(name));
  return make();
}

/** Factory of {@link AlwaysAdmit} (off by default). */
export const alwaysAdmitPlugin: AdmissionPluginFactory = {
  name: 'AlwaysAdmit',
  create: (deps) => deprecated('AlwaysAdmit', deps.log, () => new AlwaysAdmit()),
};

/** Factory of {@link AlwaysDeny} (off by default). */
export const alwaysDenyPlugin: AdmissionPluginFactory = {
  name: 'AlwaysDeny',
  create: (deps) => deprecated('AlwaysDeny', deps.log, () => new AlwaysDeny()),
};
