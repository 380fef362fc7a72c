import { expect } from 'chai';
import {
  isBestEffort,
  isPodResource,
  isQuotaPod,
  podConstraintViolation,
  podMatchesScope,
  podUsage,
  usesCrossNamespacePodAffinity,
} from '../../../../lib/admission/plugins/resource-quota/pods.js';
import { resourceListObject } from '../../../../lib/admission/plugins/resource-quota/resource-list.js';
import type { Obj } from '../../../../lib/apis/define.js';

const NOW = Date.parse('2024-05-01T00:00:00Z');
const c = (name: string, requests?: Obj, limits?: Obj, extra: Obj = {}): Obj => ({ name, image: 'x', resources: { ...(requests && { requests }), ...(limits && { limits }) }, ...extra });
const podOf = (spec: Obj, rest: Obj = {}): Obj => ({ metadata: { name: 'p' }, spec, ...rest });
const usage = (pod: Obj) => resourceListObject(podUsage(pod, NOW));

describe('ResourceQuota pod usage (upstream pods.go)', () => {
  it('charges pods, count/pods and the compute resources, with cpu and memory as request shorthands', () => {
    const pod = podOf({ containers: [c('a', { cpu: '250m', memory: '64Mi', 'ephemeral-storage': '1Gi' }, { cpu: '1', memory: '128Mi' }), c('b', { cpu: '250m' })] });
    expect(usage(pod)).to.deep.equal({
      'count/pods': '1',
      cpu: '500m',
      'ephemeral-storage': '1Gi',
      'limits.cpu': '1',
      'limits.memory': '128Mi',
      memory: '64Mi',
      pods: '1',
      'requests.cpu': '500m',
      'requests.ephemeral-storage': '1Gi',
      'requests.memory': '64Mi',
    });
  });

  it('charges hugepages and extended resources as requests', () => {
    const pod = podOf({ containers: [c('a', { 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2' }, { 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2' })] });
    expect(usage(pod)).to.deep.equal({ 'count/pods': '1', 'hugepages-2Mi': '4Mi', pods: '1', 'requests.example.com/gpu': '2', 'requests.hugepages-2Mi': '4Mi' });
  });

  it('takes the larger of the containers and each init container, adds sidecars and overhead', () => {
    const pod = podOf({
      containers: [c('a', { cpu: '100m' }, { cpu: '200m' })],
      initContainers: [c('side', { cpu: '50m' }, undefined, { restartPolicy: 'Always' }), c('init', { cpu: '500m' }, { cpu: '1' })],
      overhead: { cpu: '10m', memory: '10Mi' },
    });
    const u = usage(pod);
    // containers + sidecar = 150m; the init container runs beside the sidecar: 550m; + overhead.
    expect(u['requests.cpu']).to.equal('560m');
    expect(u['requests.memory']).to.equal('10Mi');
    // limits: max(200m, 1) + overhead on limited resources only.
    expect(u['limits.cpu']).to.equal('1010m');
    expect(u['limits.memory']).to.equal(undefined);
  });

  it('charges only count/pods for terminal pods and pods past their deletion grace period', () => {
    const containers = [c('a', { cpu: '1' })];
    expect(usage(podOf({ containers }, { status: { phase: 'Succeeded' } }))).to.deep.equal({ 'count/pods': '1' });
    expect(usage(podOf({ containers }, { status: { phase: 'Failed' } }))).to.deep.equal({ 'count/pods': '1' });
    const deleting = (at: string) => podOf({ containers }, { metadata: { name: 'p', deletionTimestamp: at, deletionGracePeriodSeconds: 30 } });
    expect(isQuotaPod(deleting('2024-04-30T23:59:00Z'), NOW)).to.equal(false);
    expect(isQuotaPod(deleting('2024-04-30T23:59:45Z'), NOW)).to.equal(true);
    expect(usage(podOf({ containers }, { status: { phase: 'Running' } })).pods).to.equal('1');
  });

  it('knows which quota names a pod is charged against', () => {
    for (const n of ['pods', 'count/pods', 'cpu', 'limits.memory', 'requests.ephemeral-storage', 'hugepages-1Gi', 'requests.hugepages-1Gi', 'requests.example.com/gpu']) expect(isPodResource(n), n).to.equal(true);
    for (const n of ['services', 'requests.storage', 'count/secrets', 'example.com/gpu', 'limits.example.com/gpu']) expect(isPodResource(n), n).to.equal(false);
  });

  it('requires each container and init container to state cpu and memory a quota constrains, in upstream wording', () => {
    const pod = podOf({ containers: [c('b'), c('a', { cpu: '1' })], initContainers: [c('i', { memory: '1Mi' }, { memory: '1Mi' })] });
    expect(podConstraintViolation(['requests.cpu', 'limits.memory', 'pods', 'requests.storage'], pod)).to.equal('must specify limits.memory for: a,b; requests.cpu for: b,i');
    expect(podConstraintViolation(['pods', 'requests.ephemeral-storage'], pod)).to.equal(undefined);
    expect(podConstraintViolation(['cpu'], podOf({ containers: [c('a', { cpu: '1' })] }))).to.equal(undefined);
  });
});

describe('ResourceQuota pod scopes', () => {
  const sel = (scopeName: string, operator = 'Exists', values: string[] = []) => ({ scopeName, operator, values });
  const burstable = podOf({ containers: [c('a', { cpu: '1' })] });
  const bestEffort = podOf({ containers: [c('a')] });

  it('tells BestEffort pods by their containers, or by status.qosClass when set', () => {
    expect(isBestEffort(bestEffort)).to.equal(true);
    expect(isBestEffort(burstable)).to.equal(false);
    expect(isBestEffort(podOf({ containers: [c('a', { cpu: '0' })] })), 'zero requests').to.equal(true);
    expect(isBestEffort(podOf({ containers: [c('a')], initContainers: [c('i', undefined, { memory: '1Mi' })] }))).to.equal(false);
    expect(isBestEffort({ ...burstable, status: { qosClass: 'BestEffort' } })).to.equal(true);
    expect(podMatchesScope(sel('BestEffort'), bestEffort)).to.equal(true);
    expect(podMatchesScope(sel('NotBestEffort'), bestEffort)).to.equal(false);
  });

  it('tells Terminating pods by a non-negative activeDeadlineSeconds', () => {
    expect(podMatchesScope(sel('Terminating'), podOf({ containers: [], activeDeadlineSeconds: 0 }))).to.equal(true);
    expect(podMatchesScope(sel('NotTerminating'), podOf({ containers: [] }))).to.equal(true);
    expect(podMatchesScope(sel('Terminating'), podOf({ containers: [] }))).to.equal(false);
  });

  it('matches the PriorityClass scope with In, NotIn, Exists and DoesNotExist', () => {
    const gold = podOf({ containers: [], priorityClassName: 'gold' });
    const none = podOf({ containers: [] });
    expect(podMatchesScope(sel('PriorityClass', 'In', ['gold', 'silver']), gold)).to.equal(true);
    expect(podMatchesScope(sel('PriorityClass', 'In', ['silver']), gold)).to.equal(false);
    expect(podMatchesScope(sel('PriorityClass', 'NotIn', ['silver']), gold)).to.equal(true);
    expect(podMatchesScope(sel('PriorityClass', 'NotIn', ['gold']), gold)).to.equal(false);
    expect(podMatchesScope(sel('PriorityClass', 'NotIn', ['gold']), none)).to.equal(true);
    expect(podMatchesScope(sel('PriorityClass', 'Exists'), none)).to.equal(false);
    expect(podMatchesScope(sel('PriorityClass', 'DoesNotExist'), none)).to.equal(true);
    expect(podMatchesScope(sel('Unknown'), gold)).to.equal(false);
  });

  it('tells pods whose (anti-)affinity terms name other namespaces', () => {
    const term = (t: Obj) => ({ topologyKey: 'k', labelSelector: {}, ...t });
    expect(usesCrossNamespacePodAffinity(podOf({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: ['x'] })] } } }))).to.equal(true);
    expect(usesCrossNamespacePodAffinity(podOf({ affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term({ namespaceSelector: {} }) }] } } }))).to.equal(true);
    expect(usesCrossNamespacePodAffinity(podOf({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({})] } } }))).to.equal(false);
    expect(podMatchesScope(sel('CrossNamespacePodAffinity'), podOf({}))).to.equal(false);
  });
});
