/**
 * The CRD validation hooks the control plane passes to the CustomResourceDefinition strategy
 * (lib/controlplane/resources.ts): the checks of a version's `openAPIV3Schema` — the structural
 * rules and the `x-<vendor>-…` extensions (schema/), then, for a structural schema only, as
 * upstream, its `default` values (values/default-checks.ts) and its expression rules with their
 * estimated cost (cel/). Printer column paths need no more than the simple-path checks the CRD
 * validation makes: upstream v1.30 checks nothing else when a CRD is written.
 */
import { validateSchemaRules } from '../cel/index.js';
import { isStructuralSchema, validateCustomResourceSchema } from '../schema/index.js';
import { validateSchemaDefaults } from '../values/default-checks.js';
import type { CRDValidationHooks } from './hooks.js';

/** The hooks of the served CustomResourceDefinition resource. */
export const crdValidationHooks: CRDValidationHooks = {
  schema(props, fldPath, ctx) {
    const errs = validateCustomResourceSchema(props, fldPath, { statusEnabled: ctx.statusEnabled });
    if (!isStructuralSchema(props)) return errs;
    errs.push(...validateSchemaDefaults(props, fldPath, { isResourceRoot: true }));
    errs.push(...validateSchemaRules(props, fldPath, ctx.oldProps ? { oldSchema: ctx.oldProps } : {}));
    return errs;
  },
  jsonPath: () => [],
};
