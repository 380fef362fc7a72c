import { expect } from 'chai';
import { EvaluatorRegistry, countedResource, isIgnoredResource, objectCountName } from '../../../../lib/admission/plugins/resource-quota/evaluators.js';
import {
  addLists,
  exceededNames,
  listsEqual,
  prettyPrint,
  readResourceList,
  resourceListObject,
  subtractNonNegative,
} from '../../../../lib/admission/plugins/resource-quota/resource-list.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { BETA_STORAGE_CLASS_ANNOTATION, STORAGE_CLASS_QUOTA_SUFFIX, vendorGroup } from '../../../../lib/apis/vendor.js';

const registry = new EvaluatorRegistry();
const usage = (group: string, resource: string, o: Obj) => resourceListObject(registry.get(group, resource).usage(o, 0));

describe('ResourceQuota resource lists', () => {
  it('adds, subtracts without going negative, compares by value and prints sorted', () => {
    const a = readResourceList({ cpu: '500m', memory: '1Gi', pods: 2 });
    const b = readResourceList({ cpu: '1', 'limits.cpu': '2' });
    expect(resourceListObject(addLists(a, b))).to.deep.equal({ cpu: '1500m', 'limits.cpu': '2', memory: '1Gi', pods: '2' });
    expect(resourceListObject(subtractNonNegative(a, b))).to.deep.equal({ cpu: '0', 'limits.cpu': '0', memory: '1Gi', pods: '2' });
    expect(listsEqual(readResourceList({ memory: '1Gi' }), readResourceList({ memory: '1073741824' }))).to.equal(true);
    expect(listsEqual(readResourceList({ memory: '1Gi' }), readResourceList({ memory: '1G' }))).to.equal(false);
    expect(exceededNames(readResourceList({ cpu: '2', pods: '1' }), readResourceList({ cpu: '1', pods: '1', memory: '0' }))).to.deep.equal(['cpu']);
    expect(prettyPrint(readResourceList({ pods: '1', 'limits.cpu': '1500m', cpu: '0.5' }))).to.equal('cpu=500m,limits.cpu=1500m,pods=1');
  });

  it('skips values that are not quantities', () => {
    expect(resourceListObject(readResourceList({ cpu: 'lots', memory: {}, pods: '3' }))).to.deep.equal({ pods: '3' });
    expect(readResourceList('nope').size).to.equal(0);
  });
});

describe('ResourceQuota evaluators (upstream evaluator/core and generic)', () => {
  it('names object counts as upstream: count/<resource> in core, count/<resource>.<group> elsewhere', () => {
    expect(objectCountName('', 'pods')).to.equal('count/pods');
    expect(objectCountName('apps', 'deployments')).to.equal('count/deployments.apps');
    expect(countedResource(`count/roles.${vendorGroup('rbac.authorization')}`)).to.deep.equal({ group: vendorGroup('rbac.authorization'), resource: 'roles' });
    expect(countedResource('count/secrets')).to.deep.equal({ group: '', resource: 'secrets' });
    expect(countedResource('pods')).to.equal(undefined);
  });

  it('counts any other resource once per object, with the legacy alias where one exists, on create only', () => {
    expect(usage('', 'configmaps', {})).to.deep.equal({ configmaps: '1', 'count/configmaps': '1' });
    expect(usage('', 'secrets', {})).to.deep.equal({ 'count/secrets': '1', secrets: '1' });
    expect(usage('batch', 'jobs', {})).to.deep.equal({ 'count/jobs.batch': '1' });
    expect(registry.get('batch', 'jobs').handlesUpdate).to.equal(false);
    expect(registry.get('', 'pods').handlesUpdate).to.equal(false);
    expect(registry.get('', 'services').handlesUpdate).to.equal(true);
    expect(registry.get('', 'persistentvolumeclaims').handlesUpdate).to.equal(true);
  });

  it('charges services by type: node ports for NodePort and LoadBalancer (only explicit ones when allocation is off)', () => {
    const svc = (type: string, extra: Obj = {}) => ({ spec: { type, ports: [{ port: 1 }, { port: 2, nodePort: 30001 }], ...extra } });
    expect(usage('', 'services', svc('ClusterIP'))).to.deep.equal({ 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' });
    expect(usage('', 'services', svc('NodePort'))['services.nodeports']).to.equal('2');
    expect(usage('', 'services', svc('LoadBalancer'))).to.include({ 'services.loadbalancers': '1', 'services.nodeports': '2' });
    expect(usage('', 'services', svc('LoadBalancer', { allocateLoadBalancerNodePorts: false }))['services.nodeports']).to.equal('1');
    expect(registry.get('', 'services').replenishOnUpdate(svc('NodePort'), svc('ClusterIP'), 0)).to.equal(true);
  });

  it('charges claims by count and whole bytes of storage, also per storage class (the beta annotation wins)', () => {
    const claim = (storage: string, cls?: string, annotations?: Obj): Obj => ({
      metadata: { name: 'c', ...(annotations && { annotations }) },
      spec: { resources: { requests: { storage } }, ...(cls !== undefined && { storageClassName: cls }) },
    });
    expect(usage('', 'persistentvolumeclaims', claim('1Gi'))).to.deep.equal({ 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi' });
    expect(usage('', 'persistentvolumeclaims', claim('1500m'))['requests.storage'], 'rounded up to whole bytes').to.equal('2');
    const gold = usage('', 'persistentvolumeclaims', claim('2Gi', 'silver', { [BETA_STORAGE_CLASS_ANNOTATION]: 'gold' }));
    expect(gold[`gold${STORAGE_CLASS_QUOTA_SUFFIX}requests.storage`]).to.equal('2Gi');
    expect(gold[`gold${STORAGE_CLASS_QUOTA_SUFFIX}persistentvolumeclaims`]).to.equal('1');
    expect(Object.keys(gold).some((k) => k.startsWith('silver'))).to.equal(false);
    const e = registry.get('', 'persistentvolumeclaims');
    expect(e.matchingResources([`x${STORAGE_CLASS_QUOTA_SUFFIX}requests.storage`, 'requests.storage', 'pods', 'count/persistentvolumeclaims'])).to.have.length(3);
  });

  it('finds the evaluators of a quota’s names, and ignores the resources upstream ignores', () => {
    const found = registry.forNames(['pods', 'configmaps', 'count/deployments.apps', 'services.nodeports']).map((e) => `${e.group}/${e.resource}`);
    expect(found.sort()).to.deep.equal(['/configmaps', '/pods', '/services', 'apps/deployments']);
    expect(isIgnoredResource('', 'events')).to.equal(true);
    expect(isIgnoredResource(vendorGroup('events'), 'events')).to.equal(true);
    expect(isIgnoredResource(vendorGroup('authorization'), 'subjectaccessreviews')).to.equal(true);
    expect(isIgnoredResource('', 'bindings')).to.equal(true);
    expect(isIgnoredResource('', 'pods')).to.equal(false);
  });
});
