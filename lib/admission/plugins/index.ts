/**
 * The admission plugins this server knows, in upstream's fixed order (v1.30
 * `AllOrderedPlugins`, restricted to the plugins we implement), and the default-enabled set
 * (spec 001 § Admission control). Whatever order the flags list plugins in, they run in this
 * order: mutating phase first, then validating phase, each in this order.
 */
import type { AdmissionPluginFactory } from '../plugin-deps.js';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.js';
import { nodeRestrictionPlugin } from './node-restriction.js';
import { podSecurityPlugin } from './pod-security/plugin.js';
import { certificateApprovalPlugin } from './certificates/approval.js';
import { certificateSigningPlugin } from './certificates/signing.js';
import { certificateSubjectRestrictionPlugin } from './certificates/subject-restriction.js';
import { defaultIngressClassPlugin } from './default-ingress-class.js';
import { alwaysPullImagesPlugin } from './always-pull-images.js';
import { alwaysAdmitPlugin, alwaysDenyPlugin } from './always.js';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds.js';
import { priorityPlugin } from './priority.js';
import { runtimeClassPlugin } from './runtime-class/plugin.js';
import { serviceAccountPlugin } from './service-account/plugin.js';
import { taintNodesByConditionPlugin } from './taint-nodes-by-condition.js';
import { resourceQuotaPlugin } from './resource-quota/plugin.js';
import { limitRangerPlugin } from './limit-ranger/plugin.js';
import { defaultStorageClassPlugin } from './default-storage-class.js';
import { storageObjectInUseProtectionPlugin } from './storage-object-in-use-protection.js';
import { persistentVolumeClaimResizePlugin } from './pvc-resize.js';
import { validatingAdmissionPolicyPlugin } from './validating-admission-policy/plugin.js';
import { mutatingAdmissionWebhookPlugin, validatingAdmissionWebhookPlugin } from './webhook/plugin.js';

/** Every plugin the flags accept, in the order the chain runs them, with whether it is on by default. */
const PLUGINS: ReadonlyArray<readonly [name: string, defaultOn: boolean]> = [
  ['AlwaysAdmit', false],
  ['NamespaceLifecycle', true],
  ['LimitRanger', true],
  ['ServiceAccount', true],
  ['NodeRestriction', false],
  ['TaintNodesByCondition', true],
  ['AlwaysPullImages', false],
  ['PodSecurity', true],
  ['Priority', true],
  ['DefaultTolerationSeconds', true],
  ['DefaultStorageClass', true],
  ['StorageObjectInUseProtection', true],
  ['PersistentVolumeClaimResize', true],
  ['RuntimeClass', true],
  ['CertificateApproval', true],
  ['CertificateSigning', true],
  ['CertificateSubjectRestriction', true],
  ['DefaultIngressClass', true],
  ['MutatingAdmissionWebhook', true],
  ['ValidatingAdmissionPolicy', true],
  ['ValidatingAdmissionWebhook', true],
  ['ResourceQuota', true],
  ['AlwaysDeny', false],
];

/** Every plugin name the flags accept, in the order the chain runs them. */
export const ORDERED_PLUGINS: readonly string[] = PLUGINS.map(([name]) => name);

/**
 * The plugins on unless `--disable-admission-plugins` names them: spec 001's v1.30 list without
 * ClusterTrustBundleAttest (ClusterTrustBundle, a v1alpha1 kind, is not served).
 */
export const DEFAULT_ON_PLUGINS: readonly string[] = PLUGINS.filter(([, on]) => on).map(([name]) => name);

/** The factory of each plugin by name. */
export const PLUGIN_FACTORIES: ReadonlyMap<string, AdmissionPluginFactory> = new Map<string, AdmissionPluginFactory>(
  [
    namespaceLifecyclePlugin,
    nodeRestrictionPlugin,
    podSecurityPlugin,
    certificateApprovalPlugin,
    certificateSigningPlugin,
    certificateSubjectRestrictionPlugin,
    defaultIngressClassPlugin,
    alwaysPullImagesPlugin,
    alwaysAdmitPlugin,
    alwaysDenyPlugin,
    serviceAccountPlugin,
    defaultTolerationSecondsPlugin,
    priorityPlugin,
    runtimeClassPlugin,
    taintNodesByConditionPlugin,
    resourceQuotaPlugin,
    limitRangerPlugin,
    defaultStorageClassPlugin,
    storageObjectInUseProtectionPlugin,
    persistentVolumeClaimResizePlugin,
    validatingAdmissionPolicyPlugin,
    mutatingAdmissionWebhookPlugin,
    validatingAdmissionWebhookPlugin,
  ].map((f) => [f.name, f]),
);
