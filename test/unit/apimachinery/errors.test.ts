import { expect } from 'chai';
import {
  StatusError,
  causeReason,
  groupKindString,
  groupResourceString,
  isReason,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newForbiddenPath,
  newGone,
  newInternalError,
  newInvalid,
  newMethodNotSupported,
  newNotAcceptable,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServerTimeout,
  newServiceUnavailable,
  newTimeout,
  newTooLargeResourceVersion,
  newTooManyRequests,
  newUnauthorized,
  newUnsupportedMediaType,
  successStatus,
} from '../../../lib/apimachinery/errors.js';
import { forbidden, invalid, required, tooLong } from '../../../lib/apimachinery/field-errors.js';

const CM = { group: '', resource: 'configmaps' };
const DEPLOY = { group: 'apps', resource: 'deployments' };
const failure = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' } as const;

describe('errors: group/resource and group/kind strings', () => {
  it('core group resource is the bare resource', () => expect(groupResourceString(CM)).to.equal('configmaps'));
  it('named group resource is resource.group', () => expect(groupResourceString(DEPLOY)).to.equal('deployments.apps'));
  it('core group kind is the bare kind', () => expect(groupKindString({ group: '', kind: 'ConfigMap' })).to.equal('ConfigMap'));
  it('named group kind is Kind.group', () => expect(groupKindString({ group: 'apps', kind: 'Deployment' })).to.equal('Deployment.apps'));
});

describe('errors: the Status catalogue (ARCHITECTURE.md § Errors; spec 001 § Errors)', () => {
  const rows: Array<[string, () => StatusError, object, Record<string, string>?]> = [
    [
      'NotFound in the core group',
      () => newNotFound(CM, 'x'),
      { ...failure, message: 'configmaps "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'configmaps' }, code: 404 },
    ],
    [
      'NotFound in a named group',
      () => newNotFound(DEPLOY, 'd'),
      { ...failure, message: 'deployments.apps "d" not found', reason: 'NotFound', details: { name: 'd', group: 'apps', kind: 'deployments' }, code: 404 },
    ],
    [
      'AlreadyExists',
      () => newAlreadyExists(DEPLOY, 'd'),
      { ...failure, message: 'deployments.apps "d" already exists', reason: 'AlreadyExists', details: { name: 'd', group: 'apps', kind: 'deployments' }, code: 409 },
    ],
    [
      'Conflict with the optimistic-concurrency message',
      () => newConflict(CM, 'x'),
      {
        ...failure,
        message: 'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict',
        details: { name: 'x', kind: 'configmaps' },
        code: 409,
      },
    ],
    [
      'Conflict with a detail',
      () => newConflict(DEPLOY, 'd', 'Precondition failed: UID in precondition: a, UID in object meta: b'),
      {
        ...failure,
        message: 'Operation cannot be fulfilled on deployments.apps "d": Precondition failed: UID in precondition: a, UID in object meta: b',
        reason: 'Conflict',
        details: { name: 'd', group: 'apps', kind: 'deployments' },
        code: 409,
      },
    ],
    ['BadRequest', () => newBadRequest('bad'), { ...failure, message: 'bad', reason: 'BadRequest', code: 400 }],
    [
      'BadRequest with causes',
      () => newBadRequest('bad', [{ reason: 'FieldValueInvalid', message: 'm', field: 'f' }]),
      { ...failure, message: 'bad', reason: 'BadRequest', details: { causes: [{ reason: 'FieldValueInvalid', message: 'm', field: 'f' }] }, code: 400 },
    ],
    ['Unauthorized', () => newUnauthorized(), { ...failure, message: 'Unauthorized', reason: 'Unauthorized', code: 401 }],
    [
      'Forbidden on a named object',
      () => newForbidden(CM, 'x', 'User "u" cannot get resource "configmaps" in API group "" in the namespace "ns"'),
      {
        ...failure,
        message: 'configmaps "x" is forbidden: User "u" cannot get resource "configmaps" in API group "" in the namespace "ns"',
        reason: 'Forbidden',
        details: { name: 'x', kind: 'configmaps' },
        code: 403,
      },
    ],
    [
      'Forbidden on a collection',
      () => newForbidden(DEPLOY, '', 'User "u" cannot list resource "deployments" in API group "apps" at the cluster scope'),
      {
        ...failure,
        message: 'deployments.apps is forbidden: User "u" cannot list resource "deployments" in API group "apps" at the cluster scope',
        reason: 'Forbidden',
        details: { group: 'apps', kind: 'deployments' },
        code: 403,
      },
    ],
    [
      'Forbidden on a non-resource path',
      () => newForbiddenPath('User "u" cannot get path "/x"'),
      { ...failure, message: 'forbidden: User "u" cannot get path "/x"', reason: 'Forbidden', details: {}, code: 403 },
    ],
    [
      'MethodNotAllowed',
      () => newMethodNotSupported(DEPLOY, 'watch'),
      { ...failure, message: 'watch is not supported on resources of kind "deployments.apps"', reason: 'MethodNotAllowed', details: { group: 'apps', kind: 'deployments' }, code: 405 },
    ],
    [
      'NotAcceptable',
      () => newNotAcceptable(['application/json', 'application/yaml']),
      { ...failure, message: 'only the following media types are accepted: application/json, application/yaml', reason: 'NotAcceptable', code: 406 },
    ],
    [
      'UnsupportedMediaType',
      () => newUnsupportedMediaType(['application/json', 'application/yaml']),
      {
        ...failure,
        message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
        reason: 'UnsupportedMediaType',
        code: 415,
      },
    ],
    ['Gone', () => newGone('gone'), { ...failure, message: 'gone', reason: 'Gone', code: 410 }],
    ['Expired', () => newResourceExpired('too old resource version: 1 (5)'), { ...failure, message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 }],
    [
      'RequestEntityTooLarge',
      () => newRequestEntityTooLarge('limit is 3145728'),
      { ...failure, message: 'Request entity too large: limit is 3145728', reason: 'RequestEntityTooLarge', code: 413 },
    ],
    [
      'TooManyRequests',
      () => newTooManyRequests('slow down', 3),
      { ...failure, message: 'slow down', reason: 'TooManyRequests', details: { retryAfterSeconds: 3 }, code: 429 },
      { 'Retry-After': '3' },
    ],
    [
      'InternalError',
      () => newInternalError('boom'),
      { ...failure, message: 'Internal error occurred: boom', reason: 'InternalError', details: { causes: [{ message: 'boom' }] }, code: 500 },
    ],
    [
      'ServerTimeout',
      () => newServerTimeout(DEPLOY, 'list', 2),
      {
        ...failure,
        message: 'The list operation against deployments.apps could not be completed at this time, please try again.',
        reason: 'ServerTimeout',
        details: { name: 'list', group: 'apps', kind: 'deployments', retryAfterSeconds: 2 },
        code: 500,
      },
      { 'Retry-After': '2' },
    ],
    ['ServiceUnavailable', () => newServiceUnavailable('shutting down'), { ...failure, message: 'shutting down', reason: 'ServiceUnavailable', code: 503 }],
    [
      'Timeout',
      () => newTimeout('request did not complete within requested timeout - context deadline exceeded', 0),
      {
        ...failure,
        message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
        reason: 'Timeout',
        details: {},
        code: 504,
      },
      {},
    ],
    [
      'Timeout with Retry-After',
      () => newTimeout('later', 5),
      { ...failure, message: 'Timeout: later', reason: 'Timeout', details: { retryAfterSeconds: 5 }, code: 504 },
      { 'Retry-After': '5' },
    ],
    [
      'too large resource version',
      () => newTooLargeResourceVersion('100', '42', 1),
      {
        ...failure,
        message: 'Timeout: Too large resource version: 100, current: 42',
        reason: 'Timeout',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
        code: 504,
      },
      { 'Retry-After': '1' },
    ],
  ];
  for (const [what, make, status, headers] of rows) {
    it(`${what}: ${(status as { message: string }).message}`, () => {
      const err = make();
      expect(err).to.be.instanceOf(StatusError);
      expect(err.status).to.deep.equal(status);
      expect(err.code).to.equal((status as { code: number }).code);
      expect(err.message).to.equal((status as { message: string }).message);
      if (headers) expect(err.headers).to.deep.equal(headers);
    });
  }
});

describe('errors: newInvalid (422 with details.causes)', () => {
  const CMK = { group: '', kind: 'ConfigMap' };

  it('one error: the message ends with that error', () => {
    const err = newInvalid(CMK, 'x', [required('data')]);
    expect(err.status).to.deep.equal({
      ...failure,
      message: 'ConfigMap "x" is invalid: data: Required value',
      reason: 'Invalid',
      details: { name: 'x', kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'data' }] },
      code: 422,
    });
  });

  it('several errors: bracketed, comma-separated, one cause each in order', () => {
    const err = newInvalid({ group: 'apps', kind: 'Deployment' }, 'd', [invalid('metadata.name', 'D', 'bad'), forbidden('spec.selector', 'field is immutable')]);
    expect(err.status.message).to.equal('Deployment.apps "d" is invalid: [metadata.name: Invalid value: "D": bad, spec.selector: Forbidden: field is immutable]');
    expect(err.status.details).to.deep.equal({
      name: 'd',
      group: 'apps',
      kind: 'Deployment',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "D": bad', field: 'metadata.name' },
        { reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable', field: 'spec.selector' },
      ],
    });
  });

  it('no errors: the bare "is invalid" message and no causes', () => {
    const err = newInvalid(CMK, 'x', []);
    expect(err.status.message).to.equal('ConfigMap "x" is invalid');
    expect(err.status.details?.causes).to.deep.equal([]);
  });

  it('repeated identical errors are printed once in the message but all kept as causes', () => {
    const err = newInvalid(CMK, 'x', [required('data'), required('data')]);
    expect(err.status.message).to.equal('ConfigMap "x" is invalid: data: Required value');
    expect(err.status.details?.causes).to.have.length(2);
  });

  it('duplicates among several distinct errors are dropped from the bracketed list', () => {
    const err = newInvalid(CMK, 'x', [required('a'), required('b'), required('a')]);
    expect(err.status.message).to.equal('ConfigMap "x" is invalid: [a: Required value, b: Required value]');
  });

  it('cause reasons are the upstream wire names', () => {
    expect(causeReason(tooLong('a', 'x', 1))).to.equal('FieldValueTooLong');
    expect(causeReason({ type: 'InternalError', field: 'a', detail: 'x' })).to.equal('InternalError');
    expect(causeReason({ type: 'TypeInvalid', field: 'a', detail: 'x' })).to.equal('FieldValueTypeInvalid');
  });
});

describe('errors: helpers', () => {
  it('successStatus is a Success Status with code 200', () => {
    expect(successStatus({ name: 'x', kind: 'configmaps' })).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'x', kind: 'configmaps' },
      code: 200,
    });
  });

  it('isReason matches the reason of a StatusError only', () => {
    expect(isReason(newNotFound(CM, 'x'), 'NotFound')).to.equal(true);
    expect(isReason(newNotFound(CM, 'x'), 'Conflict')).to.equal(false);
    expect(isReason(new Error('NotFound'), 'NotFound')).to.equal(false);
  });
});
