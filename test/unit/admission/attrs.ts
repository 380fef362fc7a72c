/** Admission attributes for unit tests of plugins: a CREATE of nothing in core/v1 by `user`, overridden by `a`. */
import type { AdmissionAttributes } from '../../../lib/admission/interface.js';
import { StatusError } from '../../../lib/apimachinery/errors.js';
import type { UserInfo } from '../../../lib/request/user.js';

/** Full attributes from the fields a test cares about (request* default to the storage version's). */
export function admissionAttrs(user: UserInfo, a: Partial<AdmissionAttributes>): AdmissionAttributes {
  const base: AdmissionAttributes = {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    kind: '',
    resource: '',
    subresource: '',
    requestGroup: a.group ?? '',
    requestVersion: a.version ?? 'v1',
    requestKind: a.kind ?? '',
    namespace: '',
    name: '',
    namespaced: (a.namespace ?? '') !== '',
    object: null,
    oldObject: null,
    options: null,
    dryRun: false,
    user,
    reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
  };
  return { ...base, ...a };
}

/** `<code> <message>` of the StatusError `call` rejects with (`<code> <reason> <message>` with `withReason`), or '' when it resolves. */
export async function rejection(call: Promise<void>, withReason = false): Promise<string> {
  try {
    await call;
    return '';
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return withReason ? `${err.status.code} ${err.status.reason} ${err.status.message}` : `${err.status.code} ${err.status.message}`;
  }
}
