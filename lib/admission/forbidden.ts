/**
 * Upstream's `admission.NewForbidden`: a 403 Forbidden naming the request's resource and object
 * (spec 001 § Admission control: a rejection by a plugin returns an error to the caller).
 */
import { newForbidden, StatusError } from '../apimachinery/errors.js';
import { obj, str } from '../apis/core/v1/obj-access.js';
import type { AdmissionAttributes } from './interface.js';

/**
 * The object name a rejection names (upstream `extractResourceName`): the request's name, else the
 * new object's `metadata.name`, else its `metadata.generateName`, else `Unknown`.
 */
export function admissionObjectName(a: AdmissionAttributes): string {
  const meta = obj(a.object?.metadata) ?? {};
  return a.name || str(meta.name) || str(meta.generateName) || 'Unknown';
}

/**
 * `<resource>.<group> "<name>" is forbidden: <reason>` (403, reason Forbidden, details naming the
 * attributes' group, resource and object), as upstream's `admission.NewForbidden`.
 */
export function admissionForbidden(a: AdmissionAttributes, reason: string): StatusError {
  return newForbidden({ group: a.group, resource: a.resource }, admissionObjectName(a), reason);
}
