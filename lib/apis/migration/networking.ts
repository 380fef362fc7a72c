/**
 * Ingress in `extensions/v1beta1` and `networking.<vendor>/v1beta1` → `networking.<vendor>/v1`
 * (spec 001 § Removed API versions, 1.22 row; upstream `pkg/apis/networking/v1beta1` and
 * `extensions/v1beta1` conversions): `spec.backend` becomes `spec.defaultBackend`; in every
 * backend `serviceName` becomes `service.name` and `servicePort` `service.port.number` (a number)
 * or `service.port.name` (a string); a path without `pathType` gets `ImplementationSpecific`, the
 * v1beta1 default (v1 requires the field).
 */
import type { Obj } from '../define.js';
import { NETWORKING_GROUP } from '../networking/v1/group.js';
import { EXTENSIONS_GROUP } from './same-shape.js';
import { type MigrationRow, isObj, objects, rename, setDefault } from './types.js';

/** A v1beta1 IngressBackend in v1's shape (a new object; a `resource` backend is kept as is). */
function backendToV1(b: Obj): Obj {
  const { serviceName, servicePort, ...rest } = b;
  if (serviceName === undefined && servicePort === undefined) return rest;
  const service: Obj = {};
  if (serviceName !== undefined) service.name = serviceName;
  if (typeof servicePort === 'number') service.port = { number: servicePort };
  else if (typeof servicePort === 'string') service.port = { name: servicePort };
  return { ...rest, service };
}

/** Rewrites an Ingress of v1beta1 into v1 (see the file comment). */
export function ingressToV1(obj: Obj): Obj {
  const spec = obj.spec;
  if (!isObj(spec)) return obj;
  rename(spec, 'backend', 'defaultBackend');
  if (isObj(spec.defaultBackend)) spec.defaultBackend = backendToV1(spec.defaultBackend);
  for (const rule of objects(spec.rules)) {
    const http = rule.http;
    if (!isObj(http)) continue;
    for (const p of objects(http.paths)) {
      setDefault(p, 'pathType', 'ImplementationSpecific');
      if (isObj(p.backend)) p.backend = backendToV1(p.backend);
    }
  }
  return obj;
}

const to = { group: NETWORKING_GROUP, version: 'v1', kind: 'Ingress' };

/** The two Ingress rows. */
export const networkingRows: readonly MigrationRow[] = [
  { from: { group: EXTENSIONS_GROUP, version: 'v1beta1', kind: 'Ingress' }, to, removedIn: '1.22', convert: ingressToV1 },
  { from: { group: NETWORKING_GROUP, version: 'v1beta1', kind: 'Ingress' }, to, removedIn: '1.22', convert: ingressToV1 },
];
