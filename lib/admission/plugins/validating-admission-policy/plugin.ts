/**
 * The ValidatingAdmissionPolicy admission plugin (upstream v1.30, on by default; spec 001
 * § Admission control): CEL policies of `admissionregistration.<vendor>/v1`, in force through
 * their bindings, validate every create, update, delete and connect in the validating phase —
 * except those of the policies and bindings themselves, as upstream. See source.ts (policies in
 * force), dispatch.ts (decisions and their actions), evaluate.ts (one evaluation).
 */
import { ADMISSIONREGISTRATION_GROUP } from '../../../apis/admissionregistration/v1/types.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { equivalentResources } from '../../matching/equivalents.js';
import type { AdmissionPluginDeps, AdmissionPluginFactory, ServedResource } from '../../plugin-deps.js';
import { celAuthorizer } from './authorizer.js';
import { compilePolicy } from './compile.js';
import { dispatch, type DispatchEnv } from './dispatch.js';
import { PolicySource } from './source.js';

const PLUGIN_NAME = 'ValidatingAdmissionPolicy';
const POLICY_RESOURCES = new Set(['validatingadmissionpolicies', 'validatingadmissionpolicybindings']);

/** The served resource of a paramKind: the version-and-kind pair among `served` (storage versions first). */
export function servedKindLookup(served: readonly ServedResource[]): (group: string, version: string, kind: string) => ServedResource | undefined {
  return (group, version, kind) => served.find((r) => r.group === group && r.version === version && r.kind === kind);
}

class ValidatingAdmissionPolicy implements AdmissionPlugin {
  readonly name = PLUGIN_NAME;
  private readonly source: PolicySource;
  private readonly env: DispatchEnv;

  constructor(deps: AdmissionPluginDeps) {
    const group = ADMISSIONREGISTRATION_GROUP;
    const served = deps.servedResources();
    const lookup = servedKindLookup(served);
    const access = (r: ServedResource) => {
      const storage = r.conversion?.storageKind ?? r.definition;
      return deps.resource(storage.group, storage.resource);
    };
    this.source = new PolicySource(
      deps.resource(group, 'validatingadmissionpolicies').lister,
      deps.resource(group, 'validatingadmissionpolicybindings').lister,
      (policy) => compilePolicy(policy, lookup, access),
    );
    this.env = { equivalents: equivalentResources(served), namespaces: deps.resource('', 'namespaces'), authorizer: celAuthorizer(deps.authorizer) };
  }

  handles(_op: AdmissionOperation): boolean {
    return true;
  }

  async validate(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void> {
    const hooks = this.source.hooks();
    if (hooks.length === 0) return;
    if (attrs.group === ADMISSIONREGISTRATION_GROUP && POLICY_RESOURCES.has(attrs.resource)) return;
    await dispatch(ctx, attrs, hooks, this.env);
  }
}

/** The plugin's factory. */
export const validatingAdmissionPolicyPlugin: AdmissionPluginFactory = {
  name: PLUGIN_NAME,
  create: (deps) => new ValidatingAdmissionPolicy(deps),
};
