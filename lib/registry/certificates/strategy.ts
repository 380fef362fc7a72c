/**
 * CertificateSigningRequest strategies (upstream certificates registry of v1.30):
 * - main: on create the requester (`spec.username`, `uid`, `groups`, `extra`) is the user of the
 *   request, whatever the client sent, and the status starts empty; updates change only metadata
 *   (spec and status are carried over);
 * - `status`: changes only the status, keeping the stored Approved and Denied conditions; may set
 *   the certificate once;
 * - `approval`: changes only `status.conditions` (Approved, Denied, others).
 * Subresource writes stamp the times of new conditions.
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import type { FieldError } from '../../apimachinery/field-errors.js';
import { validateDeclarative } from '../../apimachinery/schema/validate.js';
import { validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta.js';
import { certificateSigningRequest, validateCSRApprovalUpdate, validateCSRUpdate } from '../../apis/certificates/v1/index.js';
import { obj } from '../../apis/core/v1/obj-access.js';
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import { newKindStrategy, newStatusStrategy, resetToStored, validateStatusWrite } from '../generic/kind-strategy.js';
import { metaOf } from '../generic/object-meta.js';
import type { Strategy } from '../rest/strategy.js';
import { preserveConditions, stampConditions } from './conditions.js';

/** Everything but type and object metadata and status. */
function specPart(o: Obj): Obj {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = o;
  return rest;
}

/** Replaces the requester fields of the spec with the request's user (upstream `PrepareForCreate`). */
function fillRequester(ctx: RequestContext, csr: Obj): void {
  const spec = (csr.spec ??= {}) as Obj;
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  const user = ctx.user;
  if (!user) return;
  if (user.name) spec.username = user.name;
  if (user.uid) spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) spec.extra = deepCopy(user.extra);
}

const base = newKindStrategy(certificateSigningRequest, {
  tracksGeneration: false,
  prepareForUpdate: (csr, old) => {
    csr.spec = deepCopy(old.spec);
  },
});

/** The main resource. */
export const csrStrategy: Strategy = {
  ...base,
  prepareForCreate(ctx: RequestContext, csr: Obj): void {
    base.prepareForCreate(ctx, csr);
    fillRequester(ctx, csr);
    csr.status = {};
  },
  validateUpdate(_ctx: RequestContext, csr: Obj, old: Obj): FieldError[] {
    return [
      ...validateObjectMetaUpdate(metaOf(csr), metaOf(old)),
      ...validateDeclarative(certificateSigningRequest.schema, specPart(csr)),
      ...validateCSRUpdate(csr, old),
    ];
  },
};

const statusBase = newStatusStrategy(csrStrategy);

/** The `status` subresource. */
export const csrStatusStrategy: Strategy = {
  ...statusBase,
  prepareForUpdate(ctx: RequestContext, csr: Obj, old: Obj): void {
    statusBase.prepareForUpdate(ctx, csr, old);
    preserveConditions(csr, old, 'Approved');
    preserveConditions(csr, old, 'Denied');
    stampConditions(csr, old);
  },
};

/** The `approval` subresource. */
export const csrApprovalStrategy: Strategy = {
  ...statusBase,
  prepareForUpdate(_ctx: RequestContext, csr: Obj, old: Obj): void {
    stampConditions(csr, old);
    const conditions = obj(csr.status)?.conditions;
    resetToStored(csr, old);
    const status = (csr.status ??= {}) as Obj;
    if (conditions === undefined || conditions === null) delete status.conditions;
    else status.conditions = conditions;
  },
  validateUpdate: (_ctx: RequestContext, csr: Obj, old: Obj): FieldError[] => validateStatusWrite(certificateSigningRequest, csr, old, validateCSRApprovalUpdate),
};
