import { expect } from 'chai';
import { type QuotaRequest, checkRequest, quotaState } from '../../../../lib/admission/plugins/resource-quota/check.js';
import { RESOURCE_QUOTA_CONFIG_GROUP, loadResourceQuotaConfig } from '../../../../lib/admission/plugins/resource-quota/config.js';
import { EvaluatorRegistry } from '../../../../lib/admission/plugins/resource-quota/evaluators.js';
import { resourceListObject } from '../../../../lib/admission/plugins/resource-quota/resource-list.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';

const registry = new EvaluatorRegistry();
const q = (name: string, hard: Obj, used?: Obj, spec: Obj = {}) => quotaState({ metadata: { name, namespace: 'ns', resourceVersion: '5' }, spec: { hard, ...spec }, status: { hard, ...(used && { used }) } });
const pod = (name: string, requests?: Obj): Obj => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'x', ...(requests && { resources: { requests } }) }] } });
const create = (object: Obj, resource = 'pods'): QuotaRequest => ({ operation: 'CREATE', group: '', resource, object, oldObject: null });

function rejection(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(StatusError);
    return err as StatusError;
  }
  throw new Error('not rejected');
}

describe('ResourceQuota checkRequest (upstream CheckRequest)', () => {
  const pods = registry.get('', 'pods');
  const services = registry.get('', 'services');

  it('adds the cost to every quota that tracks the object and leaves the others', () => {
    const quotas = [q('a', { pods: '3' }, { pods: '1' }), q('b', { 'requests.cpu': '2' }, { 'requests.cpu': '0' }), q('c', { services: '1' }, { services: '0' })];
    const out = checkRequest(quotas, create(pod('p', { cpu: '500m' })), pods, 0);
    expect(out.map((x) => resourceListObject(x.used))).to.deep.equal([{ pods: '2' }, { 'requests.cpu': '500m' }, { services: '0' }]);
    expect(quotas[0]!.used.get('pods')!.toString(), 'inputs unchanged').to.equal('1');
  });

  it('rejects with upstream message, naming only the exceeded resources', () => {
    const quotas = [q('compute', { pods: '5', 'requests.cpu': '1' }, { pods: '1', 'requests.cpu': '800m' })];
    const err = rejection(() => checkRequest(quotas, create(pod('p', { cpu: '300m' })), pods, 0));
    expect(err.status.code).to.equal(403);
    expect(err.status.message).to.equal('pods "p" is forbidden: exceeded quota: compute, requested: requests.cpu=300m, used: requests.cpu=800m, limited: requests.cpu=1');
  });

  it('skips quotas without status.hard (not synced yet) and rejects a tracked amount without usage', () => {
    const unsynced = quotaState({ metadata: { name: 'new' }, spec: { hard: { pods: '1' } } });
    expect(checkRequest([unsynced], create(pod('p')), pods, 0)).to.deep.equal([unsynced]);
    const noUsed = q('q', { pods: '1', cpu: '1' }, { pods: '0' });
    expect(rejection(() => checkRequest([noUsed], create(pod('p', { cpu: '1' })), pods, 0)).status.message).to.equal('pods "p" is forbidden: status unknown for quota: q, resources: cpu,pods');
  });

  it('rejects a container that does not state what the quota constrains', () => {
    const err = rejection(() => checkRequest([q('q', { 'limits.cpu': '1' }, { 'limits.cpu': '0' })], create(pod('p')), pods, 0));
    expect(err.status.message).to.equal('pods "p" is forbidden: failed quota: q: must specify limits.cpu for: c');
  });

  it('honours scopes: a BestEffort quota ignores a pod with requests', () => {
    const quotas = [q('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] })];
    expect(checkRequest(quotas, create(pod('p', { cpu: '1m' })), pods, 0)).to.equal(quotas);
    expect(rejection(() => checkRequest(quotas, create(pod('p')), pods, 0)).status.message).to.match(/exceeded quota: be, requested: pods=1/);
  });

  it('charges an update only for what grows, and nothing when the cost does not', () => {
    const quotas = [q('svc', { 'services.nodeports': '3', services: '2' }, { 'services.nodeports': '1', services: '1' })];
    const old = { metadata: { name: 's', resourceVersion: '3' }, spec: { type: 'NodePort', ports: [{ port: 1 }] } };
    const grown = { metadata: { name: 's', resourceVersion: '3' }, spec: { type: 'NodePort', ports: [{ port: 1 }, { port: 2 }] } };
    const update = (object: Obj, oldObject: Obj | null): QuotaRequest => ({ operation: 'UPDATE', group: '', resource: 'services', object, oldObject });
    expect(resourceListObject(checkRequest(quotas, update(grown, old), services, 0)[0]!.used)).to.deep.equal({ services: '1', 'services.nodeports': '2' });
    expect(checkRequest(quotas, update(old, grown), services, 0)).to.equal(quotas);
    expect(rejection(() => checkRequest(quotas, update(grown, null), services, 0)).status.message).to.equal(
      'services "s" is forbidden: unable to get previous usage since prior version of object was not found',
    );
  });

  it('rejects negative usage', () => {
    const claim = { metadata: { generateName: 'c-' }, spec: { resources: { requests: { storage: '-1' } } } };
    const err = rejection(() => checkRequest([q('s', { 'requests.storage': '1Gi' }, { 'requests.storage': '0' })], create(claim, 'persistentvolumeclaims'), registry.get('', 'persistentvolumeclaims'), 0));
    expect(err.status.message).to.equal('persistentvolumeclaims "c-" is forbidden: quota usage is negative for resource(s): requests.storage');
  });
});

describe('ResourceQuota limitedResources (upstream admission configuration)', () => {
  const pods = registry.get('', 'pods');
  const limited = loadResourceQuotaConfig({
    apiVersion: `${RESOURCE_QUOTA_CONFIG_GROUP}/v1beta1`,
    kind: 'Configuration',
    limitedResources: [{ resource: 'pods', matchContains: ['cpu'], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['critical', 'high'] }] }],
  });

  it('reads the configuration, also in the upstream group spelling, and refuses an entry without resource', () => {
    expect(limited).to.deep.equal([{ apiGroup: '', resource: 'pods', matchContains: ['cpu'], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['critical', 'high'] }] }]);
    expect(loadResourceQuotaConfig({ apiVersion: 'resourcequota.admission.k8s.io/v1', kind: 'Configuration', limitedResources: [{ apiGroup: 'apps', resource: 'deployments' }] })[0]!.apiGroup).to.equal('apps');
    expect(() => loadResourceQuotaConfig({ apiVersion: `${RESOURCE_QUOTA_CONFIG_GROUP}/v1`, kind: 'Configuration', limitedResources: [{ matchContains: ['x'] }] })).to.throw('limitedResources[0].resource: Required value');
    expect(() => loadResourceQuotaConfig({ apiVersion: 'v1', kind: 'Pod' })).to.throw(/ResourceQuota configuration error/);
    expect(loadResourceQuotaConfig(undefined)).to.deep.equal([]);
  });

  it('forbids consuming a limited resource no quota covers', () => {
    const err = rejection(() => checkRequest([], create(pod('p', { cpu: '1' })), pods, 0, limited));
    expect(err.status.message).to.equal('pods "p" is forbidden: insufficient quota to consume: cpu,requests.cpu');
    expect(checkRequest([], create(pod('p')), pods, 0, limited)).to.deep.equal([]);
    const covering = [q('compute', { cpu: '2', 'requests.cpu': '2' }, { cpu: '0', 'requests.cpu': '0' })];
    expect(resourceListObject(checkRequest(covering, create(pod('p', { cpu: '1' })), pods, 0, limited)[0]!.used)).to.deep.equal({ cpu: '1', 'requests.cpu': '1' });
  });

  it('fails a pod in a limited scope that no quota with that scope covers, as upstream (500, no reason)', () => {
    const critical = { ...pod('c'), spec: { priorityClassName: 'critical', containers: [{ name: 'c', image: 'x' }] } };
    const err = rejection(() => checkRequest([], create(critical), pods, 0, limited));
    expect(err.status).to.deep.include({ code: 500, message: 'insufficient quota to match these scopes: [{PriorityClass In [critical high]}]' });
    expect(err.status.reason).to.equal(undefined);
    const scoped = [q('crit', { pods: '5' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['critical'] }] } })];
    expect(resourceListObject(checkRequest(scoped, create(critical), pods, 0, limited)[0]!.used)).to.deep.equal({ pods: '1' });
  });
});
