import { expect } from 'chai';
import { APIREGISTRATION_GROUP, apiService, apiregistrationV1Kinds } from '../../../../../lib/apis/apiregistration/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { apiServiceStrategies } from '../../../../../lib/registry/apiregistration/strategy.js';
import { internalContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields } from '../../kind-pipeline.js';

const ctx = internalContext({ name: 'test', groups: [] });
const apiVersion = `${APIREGISTRATION_GROUP}/v1`;
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const local = (spec: Obj = {}, name = 'v1beta1.metrics.example.com'): Obj => ({
  apiVersion,
  kind: 'APIService',
  metadata: { name },
  spec: { group: 'metrics.example.com', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 10, ...spec },
});
const aggregated = (service: Obj, spec: Obj = {}): Obj => local({ service, ...spec });
const defaulted = (o: Obj): Obj => {
  const copy = structuredClone(o);
  decodeAndDefault(apiService, copy);
  return copy;
};
const errorsOf = (o: Obj): string[] => messages(apiServiceStrategies.main.validate(ctx, defaulted(o)));

describe('apiregistration/v1 APIService: definition (issue #12)', () => {
  it('declares the upstream discovery facts', () => {
    expect(apiregistrationV1Kinds).to.deep.equal([apiService]);
    expect(apiService).to.include({ group: APIREGISTRATION_GROUP, version: 'v1', kind: 'APIService', resource: 'apiservices', singular: 'apiservice', namespaced: false, statusSubresource: true });
    expect(apiService.categories).to.deep.equal(['api-extensions']);
    expect(apiService.shortNames).to.deep.equal([]);
  });

  it('defaults the service port to 443 and writes a null service for a local APIService', () => {
    expect((defaulted(aggregated({ namespace: 'monitoring', name: 'metrics' })).spec as Obj).service).to.deep.equal({ namespace: 'monitoring', name: 'metrics', port: 443 });
    expect(errorsOf(local())).to.deep.equal([]);
    expect(errorsOf(aggregated({ namespace: 'monitoring', name: 'metrics' }))).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field, setting every field of the structure', () => {
    const f = { apiVersion, ...fixture('api-service') };
    expect(decodeAndDefault(apiService, f)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(apiService.schema, f, ['metadata.namespace'])).to.deep.equal([]);
  });
});

describe('apiregistration/v1 APIService: validation (upstream ValidateAPIService; 422 causes)', () => {
  const cases: [string, Obj, string[]][] = [
    ['the name is <version>.<group>', local({}, 'v1.metrics.example.com'), [
      'metadata.name: Invalid value: "v1.metrics.example.com": must be `spec.version+"."+spec.group`: "v1beta1.metrics.example.com"',
    ]],
    ['the name is a path segment first', local({}, 'v1beta1/x'), ["metadata.name: Invalid value: \"v1beta1/x\": may not contain '/'"]],
    ['only v1 may have an empty group', local({ group: '' }, 'v1beta1.'), ['spec.group: Required value: only v1 may have an empty group and it better be legacy kube']],
    ['the core group is v1 with an empty group', local({ group: '', version: 'v1' }, 'v1.'), []],
    ['the group is a DNS subdomain and the version a DNS-1035 label', local({ group: 'Metrics', version: 'V1' }, 'V1.Metrics'), [
      `spec.group: Invalid value: "Metrics": ${SUBDOMAIN}`,
      `spec.version: Invalid value: "V1": ${DNS1035}`,
    ]],
    ['priorities are in range', local({ groupPriorityMinimum: 20001, versionPriority: 0 }), [
      'spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
    ]],
    ['absent priorities read as 0', { ...local(), spec: { group: 'metrics.example.com', version: 'v1beta1' } }, [
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
    ]],
    ['a local APIService has no CA bundle and verifies TLS', local({ caBundle: 'YWJj', insecureSkipTLSVerify: true }), [
      'spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle',
      'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
    ]],
    ['a service has a namespace, a name and a valid port', aggregated({ port: 70000 }), [
      'spec.service.namespace: Required value',
      'spec.service.name: Required value',
      'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    ]],
    ['TLS verification is skipped only without a CA bundle', aggregated({ namespace: 'm', name: 's' }, { caBundle: 'YWJj', insecureSkipTLSVerify: true }), [
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
    ]],
  ];
  for (const [name, o, expected] of cases) it(name, () => expect(errorsOf(o)).to.deep.equal(expected));

  it('validates status writes: condition statuses are True, False or Unknown', () => {
    const old = defaulted({ ...local(), metadata: { name: 'v1beta1.metrics.example.com', resourceVersion: '2' } });
    const next = { ...old, status: { conditions: [{ type: 'Available', status: 'Maybe' }, { type: 'Other', status: 'False' }] } };
    expect(messages(apiServiceStrategies.status!.validateUpdate(ctx, next, old))).to.deep.equal([
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
    ]);
  });
});

describe('apiregistration/v1 APIService: strategy (upstream kube-aggregator apiservice strategy)', () => {
  it('marks a local APIService Available on create, and clears a client-set status', () => {
    const o = defaulted({ ...local(), status: { conditions: [{ type: 'Available', status: 'False' }] } });
    apiServiceStrategies.main.prepareForCreate(ctx, o);
    const [c] = (o.status as Obj).conditions as Obj[];
    expect(c).to.include({ type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' });
    expect(c!.lastTransitionTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((o.metadata as Obj).generation).to.equal(undefined);
  });

  it('leaves the status of an aggregated APIService empty on create and keeps status on main writes', () => {
    const o = defaulted({ ...aggregated({ namespace: 'm', name: 's' }), status: { conditions: [{ type: 'Available', status: 'True' }] } });
    apiServiceStrategies.main.prepareForCreate(ctx, o);
    expect(o.status).to.equal(undefined);
    const old = { ...o, status: { conditions: [{ type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck' }] } };
    const next = defaulted(local());
    apiServiceStrategies.main.prepareForUpdate(ctx, next, old);
    expect(next.status).to.deep.equal(old.status);
    expect(apiServiceStrategies.main.allowCreateOnUpdate()).to.equal(false);
    expect(apiServiceStrategies.main.allowUnconditionalUpdate()).to.equal(false);
  });
});
