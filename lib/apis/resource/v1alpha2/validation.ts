/**
 * Validation of the `resource.<vendor>/v1alpha2` kinds with upstream v1.30's messages and field
 * paths (pkg/apis/resource/validation/validation.go and
 * pkg/apis/resource/structured/namedresources/validation). Object names and namespaces are
 * checked by the generic ObjectMeta validation (every kind's names are DNS subdomains).
 *
 * Differs from upstream: named-resources `selector` expressions are required but not compiled
 * as CEL (upstream compiles them in the named-resources CEL environment).
 */
import { duplicate, type FieldError, FieldPath, forbidden, GoSyntax, invalid, notSupported, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { validateAnnotations, validateLabels } from '../../../apimachinery/validation/object-meta.js';
import { list, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { validateNodeSelector } from '../../core/v1/scheduling-validation.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';

/** Most entries of `status.reservedFor` (upstream `ResourceClaimReservedForMaxSize`). */
export const RESERVED_FOR_MAX = 32;
/** Most `allocation.resourceHandles` (upstream `AllocationResultResourceHandlesMaxSize`). */
export const RESOURCE_HANDLES_MAX = 32;
/** Longest `resourceHandles[].data`, in bytes (upstream `ResourceHandleDataMaxSize`). */
export const RESOURCE_HANDLE_DATA_MAX = 16 * 1024;
/** Most potential or unsuitable nodes (upstream `PodSchedulingNodeListMaxSize`). */
export const NODE_LIST_MAX = 128;

const ALLOCATION_MODES = ['Immediate', 'WaitForFirstConsumer'];
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;
/** Upstream passes a nil path for the inline model of a ResourceSlice: Go prints it `<nil>`. */
const NIL_PATH = '<nil>';

/** `Too long: may not be longer than <max>` (upstream `field.TooLongMaxLength`; the value is not shown). */
function tooLongMaxLength(path: FieldPath, value: number, max: number): FieldError {
  return { type: 'TooLong', field: path.toString(), badValue: value, detail: `may not be longer than ${max}` };
}

/** A DNS subdomain (upstream `ValidateDNS1123Subdomain`, also node and instance names). */
function subdomain(value: string, path: FieldPath | string): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => invalid(path, value, m));
}

/** Longest driver name (upstream `ValidateCSIDriverName`, which `validateResourceDriverName` reuses). */
const DRIVER_NAME_MAX = 63;

/** A driver name, as a CSI driver's: required, at most 63 characters, a DNS subdomain once lower-cased. */
function driverName(value: unknown, path: FieldPath): FieldError[] {
  const name = str(value);
  const errs: FieldError[] = [];
  if (name === '') errs.push(required(path));
  if (name.length > DRIVER_NAME_MAX) errs.push(tooLong(path, name, DRIVER_NAME_MAX));
  for (const m of isDNS1123Subdomain(name.toLowerCase())) errs.push(invalid(path, name, m));
  return errs;
}

/** `kind` and `name` of a claim parameters reference; a class's also checks `namespace`. */
function validateParametersRef(ref: Obj | undefined, path: FieldPath, withNamespace: boolean): FieldError[] {
  if (ref === undefined) return [];
  const errs: FieldError[] = [];
  if (str(ref.kind) === '') errs.push(required(path.child('kind'), ''));
  if (str(ref.name) === '') errs.push(required(path.child('name'), ''));
  const ns = str(ref.namespace);
  if (withNamespace && ns !== '') errs.push(...isDNS1123Label(ns).map((m) => invalid(path.child('namespace'), ns, m)));
  return errs;
}

/** `ResourceClaimSpec` (upstream `validateResourceClaimSpec`). */
export function validateClaimSpec(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const className = str(spec.resourceClassName);
  errs.push(...subdomain(className, path.child('resourceClassName')));
  errs.push(...validateParametersRef(obj(spec.parametersRef), path.child('parametersRef'), false));
  const mode = str(spec.allocationMode);
  if (!ALLOCATION_MODES.includes(mode)) errs.push(notSupported(path.child('allocationMode'), mode, ALLOCATION_MODES));
  return errs;
}

/** ResourceClass (upstream `ValidateClass`, also on update). */
export function validateResourceClass(rc: Obj): FieldError[] {
  const errs = [...driverName(rc.driverName, FieldPath.of('driverName')), ...validateParametersRef(obj(rc.parametersRef), FieldPath.of('parametersRef'), true)];
  const nodes = obj(rc.suitableNodes);
  if (nodes !== undefined) errs.push(...validateNodeSelector(nodes, FieldPath.of('suitableNodes')));
  return errs;
}

/** Go's `%#v` of a `resource.ResourceClaimSpec`, as upstream prints an immutable-spec change. */
export function goClaimSpec(spec: Obj): GoSyntax {
  const ref = obj(spec.parametersRef);
  const q = (o: Obj, k: string) => JSON.stringify(str(o[k]));
  const refText = ref === undefined ? '(*resource.ResourceClaimParametersReference)(nil)' : `&resource.ResourceClaimParametersReference{APIGroup:${q(ref, 'apiGroup')}, Kind:${q(ref, 'kind')}, Name:${q(ref, 'name')}}`;
  return new GoSyntax(`resource.ResourceClaimSpec{ResourceClassName:${q(spec, 'resourceClassName')}, ParametersRef:${refText}, AllocationMode:${q(spec, 'allocationMode')}}`);
}

/** ResourceClaim on create (upstream `ValidateClaim`). */
export function validateResourceClaim(claim: Obj): FieldError[] {
  return validateClaimSpec(obj(claim.spec) ?? {}, FieldPath.of('spec'));
}

/** ResourceClaim update: the spec is immutable (upstream `ValidateClaimUpdate`). */
export function validateResourceClaimUpdate(claim: Obj, old: Obj): FieldError[] {
  const spec = obj(claim.spec) ?? {};
  return semanticEqual(spec, obj(old.spec) ?? {}) ? [] : [invalid('spec', goClaimSpec(spec), 'field is immutable')];
}

/** `status.allocation` (upstream `validateAllocationResult`). */
function validateAllocation(allocation: Obj | undefined, path: FieldPath): FieldError[] {
  if (allocation === undefined) return [];
  const errs: FieldError[] = [];
  const handles = objs(allocation.resourceHandles);
  const hPath = path.child('resourceHandles');
  handles.forEach((h, i) => {
    const p = hPath.index(i);
    errs.push(...driverName(h.driverName, p.child('driverName')));
    const data = str(h.data);
    if (data.length > RESOURCE_HANDLE_DATA_MAX) errs.push(tooLongMaxLength(p.child('data'), data.length, RESOURCE_HANDLE_DATA_MAX));
    const structured = obj(h.structuredData);
    if (structured !== undefined) errs.push(...validateStructuredHandle(structured, p.child('structuredData')));
    if (data.length > 0 && structured !== undefined) errs.push(invalid(p, null, 'data and structuredData are mutually exclusive'));
  });
  if (handles.length > RESOURCE_HANDLES_MAX) errs.push(tooLongMaxLength(hPath, handles.length, RESOURCE_HANDLES_MAX));
  const nodes = obj(allocation.availableOnNodes);
  if (nodes !== undefined) errs.push(...validateNodeSelector(nodes, path.child('availableOnNodes')));
  return errs;
}

/**
 * Go's `%#v` of a `*resource.AllocationResult`, as upstream prints an immutable-allocation
 * change; nested pointers set are shown as `&T{…}` where Go prints their address.
 */
function goAllocation(a: Obj): GoSyntax {
  const handles = objs(a.resourceHandles);
  const handleText = (h: Obj) =>
    `resource.ResourceHandle{DriverName:${JSON.stringify(str(h.driverName))}, Data:${JSON.stringify(str(h.data))}, StructuredData:${obj(h.structuredData) ? '&resource.StructuredResourceHandle{…}' : '(*resource.StructuredResourceHandle)(nil)'}}`;
  const handlesText = handles.length === 0 ? '[]resource.ResourceHandle(nil)' : `[]resource.ResourceHandle{${handles.map(handleText).join(', ')}}`;
  const nodes = obj(a.availableOnNodes) ? '&core.NodeSelector{…}' : '(*core.NodeSelector)(nil)';
  return new GoSyntax(`&resource.AllocationResult{ResourceHandles:${handlesText}, AvailableOnNodes:${nodes}, Shareable:${a.shareable === true}}`);
}

/** Exactly one model member set (upstream's `entries` switch); `member` validates the one there is. */
function oneModel(model: Obj, path: FieldPath | string, member: (m: Obj) => FieldError[]): FieldError[] {
  const named = obj(model.namedResources);
  if (named === undefined) return [required(path, 'exactly one structured model field must be set')];
  return member(named);
}

function validateStructuredHandle(handle: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const node = str(handle.nodeName);
  if (node !== '') errs.push(...subdomain(node, path.child('nodeName')));
  objs(handle.results).forEach((r, i) => {
    const p = path.child('results').index(i);
    errs.push(...oneModel(r, p, (named) => subdomain(str(named.name), p.child('namedResources', 'name'))));
  });
  return errs;
}

/** Distinct consumers, each with resource, name and uid (upstream `validateResourceClaimConsumers`). */
function validateConsumers(consumers: Obj[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  consumers.forEach((c, i) => {
    const p = path.index(i);
    const uid = str(c.uid);
    if (seen.has(uid)) {
      errs.push(duplicate(p.child('uid'), uid));
      return;
    }
    seen.add(uid);
    for (const k of ['resource', 'name', 'uid']) if (str(c[k]) === '') errs.push(required(p.child(k), ''));
  });
  if (consumers.length > RESERVED_FOR_MAX) errs.push(tooLongMaxLength(path, consumers.length, RESERVED_FOR_MAX));
  return errs;
}

/** ResourceClaim status write (upstream `ValidateClaimStatusUpdate`). */
export function validateResourceClaimStatusUpdate(claim: Obj, old: Obj): FieldError[] {
  const path = FieldPath.of('status');
  const status = obj(claim.status) ?? {};
  const oldStatus = obj(old.status) ?? {};
  const allocation = obj(status.allocation);
  const oldAllocation = obj(oldStatus.allocation);
  const reserved = objs(status.reservedFor);
  const deallocating = status.deallocationRequested === true;
  const errs: FieldError[] = [];
  if (str(status.driverName) !== '') errs.push(...driverName(status.driverName, path.child('driverName')));
  else if (allocation !== undefined) errs.push(required(path.child('driverName'), 'must be specified when `allocation` is set'));
  errs.push(...validateAllocation(allocation, path.child('allocation')));
  errs.push(...validateConsumers(reserved, path.child('reservedFor')));
  if (reserved.length > 0) {
    if (allocation === undefined) errs.push(forbidden(path.child('reservedFor'), 'may not be specified when `allocated` is not set'));
    else {
      if (allocation.shareable !== true && reserved.length > 1) errs.push(forbidden(path.child('reservedFor'), 'may not be reserved more than once'));
      const deleting = obj(claim.metadata)?.deletionTimestamp !== undefined;
      if (deleting || deallocating) {
        const before = new Set(objs(oldStatus.reservedFor).map((c) => JSON.stringify([str(c.apiGroup), str(c.resource), str(c.name), str(c.uid)])));
        if (reserved.some((c) => !before.has(JSON.stringify([str(c.apiGroup), str(c.resource), str(c.name), str(c.uid)]))))
          errs.push(forbidden(path.child('reservedFor'), 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
      }
    }
  }
  if (oldAllocation !== undefined && allocation !== undefined && !semanticEqual(allocation, oldAllocation))
    errs.push(invalid(path.child('allocation'), goAllocation(allocation), 'field is immutable'));
  if (oldStatus.deallocationRequested !== true && deallocating && reserved.length > 0)
    errs.push(forbidden(path.child('deallocationRequested'), 'deallocation cannot be requested while `reservedFor` is set'));
  if (allocation === undefined && deallocating) errs.push(forbidden(path, '`allocation` must be set when `deallocationRequested` is set'));
  if (oldStatus.deallocationRequested === true && !deallocating && allocation !== undefined)
    errs.push(forbidden(path.child('deallocationRequested'), 'may not be cleared when `allocation` is set'));
  return errs;
}

/** Metadata of a claim template's embedded claim (upstream `ValidateTemplateObjectMeta`). */
function validateTemplateMeta(meta: unknown, path: FieldPath): FieldError[] {
  const m = obj(meta) ?? {};
  const errs = [...validateAnnotations(m.annotations, path.child('annotations')), ...validateLabels(m.labels, path.child('labels'))];
  for (const [k, v] of Object.entries(m)) if (k !== 'labels' && k !== 'annotations' && !isZero(v)) errs.push(forbidden(path.child(k), 'cannot be set for a template'));
  return errs;
}

const isZero = (v: unknown): boolean => v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** ResourceClaimTemplate on create (upstream `ValidateClaimTemplate`). */
export function validateResourceClaimTemplate(t: Obj): FieldError[] {
  const spec = obj(t.spec) ?? {};
  const path = FieldPath.of('spec');
  return [...validateTemplateMeta(spec.metadata, path.child('metadata')), ...validateClaimSpec(obj(spec.spec) ?? {}, path.child('spec'))];
}

/** ResourceClaimTemplate update: the spec is immutable (upstream `ValidateClaimTemplateUpdate`). */
export function validateResourceClaimTemplateUpdate(t: Obj, old: Obj): FieldError[] {
  if (semanticEqual(obj(t.spec) ?? {}, obj(old.spec) ?? {})) return [];
  const claimSpec = goClaimSpec(obj(obj(t.spec)?.spec) ?? {}).text;
  return [invalid('spec', new GoSyntax(`resource.ResourceClaimTemplateSpec{ObjectMeta:v1.ObjectMeta{…}, Spec:${claimSpec}}`), 'field is immutable')];
}

/** A list of distinct node names of at most 128 (upstream `validateSliceIsASet` with `validateNodeName`). */
function validateNodeSet(names: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  names.forEach((n, i) => {
    if (seen.has(n)) errs.push(duplicate(path.index(i), n));
    else {
      errs.push(...subdomain(n, path.index(i)));
      seen.add(n);
    }
  });
  if (names.length > NODE_LIST_MAX) errs.push(tooLongMaxLength(path, names.length, NODE_LIST_MAX));
  return errs;
}

/** PodSchedulingContext on create and update (upstream `ValidatePodSchedulingContexts`). */
export function validatePodSchedulingContext(ctx: Obj): FieldError[] {
  return validateNodeSet(list(obj(ctx.spec)?.potentialNodes).map(str), FieldPath.of('spec', 'potentialNodes'));
}

/** PodSchedulingContext status write; upstream reports claims under `status.claims`. */
export function validatePodSchedulingContextStatusUpdate(ctx: Obj): FieldError[] {
  const path = FieldPath.of('status', 'claims');
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(obj(ctx.status)?.resourceClaims).forEach((c, i) => {
    errs.push(...validateNodeSet(list(c.unsuitableNodes).map(str), path.index(i).child('unsuitableNodes')));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(path.index(i), name));
    else names.add(name);
  });
  return errs;
}

/** Named-resources attributes (upstream `validateAttributes`). */
function validateAttributes(attrs: Obj[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  attrs.forEach((a, i) => {
    const p = path.index(i);
    const name = str(a.name);
    errs.push(...subdomain(name, p.child('name')));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
    const set = ['quantity', 'bool', 'int', 'intSlice', 'string', 'stringSlice', 'version'].filter((k) => a[k] !== undefined && a[k] !== null);
    if (typeof a.version === 'string' && !SEMVER.test(a.version)) errs.push(invalid(p.child('version'), a.version, 'must be a string compatible with semver.org spec 2.0.0'));
    if (set.length === 0) errs.push(required(p, 'exactly one value must be set'));
    else if (set.length > 1) errs.push(invalid(p, goSortedStrings(set), 'exactly one field must be set, not several'));
  });
  return errs;
}

/** Go's `%#v` of a sorted `[]string`. */
function goSortedStrings(values: string[]): GoSyntax {
  return new GoSyntax(`[]string{${[...values].sort().map((v) => JSON.stringify(v)).join(', ')}}`);
}

/** ResourceSlice on create (upstream `ValidateResourceSlice`). */
export function validateResourceSlice(slice: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const node = str(slice.nodeName);
  if (node !== '') errs.push(...subdomain(node, FieldPath.of('nodeName')));
  errs.push(...driverName(slice.driverName, FieldPath.of('driverName')));
  errs.push(
    ...oneModel(slice, NIL_PATH, (named) => {
      const p = FieldPath.of('namedResources', 'instances');
      const out: FieldError[] = [];
      const names = new Set<string>();
      objs(named.instances).forEach((inst, i) => {
        const name = str(inst.name);
        out.push(...subdomain(name, p.index(i).child('name')));
        if (names.has(name)) out.push(duplicate(p.index(i).child('name'), name));
        else names.add(name);
        out.push(...validateAttributes(objs(inst.attributes), p.index(i).child('attributes')));
      });
      return out;
    }),
  );
  return errs;
}

/** ResourceSlice update: `nodeName` and `driverName` are immutable. */
export function validateResourceSliceUpdate(slice: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['nodeName', 'driverName']) if (str(slice[k]) !== str(old[k])) errs.push(invalid(k, str(slice[k]), 'field is immutable'));
  return errs;
}

/** Distinct driver names over `items`, each a valid driver name; `each` checks the rest of an item. */
function perDriver(items: Obj[], path: FieldPath, each: (item: Obj, p: FieldPath) => FieldError[] = () => []): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const p = path.index(i);
    const name = str(item.driverName);
    errs.push(...driverName(name, p.child('driverName')));
    if (seen.has(name)) errs.push(duplicate(p.child('driverName'), name));
    else seen.add(name);
    errs.push(...each(item, p));
  });
  return errs;
}

/** A `selector` (required; see the module note on CEL). */
function validateSelector(model: Obj, path: FieldPath): FieldError[] {
  return str(model.selector) === '' ? [required(path.child('selector'), '')] : [];
}

/** ResourceClaimParameters (upstream `ValidateResourceClaimParameters`). */
export function validateResourceClaimParameters(p: Obj): FieldError[] {
  return [
    ...validateParametersRef(obj(p.generatedFrom), FieldPath.of('generatedFrom'), false),
    ...perDriver(objs(p.driverRequests), FieldPath.of('driverRequests'), (dr, path) => {
      const requests = objs(dr.requests);
      const errs = requests.flatMap((r, i) => oneModel(r, path.child('requests').index(i), (named) => validateSelector(named, path.child('requests').index(i).child('namedResources'))));
      if (requests.length === 0) errs.push(required(path.child('requests'), 'empty entries with no requests are not allowed'));
      return errs;
    }),
  ];
}

/** ResourceClassParameters (upstream `ValidateResourceClassParameters`). */
export function validateResourceClassParameters(p: Obj): FieldError[] {
  return [
    ...validateParametersRef(obj(p.generatedFrom), FieldPath.of('generatedFrom'), true),
    ...perDriver(objs(p.filters), FieldPath.of('filters'), (f, path) => oneModel(f, path, (named) => validateSelector(named, path.child('namedResources')))),
    ...perDriver(objs(p.vendorParameters), FieldPath.of('vendorParameters')),
  ];
}
