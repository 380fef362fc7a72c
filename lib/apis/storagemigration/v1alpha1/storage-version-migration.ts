/**
 * storagemigration/v1alpha1 StorageVersionMigration: a request to rewrite every object of one
 * resource in its current storage version (upstream v1.30 k8s.io/api/storagemigration/v1alpha1
 * field structure and protobuf numbers; off by default, and served only with the
 * StorageVersionMigrator feature gate). Cluster-scoped, with a `status` subresource. Validation as
 * upstream pkg/apis/storagemigration/validation: `spec.resource.resource` and `.version` required;
 * group, version and resource immutable (reported at upstream's top-level paths); status writes
 * check the resource version, the conditions and their consistency.
 */
import { duplicate, type FieldError, FieldPath, GoSyntax, invalid, notSupported, required, tooLong } from '../../../apimachinery/field-errors.js';
import { field, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { validateLabelName } from '../../../apimachinery/validation/label-map.js';
import { regexError } from '../../../apimachinery/validation/names.js';
import { obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of StorageVersionMigration (upstream `storagemigration.k8s.io`). */
export const STORAGE_MIGRATION_GROUP = vendorGroup('storagemigration');
const ID = 'api.storagemigration.v1alpha1';
const STATUS = FieldPath.of('status');
const CONDITIONS = STATUS.child('conditions');
const STATUSES = ['False', 'True', 'Unknown'];
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);
const REASON_MSG = regexError(
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
  REASON_FMT,
  'my_name',
  'MY_NAME',
  'MyName',
  'ReasonA,ReasonB',
  'ReasonA:ReasonB',
);
const MAX_REASON = 1024;
const MAX_MESSAGE = 32 * 1024;
const INT64_MAX = 9223372036854775807n;

const resourceOf = (svm: Obj): Obj => obj(obj(svm.spec)?.resource) ?? {};

/** Create (and every update): the resource and version to migrate are required. */
export function validateStorageVersionMigration(svm: Obj): FieldError[] {
  const res = resourceOf(svm);
  const errs: FieldError[] = [];
  if (str(res.resource) === '') errs.push(required(FieldPath.of('spec', 'resource', 'resource'), 'resource is required'));
  if (str(res.version) === '') errs.push(required(FieldPath.of('spec', 'resource', 'version'), 'version is required'));
  return errs;
}

/** Update: group, version and resource may not change. */
export function validateStorageVersionMigrationUpdate(svm: Obj, old: Obj): FieldError[] {
  const now = resourceOf(svm);
  const before = resourceOf(old);
  return ['group', 'version', 'resource'].filter((k) => str(now[k]) !== str(before[k])).map((k) => invalid(k, str(now[k]), 'field is immutable'));
}

/** Go's `strconv.ParseInt(rv, 10, 64)` error text, or undefined when `rv` parses. */
function parseIntError(rv: string): string | undefined {
  if (!/^[+-]?\d+$/.test(rv)) return `strconv.ParseInt: parsing ${JSON.stringify(rv)}: invalid syntax`;
  const n = BigInt(rv);
  if (n > INT64_MAX || n < -INT64_MAX - 1n) return `strconv.ParseInt: parsing ${JSON.stringify(rv)}: value out of range`;
  return undefined;
}

function validateCondition(c: Obj, p: FieldPath): FieldError[] {
  const errs = validateLabelName(str(c.type), p.child('type'));
  if (!STATUSES.includes(str(c.status))) errs.push(notSupported(p.child('status'), str(c.status), STATUSES));
  if (c.lastUpdateTime === undefined || c.lastUpdateTime === null) errs.push(required(p.child('lastTransitionTime'), ''));
  const reason = str(c.reason);
  if (reason === '') errs.push(required(p.child('reason'), ''));
  else {
    if (!REASON_RE.test(reason)) errs.push(invalid(p.child('reason'), reason, REASON_MSG));
    if (reason.length > MAX_REASON) errs.push(tooLong(p.child('reason'), '', MAX_REASON));
  }
  if (str(c.message).length > MAX_MESSAGE) errs.push(tooLong(p.child('message'), '', MAX_MESSAGE));
  return errs;
}

const isTrue = (svm: Obj, type: string) => objs(obj(svm.status)?.conditions).find((c) => c.type === type)?.status === 'True';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Go's `%#v` of a decoded `metav1.Time` (local time, the server's zone taken as UTC; zero when unset). */
function goTime(v: unknown): string {
  const d = typeof v === 'string' ? new Date(v) : undefined;
  if (d === undefined || Number.isNaN(d.getTime())) return 'v1.Time{Time:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)}';
  const parts = [d.getUTCFullYear(), `time.${MONTHS[d.getUTCMonth()]}`, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), 0];
  return `v1.Time{Time:time.Date(${parts.join(', ')}, time.Local)}`;
}

/** Go's `%#v` of the conditions, as upstream prints them in consistency errors. */
function goConditions(conditions: Obj[]): GoSyntax {
  const one = (c: Obj) =>
    `storagemigration.MigrationCondition{Type:${JSON.stringify(str(c.type))}, Status:${JSON.stringify(str(c.status))}, LastUpdateTime:${goTime(c.lastUpdateTime)}, Reason:${JSON.stringify(str(c.reason))}, Message:${JSON.stringify(str(c.message))}}`;
  return new GoSyntax(`[]storagemigration.MigrationCondition{${conditions.map(one).join(', ')}}`);
}

/** Status write (upstream `ValidateStorageVersionMigrationStatusUpdate`). */
export function validateStorageVersionMigrationStatusUpdate(svm: Obj, old: Obj): FieldError[] {
  const status = obj(svm.status) ?? {};
  const rv = str(status.resourceVersion);
  const errs: FieldError[] = [];
  const rvPath = STATUS.child('resourceVersion');
  if (rv !== '') {
    const err = parseIntError(rv);
    if (err !== undefined) errs.push(invalid(rvPath, rv, `failed to parse resource version ${JSON.stringify(rv)}: ${err}`));
    else if (BigInt(rv) < 0n) errs.push(invalid(rvPath, Number(BigInt(rv)), 'must be greater than or equal to 0'));
  }
  const conditions = objs(status.conditions);
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const type = str(c.type);
    if (seen.has(type)) errs.push(duplicate(CONDITIONS.index(i).child('type'), type));
    else seen.add(type);
    errs.push(...validateCondition(c, CONDITIONS.index(i)));
  });
  const oldRV = str(obj(old.status)?.resourceVersion);
  if (oldRV !== '' && oldRV !== rv) errs.push(invalid(rvPath, rv, 'cannot be updated'));
  const [succeeded, failed, running] = ['Succeeded', 'Failed', 'Running'].map((t) => isTrue(svm, t));
  const bad = (detail: string) => errs.push(invalid(CONDITIONS, goConditions(conditions), detail));
  if (succeeded && failed) bad('Both success and failed conditions cannot be true at the same time');
  if (succeeded && running) bad('Running condition cannot be true when success condition is true');
  if (failed && running) bad('Running condition cannot be true when failed condition is true');
  if (isTrue(old, 'Succeeded') && !succeeded) bad('Success condition cannot be set to false once it is true');
  if (isTrue(old, 'Failed') && !failed) bad('Failed condition cannot be set to false once it is true');
  return errs;
}

const migrationCondition = struct(`${ID}.MigrationCondition`, {
  type: field(1, string, { omitEmpty: false, description: 'Running, Succeeded or Failed.' }),
  status: field(2, string, { omitEmpty: false, description: 'True, False or Unknown.' }),
  lastUpdateTime: field(3, time, { omitEmpty: false, description: 'Last update of the condition.' }),
  reason: field(4, string, { description: 'Reason of the last transition.' }),
  message: field(5, string, { description: 'Details of the last transition.' }),
});

/** The StorageVersionMigration kind. */
export const storageVersionMigration = defineKind({
  group: STORAGE_MIGRATION_GROUP,
  version: 'v1alpha1',
  kind: 'StorageVersionMigration',
  resource: 'storageversionmigrations',
  singular: 'storageversionmigration',
  namespaced: false,
  statusSubresource: true,
  description: 'A migration of the stored objects of one resource to its storage version.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(
      2,
      struct(`${ID}.StorageVersionMigrationSpec`, {
        resource: field(
          1,
          struct(`${ID}.GroupVersionResource`, {
            group: field(1, string, { description: 'Group of the resource.' }),
            version: field(2, string, { description: 'Version of the resource.' }),
            resource: field(3, string, { description: 'Plural name of the resource.' }),
          }),
          { omitEmpty: false, default: {}, description: 'The resource to migrate; immutable.' },
        ),
        continueToken: field(2, string, { description: 'Token to resume the migration list from.' }),
      }),
      { omitEmpty: false, default: {}, description: 'What to migrate.' },
    ),
    status: field(
      3,
      struct(`${ID}.StorageVersionMigrationStatus`, {
        conditions: field(1, listOf(migrationCondition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }), { description: 'The state of the migration.' }),
        resourceVersion: field(2, string, { description: 'Resource version the migration lists from; set once.' }),
      }),
      { omitEmpty: false, default: {}, description: 'The progress of the migration.' },
    ),
  },
  validate: validateStorageVersionMigration,
  validateUpdate: validateStorageVersionMigrationUpdate,
  validateStatusUpdate: validateStorageVersionMigrationStatusUpdate,
});
