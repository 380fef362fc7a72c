import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import {
  TOTAL_ANNOTATION_SIZE_LIMIT,
  validateAnnotations,
  validateLabels,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from '../../../../lib/apimachinery/validation/object-meta.js';
import { NAME_PART } from '../label-messages.js';

type Obj = Record<string, unknown>;

const SUBDOMAIN_RE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_RE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** Error strings of validating `meta` (namespaced, DNS subdomain names) on create. */
const create = (meta: Obj, namespaced = true) => validateObjectMeta(meta, namespaced, 'dns1123Subdomain').map(fieldErrorString);
/** Error strings of an update from `old` to `meta`. */
const update = (meta: Obj, old: Obj) => validateObjectMetaUpdate(meta, old).map(fieldErrorString);

describe('validation/object-meta: create (spec 000 § Type and object metadata, § Naming rules; spec 001 § Errors 422)', () => {
  const ok = { name: 'x', namespace: 'ns' };
  const rows: Array<[string, Obj, string[], boolean?]> = [
    ['a valid namespaced object', ok, []],
    ['a valid cluster-scoped object', { name: 'x' }, [], false],
    ['neither name nor generateName', { namespace: 'ns' }, ['metadata.name: Required value: name or generateName is required']],
    ['an invalid name', { ...ok, name: 'Bad_Name' }, [`metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_RE}`]],
    ['an invalid generateName (besides the missing name)', { namespace: 'ns', generateName: 'Web-' }, [
      `metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_RE}`,
      'metadata.name: Required value: name or generateName is required',
    ]],
    ['a generateName ending in a dash is valid', { ...ok, generateName: 'web-' }, []],
    ['a namespaced object without namespace', { name: 'x' }, ['metadata.namespace: Required value']],
    ['an invalid namespace', { ...ok, namespace: 'a.b' }, [`metadata.namespace: Invalid value: "a.b": ${LABEL_RE}`]],
    ['a cluster-scoped object with a namespace', { name: 'x', namespace: 'ns' }, ['metadata.namespace: Forbidden: not allowed on this type'], false],
    ['a negative generation', { ...ok, generation: -1 }, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    ['an invalid label key, reported at the map path', { ...ok, labels: { '-k': 'v' } }, [`metadata.labels: Invalid value: "-k": ${NAME_PART}`]],
    ['an invalid finalizer names the finalizer', { ...ok, finalizers: ['ok.io/f', 'bad/f/x'] }, [
      "metadata.finalizers: Invalid value: \"bad/f/x\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]],
    ['repeated finalizers are accepted', { ...ok, finalizers: ['a.io/f', 'a.io/f'] }, []],
    ['orphan and foregroundDeletion together', { ...ok, finalizers: ['orphan', 'foregroundDeletion'] }, [
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]],
    ['an owner reference without apiVersion, kind, name, uid', { ...ok, ownerReferences: [{}] }, [
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ]],
    ['an owner reference whose apiVersion has no version', { ...ok, ownerReferences: [{ apiVersion: 'apps/', kind: 'K', name: 'n', uid: 'u' }] }, [
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
    ]],
  ];
  for (const [what, meta, errs, namespaced] of rows) {
    it(what, () => {
      expect(create(meta, namespaced ?? true)).to.deep.equal(errs);
    });
  }

  it('two controller owner references: one error naming both, per extra controller', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'c', uid: '3', controller: true },
    ];
    const errs = validateObjectMeta({ ...ok, ownerReferences: refs }, true, 'dns1123Subdomain');
    expect(errs.map((e) => [e.field, e.detail])).to.deep.equal([
      ['metadata.ownerReferences', 'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b'],
      ['metadata.ownerReferences', 'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and Deployment/c'],
    ]);
  });

  it('one controller owner reference is valid', () => {
    expect(create({ ...ok, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true }] })).to.deep.equal([]);
  });
});

describe('validation/object-meta: labels and annotations', () => {
  it('an invalid label value is reported with the value', () => {
    expect(validateLabels({ k: '-v' }).map(fieldErrorString)).to.deep.equal([
      "metadata.labels: Invalid value: \"-v\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
  });

  it('annotation keys are checked case-insensitively', () => {
    expect(validateAnnotations({ 'Example.COM/Key': 'v' })).to.deep.equal([]);
  });

  it('an invalid annotation key is reported with the key as written', () => {
    expect(validateAnnotations({ 'A/B/C': 'v' }).map((e) => [e.field, e.badValue])).to.deep.equal([['metadata.annotations', 'A/B/C']]);
  });

  it('annotations up to 256 KiB in total are accepted', () => {
    expect(validateAnnotations({ k: 'v'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT - 1) })).to.deep.equal([]);
  });

  it('annotations over 256 KiB in total (keys and values, in bytes) are Too long', () => {
    expect(validateAnnotations({ k: 'é'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT / 2) }).map(fieldErrorString)).to.deep.equal([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
  });
});

describe('validation/object-meta: update (upstream ValidateObjectMetaUpdate)', () => {
  const old: Obj = { name: 'x', namespace: 'ns', uid: 'u1', creationTimestamp: '2024-05-01T10:00:00Z', resourceVersion: '5' };

  it('an unchanged object is valid', () => {
    expect(update({ ...old }, old)).to.deep.equal([]);
  });

  const immutable: Array<[string, unknown, string]> = [
    ['name', 'y', 'metadata.name: Invalid value: "y": field is immutable'],
    ['namespace', 'other', 'metadata.namespace: Invalid value: "other": field is immutable'],
    ['uid', 'u2', 'metadata.uid: Invalid value: "u2": field is immutable'],
  ];
  for (const [field, value, message] of immutable) {
    it(`${field} is immutable`, () => {
      expect(update({ ...old, [field]: value }, old)).to.deep.equal([message]);
    });
  }

  it('creationTimestamp is immutable', () => {
    expect(update({ ...old, creationTimestamp: '2025-01-01T00:00:00Z' }, old).map((m) => m.split(':')[0])).to.deep.equal(['metadata.creationTimestamp']);
  });

  /** [field, detail] of each error. */
  const details = (meta: Obj, before: Obj) => validateObjectMetaUpdate(meta, before).map((e) => [e.field, e.detail]);
  const terminating = { ...old, deletionTimestamp: '2024-05-02T00:00:00Z', deletionGracePeriodSeconds: 30 };

  it('a deletionTimestamp may not be set by an update', () => {
    expect(details({ ...old, deletionTimestamp: '2024-05-02T00:00:00Z' }, old)).to.deep.equal([['metadata.deletionTimestamp', 'field is immutable']]);
  });

  it('a deletionTimestamp may not be changed', () => {
    expect(details({ ...terminating, deletionTimestamp: '2024-05-03T00:00:00Z' }, terminating)).to.deep.equal([['metadata.deletionTimestamp', 'field is immutable']]);
  });

  it('a deletionTimestamp may not be removed', () => {
    const { deletionTimestamp: _dt, ...removed } = terminating;
    expect(update(removed, terminating)).to.deep.equal(['metadata.deletionTimestamp: Invalid value: "null": field is immutable']);
  });

  it('deletionGracePeriodSeconds may not be changed', () => {
    expect(update({ ...terminating, deletionGracePeriodSeconds: 0 }, terminating)).to.deep.equal([
      'metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable',
    ]);
  });

  it('deletionGracePeriodSeconds may not be set on a live object', () => {
    expect(update({ ...old, deletionGracePeriodSeconds: 0 }, old)).to.deep.equal(['metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable']);
  });

  it('no finalizer may be added once the object is terminating', () => {
    const terminating = { ...old, deletionTimestamp: '2024-05-02T00:00:00Z', finalizers: ['a.io/f'] };
    expect(update({ ...terminating, finalizers: ['a.io/f', 'b.io/g', 'a.io/z'] }, terminating)).to.deep.equal([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/z", "b.io/g"}',
    ]);
  });

  it('finalizers may be removed from a terminating object', () => {
    const terminating = { ...old, deletionTimestamp: '2024-05-02T00:00:00Z', finalizers: ['a.io/f', 'b.io/g'] };
    expect(update({ ...terminating, finalizers: ['b.io/g'] }, terminating)).to.deep.equal([]);
  });

  it('finalizers may be added to a live object', () => {
    expect(update({ ...old, finalizers: ['a.io/f'] }, old)).to.deep.equal([]);
  });

  it('labels are validated as on create', () => {
    expect(update({ ...old, labels: { '-k': 'v' } }, old)).to.deep.equal([`metadata.labels: Invalid value: "-k": ${NAME_PART}`]);
  });
});
