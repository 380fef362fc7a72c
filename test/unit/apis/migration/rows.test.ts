/**
 * Every row of the migration map (spec 001 § Removed API versions) with a replacement: an object
 * in the removed version, converted to the replacement version, gives the expected object with the
 * row's notable changes applied. Rows without notable changes must give exactly what the same
 * object written in the replacement version gives. The table must cover every row of MIGRATIONS.
 */
import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/define.js';
import { ConversionError, DecodeError, convertObject } from '../../../../lib/apis/migration/convert.js';
import { BUILTIN_SCHEME } from '../../../../lib/cmd/convert-scheme.js';
import { MIGRATIONS, apiVersionOf, migrationFor } from '../../../../lib/apis/migration/index.js';
import { APF_PRESERVE_ZERO_SHARES_ANNOTATION, HPA_BEHAVIOR_ANNOTATION, PDB_V1BETA1_SELECTOR_LABEL, vendorGroup } from '../../../../lib/apis/vendor.js';
import { covers } from '../../../conformance/covers.js';
import { migrationSpecRow } from '../../../framework/migration-spec-rows.js';

const G = vendorGroup;
const key = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;

/** The spec 001 migration-map row of the map entry for `kind` in `from` (`group/version`), as a title tag. */
function specTag(from: string, kind: string): string {
  const [group, version] = from.includes('/') ? from.split('/') : ['', from];
  const row = migrationFor(group!, version!, kind);
  if (!row) throw new Error(`no migration row for ${from} ${kind}`);
  return covers(migrationSpecRow(row.from.group, row.from.kind, row.removedIn));
}

/** Converts `obj` (in `from`) to the group/version of `to`. */
function convert(from: string, kind: string, body: Obj, to: string): Obj {
  const [group, version] = to.includes('/') ? to.split('/') : ['', to];
  return convertObject(BUILTIN_SCHEME, { apiVersion: from, kind, ...body }, { group: group!, version: version! });
}

/** A row with no notable change: the same object in either version converts to the same result. */
interface SameCase {
  from: string;
  to: string;
  kind: string;
  body: Obj;
}

const meta = (name: string, namespace?: string): Obj => ({ metadata: namespace ? { name, namespace } : { name } });
const podTemplate = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

const sameCases: SameCase[] = [
  { from: `${G('storage')}/v1beta1`, to: `${G('storage')}/v1`, kind: 'CSIStorageCapacity', body: { ...meta('c', 'ns'), storageClassName: 'fast', capacity: '10Gi' } },
  {
    from: 'autoscaling/v2beta2',
    to: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    body: {
      ...meta('h', 'ns'),
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } }],
        behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
      },
    },
  },
  { from: 'batch/v1beta1', to: 'batch/v1', kind: 'CronJob', body: { ...meta('cj', 'ns'), spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } } } },
  { from: `${G('events')}/v1beta1`, to: `${G('events')}/v1`, kind: 'Event', body: { ...meta('e', 'ns'), eventTime: '2024-01-01T00:00:00.000000Z', reason: 'Started', action: 'Start', note: 'n', type: 'Normal', reportingController: 'x/y', reportingInstance: 'i', regarding: { kind: 'Pod', name: 'p', namespace: 'ns' } } },
  { from: `${G('node')}/v1beta1`, to: `${G('node')}/v1`, kind: 'RuntimeClass', body: { ...meta('rc'), handler: 'runc', overhead: { podFixed: { cpu: '100m' } } } },
  { from: `${G('apiregistration')}/v1beta1`, to: `${G('apiregistration')}/v1`, kind: 'APIService', body: { ...meta('v1.example.com'), spec: { group: 'example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'ns', name: 's' } } } },
  { from: `${G('authentication')}/v1beta1`, to: `${G('authentication')}/v1`, kind: 'TokenReview', body: { ...meta(''), spec: { token: 'abc', audiences: ['api'] } } },
  { from: `${G('coordination')}/v1beta1`, to: `${G('coordination')}/v1`, kind: 'Lease', body: { ...meta('l', 'ns'), spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } } },
  { from: `${G('networking')}/v1beta1`, to: `${G('networking')}/v1`, kind: 'IngressClass', body: { ...meta('ic'), spec: { controller: 'example.com/ingress', parameters: { kind: 'Params', name: 'p', scope: 'Cluster' } } } },
  { from: `${G('rbac.authorization')}/v1beta1`, to: `${G('rbac.authorization')}/v1`, kind: 'Role', body: { ...meta('r', 'ns'), rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } },
  { from: `${G('rbac.authorization')}/v1beta1`, to: `${G('rbac.authorization')}/v1`, kind: 'ClusterRole', body: { ...meta('cr'), rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] } },
  { from: `${G('rbac.authorization')}/v1beta1`, to: `${G('rbac.authorization')}/v1`, kind: 'RoleBinding', body: { ...meta('rb', 'ns'), roleRef: { apiGroup: G('rbac.authorization'), kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u', apiGroup: G('rbac.authorization') }] } },
  { from: `${G('rbac.authorization')}/v1beta1`, to: `${G('rbac.authorization')}/v1`, kind: 'ClusterRoleBinding', body: { ...meta('crb'), roleRef: { apiGroup: G('rbac.authorization'), kind: 'ClusterRole', name: 'cr' }, subjects: [{ kind: 'Group', name: 'g', apiGroup: G('rbac.authorization') }] } },
  { from: `${G('scheduling')}/v1beta1`, to: `${G('scheduling')}/v1`, kind: 'PriorityClass', body: { ...meta('pc'), value: 1000, description: 'd' } },
  { from: `${G('storage')}/v1beta1`, to: `${G('storage')}/v1`, kind: 'CSIDriver', body: { ...meta('d'), spec: { attachRequired: false } } },
  { from: `${G('storage')}/v1beta1`, to: `${G('storage')}/v1`, kind: 'CSINode', body: { ...meta('n'), spec: { drivers: [{ name: 'd', nodeID: 'n1' }] } } },
  { from: `${G('storage')}/v1beta1`, to: `${G('storage')}/v1`, kind: 'StorageClass', body: { ...meta('sc'), provisioner: 'example.com/p', reclaimPolicy: 'Retain' } },
  { from: `${G('storage')}/v1beta1`, to: `${G('storage')}/v1`, kind: 'VolumeAttachment', body: { ...meta('va'), spec: { attacher: 'a', nodeName: 'n1', source: { persistentVolumeName: 'pv' } } } },
  { from: 'extensions/v1beta1', to: `${G('networking')}/v1`, kind: 'NetworkPolicy', body: { ...meta('np', 'ns'), spec: { podSelector: { matchLabels: { a: 'b' } }, ingress: [{ ports: [{ port: 80 }] }] } } },
  ...['v1beta1', 'v1beta2', 'v1beta3'].map((v) => ({
    from: `${G('flowcontrol.apiserver')}/${v}`,
    to: `${G('flowcontrol.apiserver')}/v1`,
    kind: 'FlowSchema',
    body: { ...meta('fs'), spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 500, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] } },
  })),
  { from: `${G('authorization')}/v1beta1`, to: `${G('authorization')}/v1`, kind: 'SelfSubjectAccessReview', body: { ...meta(''), spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } } },
  { from: `${G('authorization')}/v1beta1`, to: `${G('authorization')}/v1`, kind: 'SelfSubjectRulesReview', body: { ...meta(''), spec: { namespace: 'ns' } } },
  ...['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'].map((kind) => ({
    from: 'apps/v1beta2',
    to: 'apps/v1',
    kind,
    body: { ...meta('w', 'ns'), spec: { selector: { matchLabels: { app: 'a' } }, template: podTemplate } },
  })),
];

/** A row with notable changes: the expected values at dotted paths (`undefined`: absent). */
interface ChangeCase {
  name: string;
  from: string;
  to: string;
  kind: string;
  body: Obj;
  expect: Record<string, unknown>;
}

/** The value at a dotted path (`spec.rules.0.http`). */
function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[p];
  }
  return cur;
}

const ingressBody: Obj = {
  ...meta('web', 'ns'),
  spec: {
    backend: { serviceName: 'default', servicePort: 8080 },
    rules: [
      {
        host: 'example.com',
        http: {
          paths: [
            { path: '/api', backend: { serviceName: 'api', servicePort: 'http' } },
            { path: '/exact', pathType: 'Exact', backend: { serviceName: 'x', servicePort: 80 } },
            { path: '/r', backend: { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'b' } } },
          ],
        },
      },
    ],
  },
};
const ingressExpect = {
  'spec.backend': undefined,
  'spec.defaultBackend': { service: { name: 'default', port: { number: 8080 } } },
  'spec.rules.0.http.paths.0': { path: '/api', pathType: 'ImplementationSpecific', backend: { service: { name: 'api', port: { name: 'http' } } } },
  'spec.rules.0.http.paths.1': { path: '/exact', pathType: 'Exact', backend: { service: { name: 'x', port: { number: 80 } } } },
  'spec.rules.0.http.paths.2': { path: '/r', pathType: 'ImplementationSpecific', backend: { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'b' } } },
};

const PLC = 'PriorityLevelConfiguration';
const FC = G('flowcontrol.apiserver');
const limited = (l: Obj, annotations?: Obj): Obj => ({ metadata: { name: 'pl', ...(annotations ? { annotations } : {}) }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' }, ...l } } });

const webhook = { name: 'w.example.com', clientConfig: { url: 'https://example.com/hook' }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] };

const changeCases: ChangeCase[] = [
  { name: 'extensions Ingress', from: 'extensions/v1beta1', to: `${G('networking')}/v1`, kind: 'Ingress', body: ingressBody, expect: ingressExpect },
  { name: 'networking v1beta1 Ingress', from: `${G('networking')}/v1beta1`, to: `${G('networking')}/v1`, kind: 'Ingress', body: ingressBody, expect: ingressExpect },
  {
    name: 'HPA v2beta1: flat metric fields grouped, behavior from its annotation',
    from: 'autoscaling/v2beta1',
    to: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    body: {
      metadata: { name: 'h', namespace: 'ns', annotations: { [HPA_BEHAVIOR_ANNOTATION]: '{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":null,"Policies":null}}' } },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', targetAverageUtilization: 70 } },
          { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
          { type: 'Object', object: { target: { kind: 'Service', name: 's' }, metricName: 'rps', targetValue: '100' } },
          { type: 'External', external: { metricName: 'queue', metricSelector: { matchLabels: { q: 'a' } }, targetAverageValue: '5' } },
          { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', targetAverageValue: '1Gi' } },
        ],
      },
      status: { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 50, currentAverageValue: '200m' } }] },
    },
    expect: {
      'metadata.annotations': undefined,
      'spec.behavior.scaleDown': { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      'spec.metrics': [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: 'rps' }, target: { type: 'Value', value: '100' } } },
        { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } }, target: { type: 'AverageValue', averageValue: '5' } } },
        { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '1Gi' } } },
      ],
      'status.currentMetrics': [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '200m', averageUtilization: 50 } } }],
    },
  },
  { name: 'PLC v1beta1: assuredConcurrencyShares renamed', from: `${FC}/v1beta1`, to: `${FC}/v1`, kind: PLC, body: limited({ assuredConcurrencyShares: 5 }), expect: { 'spec.limited.nominalConcurrencyShares': 5, 'spec.limited.assuredConcurrencyShares': undefined } },
  { name: 'PLC v1beta2: assuredConcurrencyShares renamed', from: `${FC}/v1beta2`, to: `${FC}/v1`, kind: PLC, body: limited({ assuredConcurrencyShares: 7, lendablePercent: 10 }), expect: { 'spec.limited.nominalConcurrencyShares': 7, 'spec.limited.lendablePercent': 10 } },
  { name: 'PLC v1beta2: zero shares meant the default 30', from: `${FC}/v1beta2`, to: `${FC}/v1`, kind: PLC, body: limited({ assuredConcurrencyShares: 0 }), expect: { 'spec.limited.nominalConcurrencyShares': 30 } },
  { name: 'PLC v1beta3: zero without the annotation is 30', from: `${FC}/v1beta3`, to: `${FC}/v1`, kind: PLC, body: limited({ nominalConcurrencyShares: 0 }), expect: { 'spec.limited.nominalConcurrencyShares': 30 } },
  {
    name: 'PLC v1beta3: zero with the round-trip annotation stays 0, annotation dropped',
    from: `${FC}/v1beta3`,
    to: `${FC}/v1`,
    kind: PLC,
    body: limited({ nominalConcurrencyShares: 0 }, { [APF_PRESERVE_ZERO_SHARES_ANNOTATION]: '', keep: 'me' }),
    expect: { 'spec.limited.nominalConcurrencyShares': 0, 'metadata.annotations': { keep: 'me' } },
  },
  {
    name: 'PLC v1beta3: the upstream spelling of the annotation counts too',
    from: `${FC}/v1beta3`,
    to: `${FC}/v1`,
    kind: PLC,
    body: limited({ nominalConcurrencyShares: 0 }, { 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares': '' }),
    expect: { 'spec.limited.nominalConcurrencyShares': 0, 'metadata.annotations': undefined },
  },
  {
    name: 'EndpointSlice: topology → nodeName/zone/deprecatedTopology',
    from: `${G('discovery')}/v1beta1`,
    to: `${G('discovery')}/v1`,
    kind: 'EndpointSlice',
    body: {
      ...meta('es', 'ns'),
      addressType: 'IPv4',
      endpoints: [
        { addresses: ['10.0.0.1'], nodeName: 'n1', topology: { 'kubernetes.io/hostname': 'n1', 'topology.kubernetes.io/zone': 'z1', rack: 'r1' } },
        { addresses: ['10.0.0.2'], nodeName: 'n2', topology: { [`${'orch.io'}/hostname`]: 'other', [`topology.${'orch.io'}/zone`]: 'z2' } },
        { addresses: ['10.0.0.3'], topology: {} },
      ],
    },
    expect: {
      'endpoints.0': { addresses: ['10.0.0.1'], conditions: {}, nodeName: 'n1', zone: 'z1', deprecatedTopology: { rack: 'r1' } },
      'endpoints.1': { addresses: ['10.0.0.2'], conditions: {}, nodeName: 'n2', zone: 'z2', deprecatedTopology: { 'orch.io/hostname': 'other' } },
      'endpoints.2': { addresses: ['10.0.0.3'], conditions: {} },
    },
  },
  { name: 'PDB: empty selector selected none, becomes the v1 match-none form', from: 'policy/v1beta1', to: 'policy/v1', kind: 'PodDisruptionBudget', body: { ...meta('p', 'ns'), spec: { minAvailable: 1, selector: {} } }, expect: { 'spec.selector': { matchExpressions: [{ key: PDB_V1BETA1_SELECTOR_LABEL, operator: 'Exists' }] } } },
  {
    name: 'PDB: the v1beta1 match-all form becomes {}',
    from: 'policy/v1beta1',
    to: 'policy/v1',
    kind: 'PodDisruptionBudget',
    body: { ...meta('p', 'ns'), spec: { selector: { matchExpressions: [{ key: PDB_V1BETA1_SELECTOR_LABEL, operator: 'DoesNotExist' }] } } },
    expect: { 'spec.selector': {} },
  },
  {
    name: 'PDB: other selectors lose requirements on the label',
    from: 'policy/v1beta1',
    to: 'policy/v1',
    kind: 'PodDisruptionBudget',
    body: { ...meta('p', 'ns'), spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'a' }, matchExpressions: [{ key: PDB_V1BETA1_SELECTOR_LABEL, operator: 'DoesNotExist' }] } } },
    expect: { 'spec.selector': { matchLabels: { app: 'a' } }, 'spec.maxUnavailable': '50%' },
  },
  { name: 'PDB: an unset selector stays unset', from: 'policy/v1beta1', to: 'policy/v1', kind: 'PodDisruptionBudget', body: { ...meta('p', 'ns'), spec: { minAvailable: 1 } }, expect: { 'spec.selector': undefined } },
  ...['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].map((kind) => ({
    name: `${kind}: v1beta1 defaults written out`,
    from: `${G('admissionregistration')}/v1beta1`,
    to: `${G('admissionregistration')}/v1`,
    kind,
    body: { ...meta('wh'), webhooks: [webhook, { ...webhook, name: 'set.example.com', failurePolicy: 'Fail', matchPolicy: 'Equivalent', sideEffects: 'None', timeoutSeconds: 5, admissionReviewVersions: ['v1'] }] },
    expect: {
      'webhooks.0.failurePolicy': 'Ignore',
      'webhooks.0.matchPolicy': 'Exact',
      'webhooks.0.sideEffects': 'Unknown',
      'webhooks.0.timeoutSeconds': 30,
      'webhooks.0.admissionReviewVersions': ['v1beta1'],
      'webhooks.1.failurePolicy': 'Fail',
      'webhooks.1.matchPolicy': 'Equivalent',
      'webhooks.1.sideEffects': 'None',
      'webhooks.1.timeoutSeconds': 5,
      'webhooks.1.admissionReviewVersions': ['v1'],
    },
  })),
  {
    name: 'CRD: per-version fields, conversion webhook moved, jsonPath, scope default',
    from: `${G('apiextensions')}/v1beta1`,
    to: `${G('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    body: {
      ...meta(`widgets.example.com`),
      spec: {
        group: 'example.com',
        version: 'v1',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        preserveUnknownFields: false,
        validation: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
        subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
        versions: [
          { name: 'v1', served: true, storage: true },
          { name: 'v2', served: true, storage: false },
        ],
        conversion: { strategy: 'Webhook', webhookClientConfig: { url: 'https://example.com/convert' }, conversionReviewVersions: ['v1'] },
      },
    },
    expect: {
      'spec.scope': 'Namespaced',
      'spec.version': undefined,
      'spec.validation': undefined,
      'spec.subresources': undefined,
      'spec.additionalPrinterColumns': undefined,
      'spec.preserveUnknownFields': undefined,
      'spec.versions.0.schema.openAPIV3Schema': { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } },
      'spec.versions.1.schema.openAPIV3Schema.properties.spec.properties.size': { type: 'integer' },
      'spec.versions.1.subresources': { status: {} },
      'spec.versions.1.additionalPrinterColumns': [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
      'spec.conversion': { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/convert' }, conversionReviewVersions: ['v1'] } },
    },
  },
  {
    name: 'CRD: spec.version alone, no schema, preserveUnknownFields defaulted true',
    from: `${G('apiextensions')}/v1beta1`,
    to: `${G('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    body: { ...meta('gadgets.example.com'), spec: { group: 'example.com', version: 'v1alpha1', scope: 'Cluster', names: { plural: 'gadgets', kind: 'Gadget' } } },
    expect: {
      'spec.scope': 'Cluster',
      'spec.versions': [{ name: 'v1alpha1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-orch-preserve-unknown-fields': true } } }],
      'spec.preserveUnknownFields': undefined,
    },
  },
  ...['SubjectAccessReview', 'LocalSubjectAccessReview'].map((kind) => ({
    name: `${kind}: spec.group renamed spec.groups`,
    from: `${G('authorization')}/v1beta1`,
    to: `${G('authorization')}/v1`,
    kind,
    body: { ...meta('', 'ns'), spec: { user: 'u', group: ['g1', 'g2'], resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'pods' } } },
    expect: { 'spec.groups': ['g1', 'g2'], 'spec.group': undefined, 'spec.user': 'u' },
  })),
  {
    name: 'CSR: usages defaulted, duplicates dropped, condition status defaulted',
    from: `${G('certificates')}/v1beta1`,
    to: `${G('certificates')}/v1`,
    kind: 'CertificateSigningRequest',
    body: { ...meta('csr'), spec: { request: 'UkVR', signerName: 'example.com/signer' }, status: { conditions: [{ type: 'Approved', reason: 'OK' }] } },
    expect: { 'spec.usages': ['digital signature', 'key encipherment'], 'spec.signerName': 'example.com/signer', 'status.conditions.0.status': 'True' },
  },
  {
    name: 'CSR: duplicate usages dropped',
    from: `${G('certificates')}/v1beta1`,
    to: `${G('certificates')}/v1`,
    kind: 'CertificateSigningRequest',
    body: { ...meta('csr'), spec: { request: 'UkVR', signerName: 'example.com/signer', usages: ['client auth', 'client auth', 'digital signature'] } },
    expect: { 'spec.usages': ['client auth', 'digital signature'] },
  },
  {
    name: 'extensions Deployment: selector from the template, rollbackTo dropped, old defaults written',
    from: 'extensions/v1beta1',
    to: 'apps/v1',
    kind: 'Deployment',
    body: { ...meta('d', 'ns'), spec: { rollbackTo: { revision: 3 }, template: podTemplate } },
    expect: {
      'spec.selector': { matchLabels: { app: 'a' } },
      'spec.rollbackTo': undefined,
      'spec.strategy': { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
      'spec.revisionHistoryLimit': 2147483647,
      'spec.progressDeadlineSeconds': 2147483647,
    },
  },
  {
    name: 'apps/v1beta1 Deployment: its history limit 2 and deadline 600',
    from: 'apps/v1beta1',
    to: 'apps/v1',
    kind: 'Deployment',
    body: { ...meta('d', 'ns'), spec: { template: podTemplate } },
    expect: { 'spec.selector': { matchLabels: { app: 'a' } }, 'spec.revisionHistoryLimit': 2, 'spec.progressDeadlineSeconds': 600, 'spec.strategy.rollingUpdate': { maxUnavailable: '25%', maxSurge: '25%' } },
  },
  {
    name: 'extensions DaemonSet: OnDelete kept explicit, templateGeneration dropped',
    from: 'extensions/v1beta1',
    to: 'apps/v1',
    kind: 'DaemonSet',
    body: { ...meta('ds', 'ns'), spec: { templateGeneration: 4, template: podTemplate } },
    expect: { 'spec.selector': { matchLabels: { app: 'a' } }, 'spec.templateGeneration': undefined, 'spec.updateStrategy': { type: 'OnDelete' } },
  },
  { name: 'apps/v1beta1 DaemonSet: selector from the template', from: 'apps/v1beta1', to: 'apps/v1', kind: 'DaemonSet', body: { ...meta('ds', 'ns'), spec: { template: podTemplate } }, expect: { 'spec.selector': { matchLabels: { app: 'a' } }, 'spec.updateStrategy.type': 'RollingUpdate' } },
  { name: 'extensions ReplicaSet: selector from the template', from: 'extensions/v1beta1', to: 'apps/v1', kind: 'ReplicaSet', body: { ...meta('rs', 'ns'), spec: { template: podTemplate } }, expect: { 'spec.selector': { matchLabels: { app: 'a' } }, 'spec.replicas': 1 } },
  { name: 'apps/v1beta1 ReplicaSet: selector from the template', from: 'apps/v1beta1', to: 'apps/v1', kind: 'ReplicaSet', body: { ...meta('rs', 'ns'), spec: { template: podTemplate } }, expect: { 'spec.selector': { matchLabels: { app: 'a' } } } },
  { name: 'extensions StatefulSet: selector from the template', from: 'extensions/v1beta1', to: 'apps/v1', kind: 'StatefulSet', body: { ...meta('ss', 'ns'), spec: { serviceName: 's', template: podTemplate } }, expect: { 'spec.selector': { matchLabels: { app: 'a' } } } },
  {
    name: 'apps/v1beta1 StatefulSet: OnDelete kept explicit',
    from: 'apps/v1beta1',
    to: 'apps/v1',
    kind: 'StatefulSet',
    body: { ...meta('ss', 'ns'), spec: { serviceName: 's', template: podTemplate } },
    expect: { 'spec.selector': { matchLabels: { app: 'a' } }, 'spec.updateStrategy': { type: 'OnDelete' }, 'spec.podManagementPolicy': 'OrderedReady' },
  },
];

describe('migration map rows (spec 001 § Removed API versions)', () => {
  describe('rows without notable changes: same result as the object written in the new version', () => {
    for (const c of sameCases) {
      it(`${c.from} ${c.kind} → ${c.to}${specTag(c.from, c.kind)}`, () => {
        const migrated = convert(c.from, c.kind, c.body, c.to);
        const direct = convert(c.to, c.kind, c.body, c.to);
        expect(migrated.apiVersion).to.equal(c.to);
        expect(migrated.kind).to.equal(c.kind);
        expect(migrated).to.deep.equal(direct);
      });
    }
  });

  describe('rows with notable changes', () => {
    for (const c of changeCases) {
      it(`${c.from} → ${c.to}: ${c.name}${specTag(c.from, c.kind)}`, () => {
        const input = { apiVersion: c.from, kind: c.kind, ...structuredClone(c.body) };
        const before = structuredClone(input);
        const out = convert(c.from, c.kind, c.body, c.to);
        expect(out.apiVersion).to.equal(c.to);
        expect(out.kind).to.equal(c.kind);
        for (const [path, want] of Object.entries(c.expect)) expect(at(out, path), path).to.deep.equal(want);
        expect(input, 'input untouched').to.deep.equal(before);
      });
    }
  });

  describe('rows without a replacement, and objects the replacement cannot hold', () => {
    const psp = { metadata: { name: 'restricted' }, spec: { privileged: false } };
    for (const from of ['policy/v1beta1', 'extensions/v1beta1']) {
      it(`${from} PodSecurityPolicy is an error naming what to use instead${specTag(from, 'PodSecurityPolicy')}`, () => {
        expect(() => convertObject(BUILTIN_SCHEME, { apiVersion: from, kind: 'PodSecurityPolicy', ...psp }))
          .to.throw(DecodeError)
          .with.property(
            'message',
            `no kind "PodSecurityPolicy" is registered for version "${from}" in scheme "lib/cmd/convert-scheme.ts": policy/v1beta1 PodSecurityPolicy was removed in v1.25 with no replacement API; use Pod security admission or a third-party admission webhook`,
          );
      });
    }
    it('a CertificateSigningRequest without signerName cannot be expressed in v1', () => {
      expect(() => convertObject(BUILTIN_SCHEME, { apiVersion: `${G('certificates')}/v1beta1`, kind: 'CertificateSigningRequest', metadata: { name: 'c' }, spec: { request: 'UkVR' } }))
        .to.throw(ConversionError)
        .with.property('message', `${G('certificates')}/v1beta1 CertificateSigningRequest "c": ${G('certificates')}/v1 requires spec.signerName other than "orch.io/legacy-unknown"; set the signer the request is for`);
    });
  });

  it('the tables cover every row of the map', () => {
    const covered = new Set<string>();
    const add = (from: string, kind: string) => {
      const [group, version] = from.includes('/') ? from.split('/') : ['', from];
      covered.add(key(group!, version!, kind));
    };
    for (const c of sameCases) add(c.from, c.kind);
    for (const c of changeCases) add(c.from, c.kind);
    add('policy/v1beta1', 'PodSecurityPolicy');
    add('extensions/v1beta1', 'PodSecurityPolicy');
    const rows = MIGRATIONS.map((r) => key(r.from.group, r.from.version, r.from.kind));
    expect(rows.filter((r) => !covered.has(r))).to.deep.equal([]);
    for (const r of MIGRATIONS) if (r.to) expect(apiVersionOf(r.to.group, r.to.version), key(r.from.group, r.from.version, r.from.kind)).to.not.equal(apiVersionOf(r.from.group, r.from.version));
  });
});
