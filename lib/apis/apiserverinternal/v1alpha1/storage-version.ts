/**
 * internal.apiserver/v1alpha1 StorageVersion: the encoding versions the API servers write a
 * resource in (upstream v1.30 k8s.io/api/apiserverinternal/v1alpha1 field structure and protobuf
 * numbers; off by default). Cluster-scoped, named `<group>.<resource>`, with a `status`
 * subresource; `spec` is empty. Validation as upstream `ValidateStorageVersion` (name, status) and
 * `ValidateStorageVersionStatusUpdate` (status); a main update checks nothing more.
 */
import { type FieldError, FieldPath, goStringSlice, invalid, required } from '../../../apimachinery/field-errors.js';
import { field, int64, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../../../apimachinery/validation/names.js';
import { list, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { storageVersionPrinter } from '../../printers/resource.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of StorageVersion (upstream `internal.apiserver.k8s.io`). */
export const APISERVER_INTERNAL_GROUP = vendorGroup('internal.apiserver');
const ID = 'api.apiserverinternal.v1alpha1';
const STATUS = FieldPath.of('status');
const EMPTY = 'must be non-empty';
const DNS1035_LABEL_MSG = "a DNS-1035 label, which must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** The name rule (upstream `ValidateStorageVersionName`): `<group>.<resource>`. */
export function storageVersionNameRule(name: string): string[] {
  const idx = name.lastIndexOf('.');
  if (idx < 0) return ['name must be in the form of <group>.<resource>'];
  return [...isDNS1123Subdomain(name.slice(0, idx)).map((m) => `the group segment ${m}`), ...isDNS1035Label(name.slice(idx + 1)).map((m) => `the resource segment ${m}`)];
}

/** An apiVersion `[<group>/]<version>` (upstream `isValidAPIVersion`). */
function apiVersionErrors(apiVersion: string): string[] {
  const parts = apiVersion.split('/');
  const errs: string[] = [];
  if (parts.length > 2)
    return [`an apiVersion is ${regexError(DNS1035_LABEL_MSG, '[a-z]([-a-z0-9]*[a-z0-9])?', 'my-name', 'abc-123')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyVersion')`];
  const version = parts[parts.length - 1]!;
  if (parts.length === 2) {
    const group = parts[0]!;
    if (group === '') errs.push(`group part: ${EMPTY}`);
    else errs.push(...isDNS1123Subdomain(group).map((m) => `group part: ${m}`));
  }
  if (version === '') errs.push(`version part: ${EMPTY}`);
  else errs.push(...isDNS1035Label(version).map((m) => `version part: ${m}`));
  return errs;
}

function validateServerStorageVersion(ssv: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const id = str(ssv.apiServerID);
  errs.push(...isDNS1123Subdomain(id).map((m) => invalid(path.child('apiServerID'), id, m)));
  const encoding = str(ssv.encodingVersion);
  const encErrs = apiVersionErrors(encoding);
  if (encErrs.length > 0) errs.push(invalid(path.child('encodingVersion'), encoding, encErrs.join(',')));
  const decodable = list(ssv.decodableVersions).map(str);
  decodable.forEach((dv, i) => {
    const e = apiVersionErrors(dv);
    if (e.length > 0) errs.push(invalid(path.child('decodableVersions').index(i), dv, e.join(',')));
  });
  if (!decodable.includes(encoding)) errs.push(invalid(path.child('decodableVersions'), goStringSlice(decodable), `decodableVersions must include encodingVersion ${encoding}`));
  return errs;
}

/** `commonEncodingVersion` agrees with the servers (upstream `validateCommonVersion`). */
function validateCommonVersion(status: Obj): FieldError[] {
  const svs = objs(status.storageVersions);
  const first = svs.length > 0 ? str(svs[0]!.encodingVersion) : undefined;
  const actual = first !== undefined && svs.every((s) => str(s.encodingVersion) === first) ? first : undefined;
  const stated = typeof status.commonEncodingVersion === 'string' ? status.commonEncodingVersion : undefined;
  const p = STATUS.child('commonEncodingVersion');
  if (actual === undefined && stated === undefined) return [];
  if (actual === undefined) return [invalid(p, stated, 'should be nil if servers do not agree on the same encoding version, or if there is no server reporting the supported versions yet')];
  if (stated === undefined) return [invalid(p, null, `the common encoding version is ${actual}`)];
  return actual === stated ? [] : [invalid(p, stated, `the actual common encoding version is ${actual}`)];
}

/** Conditions (upstream `validateStorageVersionCondition`; its paths index `status` itself, as upstream does). */
function validateConditions(conditions: Obj[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, number>();
  conditions.forEach((c, i) => {
    const p = STATUS.index(i);
    const type = str(c.type);
    const earlier = seen.get(type);
    if (earlier !== undefined) errs.push(invalid(p.child('type'), type, `the type of the condition is not unique, it also appears in conditions[${earlier}]`));
    seen.set(type, i);
    errs.push(...isQualifiedName(type).map((m) => invalid(p.child('type'), type, m)));
    errs.push(...isQualifiedName(str(c.status)).map((m) => invalid(p.child('status'), type, m)));
    if (str(c.reason) === '') errs.push(required(p.child('reason'), 'reason cannot be empty'));
    if (str(c.message) === '') errs.push(required(p.child('message'), 'message cannot be empty'));
  });
  return errs;
}

/** The status (upstream `validateStorageVersionStatus`). */
export function validateStorageVersionStatus(sv: Obj): FieldError[] {
  const status = obj(sv.status) ?? {};
  return [
    ...objs(status.storageVersions).flatMap((ssv, i) => validateServerStorageVersion(ssv, STATUS.child('storageVersions').index(i))),
    ...validateCommonVersion(status),
    ...validateConditions(objs(status.conditions)),
  ];
}

const serverStorageVersion = struct(`${ID}.ServerStorageVersion`, {
  apiServerID: field(1, string, { description: 'ID of the reporting API server.' }),
  encodingVersion: field(2, string, { description: 'The version the server encodes objects in.' }),
  decodableVersions: field(3, listOf(string, { listType: 'set' }), { description: 'The versions the server can decode; include encodingVersion.' }),
  servedVersions: field(4, listOf(string, { listType: 'set' }), { description: 'The versions the server serves.' }),
});

const storageVersionCondition = struct(`${ID}.StorageVersionCondition`, {
  type: field(1, string, { omitEmpty: false, description: 'Type of the condition.' }),
  status: field(2, string, { omitEmpty: false, description: 'True, False or Unknown.' }),
  observedGeneration: field(3, int64, { description: 'The generation the condition was set for.' }),
  lastTransitionTime: field(4, time, { omitEmpty: false, description: 'Last change of the status.' }),
  reason: field(5, string, { omitEmpty: false, description: 'Reason of the last transition.' }),
  message: field(6, string, { description: 'Details of the last transition.' }),
});

/** The StorageVersion kind. */
export const storageVersion = defineKind({
  group: APISERVER_INTERNAL_GROUP,
  version: 'v1alpha1',
  kind: 'StorageVersion',
  resource: 'storageversions',
  singular: 'storageversion',
  namespaced: false,
  statusSubresource: true,
  nameRule: (name) => storageVersionNameRule(name),
  description: 'The storage versions of one resource across the API servers.',
  printerColumns: storageVersionPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, struct(`${ID}.StorageVersionSpec`, {}), { omitEmpty: false, default: {}, description: 'Empty.' }),
    status: field(
      3,
      struct(`${ID}.StorageVersionStatus`, {
        storageVersions: field(1, listOf(serverStorageVersion, { listType: 'map', listMapKeys: ['apiServerID'] }), { description: 'The version each API server reports.' }),
        commonEncodingVersion: field(2, string, { pointer: true, description: 'The encoding version all servers agree on, if any.' }),
        conditions: field(3, listOf(storageVersionCondition, { listType: 'map', listMapKeys: ['type'] }), { description: 'The observed state.' }),
      }),
      { omitEmpty: false, default: {}, description: 'The storage versions reported.' },
    ),
  },
  validate: validateStorageVersionStatus,
  validateStatusUpdate: validateStorageVersionStatus,
});
