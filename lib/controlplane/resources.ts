/**
 * Which resources this control plane serves, in discovery order, with their stores
 * (ARCHITECTURE.md § Layers: lib/controlplane is the wiring of OUR server).
 */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../registry/generic/resource-storage.js';
import { newNamespaceStorage } from '../registry/core/namespace/storage.js';
import { coreV1ExtraResources } from '../registry/core/resources.js';
import { withScale } from '../registry/generic/scale.js';
import { policyResources } from '../registry/policy/resources.js';
import { secretStrategy } from '../registry/core/secret/strategy.js';
import { newServiceStorage } from '../registry/core/service/storage.js';
import type { ServiceAllocators } from '../registry/core/service/service-alloc.js';
import { newPodStorage } from '../registry/core/pod/storage.js';
import { jobStrategy } from '../registry/batch/job/strategy.js';
import * as simple from '../registry/simple-strategies.js';
import { appsResources } from '../registry/apps/resources.js';
import { flowcontrolResources } from '../registry/flowcontrol/resources.js';
import { networkingResources } from '../registry/networking/resources.js';
import { discoveryResources } from '../registry/discovery/resources.js';
import { nodeResources } from '../registry/node/resources.js';
import { schedulingResources } from '../registry/scheduling/resources.js';
import { storageResources } from '../registry/storage/resources.js';
import { certificatesResources } from '../registry/certificates/resources.js';
import { admissionregistrationResources } from '../registry/admissionregistration/resources.js';
import { admissionExpressionCompiler } from '../admission/cel/compiler.js';
import { apiextensionsResources } from '../registry/apiextensions/customresourcedefinition/storage.js';
import { crdValidationHooks } from '../apiextensions/validation/default-hooks.js';
import { defaultFeatureGates, type FeatureGates } from '../server/options/feature-gates.js';
import { apiregistrationResources } from '../registry/apiregistration/resources.js';
import { autoscalingResources } from '../registry/autoscaling/resources.js';
import { apiserverinternalResources } from '../registry/apiserverinternal/resources.js';
import { resourceResources } from '../registry/resource/resources.js';
import { storagemigrationResources } from '../registry/storagemigration/resources.js';
import { storageVersionMigration } from '../apis/storagemigration/v1alpha1/index.js';
import type { KindDefinition } from '../apis/define.js';
import { withEventsV1 } from '../registry/events/resources.js';
import type { Creater } from '../registry/rest/creater.js';
import type { GetterLister } from '../registry/rest/getter-lister.js';
import { newComponentStatusREST } from '../registry/core/componentstatus/rest.js';
import { newSelfSubjectReviewCreater, selfSubjectReviewCreater } from '../registry/authentication/selfsubjectreview/rest.js';
import { selfSubjectReviewV1beta1 } from '../apis/authentication/v1beta1/index.js';
import { selfSubjectReviewV1alpha1 } from '../apis/authentication/v1alpha1/index.js';
import { type TokenReviewer, newTokenReviewCreater } from '../registry/authentication/tokenreview/rest.js';
import type { Authorizer, RuleResolver } from '../request/authorization.js';
import { newLocalSubjectAccessReviewCreater } from '../registry/authorization/localsubjectaccessreview/rest.js';
import { newSelfSubjectAccessReviewCreater } from '../registry/authorization/selfsubjectaccessreview/rest.js';
import { newSelfSubjectRulesReviewCreater } from '../registry/authorization/selfsubjectrulesreview/rest.js';
import { newSubjectAccessReviewCreater } from '../registry/authorization/subjectaccessreview/rest.js';

/** What the access reviews ask: the authorizer chain and the rule resolver (controlplane/authorization.ts `Authorization`). */
export interface AccessReviewDeps {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
}

/**
 * Builds the stores of every served resource; Services allocate cluster IPs and node ports with
 * `serviceAllocators` (absent: plain stores, for tools that only look at the served kinds);
 * `gates`: the feature gates the stores follow (default: upstream's defaults).
 */
export function servedResources(storageFor: StorageFactory, prefix: string, serviceAllocators?: ServiceAllocators, gates: FeatureGates = defaultFeatureGates()): ResourceStorage[] {
  const r = (s: Parameters<typeof newResourceStorage>[2]) => newResourceStorage(storageFor, prefix, s);
  // Evictions of pods check and decrement the PodDisruptionBudgets.
  const policy = policyResources(storageFor, prefix);
  // A deleted Service takes its Endpoints along (upstream's service REST).
  const endpoints = r(simple.endpointsStrategy);
  return [
    newNamespaceStorage(storageFor, prefix),
    newPodStorage(storageFor, prefix, policy[0]!),
    r(simple.configMapStrategy),
    r(secretStrategy),
    newServiceStorage(storageFor, prefix, endpoints, serviceAllocators),
    r(simple.serviceAccountStrategy),
    r(simple.nodeStrategy),
    withEventsV1(r(simple.eventStrategy), prefix),
    endpoints,
    ...coreV1ExtraResources(storageFor, prefix),
    // The named groups (discovery orders them by APIService priority: endpoints/discovery/order.ts).
    ...apiregistrationResources(storageFor, prefix),
    withScale(r(simple.deploymentStrategy)),
    ...appsResources(storageFor, prefix),
    r(jobStrategy),
    r(simple.cronJobStrategy),
    ...certificatesResources(storageFor, prefix),
    ...networkingResources(storageFor, prefix),
    ...policy,
    r(simple.roleStrategy),
    r(simple.clusterRoleStrategy),
    r(simple.roleBindingStrategy),
    r(simple.clusterRoleBindingStrategy),
    ...storageResources(storageFor, prefix),
    ...admissionregistrationResources(storageFor, prefix, admissionExpressionCompiler),
    ...apiextensionsResources(storageFor, prefix, crdValidationHooks, { selectableFields: gates.CustomResourceFieldSelectors }),
    ...schedulingResources(storageFor, prefix),
    r(simple.leaseStrategy),
    ...nodeResources(storageFor, prefix),
    ...discoveryResources(storageFor, prefix),
    ...flowcontrolResources(storageFor, prefix),
    ...apiserverinternalResources(storageFor, prefix),
    ...resourceResources(storageFor, prefix),
    ...storagemigrationResources(storageFor, prefix),
    ...autoscalingResources(storageFor, prefix),
  ];
}

/**
 * Whether `kind` stays uninstalled even when `--runtime-config` enables it, for want of the
 * feature gate upstream v1.30 also requires: `storagemigration.<vendor>/v1alpha1`
 * storageversionmigrations need StorageVersionMigrator (upstream's storagemigration REST storage
 * provider). DynamicResourceAllocation and StorageVersionAPI do not gate their API in v1.30.
 */
export function gatedOff(kind: KindDefinition, gates: FeatureGates): boolean {
  return kind.group === storageVersionMigration.group && kind.resource === storageVersionMigration.resource && !gates.StorageVersionMigrator;
}

/**
 * The create-only resources this control plane serves beside the stored ones (installed with
 * `APIInstaller.installCreater`), in discovery order: `authentication.<vendor>/v1`
 * selfsubjectreviews and tokenreviews, the latter authenticating through `tokens` (the server's
 * authenticator union, with its API audiences); then `authorization.<vendor>/v1`
 * localsubjectaccessreviews, selfsubjectaccessreviews, selfsubjectrulesreviews and
 * subjectaccessreviews (upstream's alphabetical discovery order), answered by `access`: the
 * server's authorizer chain and rule resolver (controlplane/authorization.ts); last the
 * selfsubjectreviews of `authentication.<vendor>/v1beta1` and `v1alpha1`, which upstream v1.30
 * ships off by default (installed only when `--runtime-config` enables them, issue #15 item 1).
 * `authorization.<vendor>/v1beta1` was removed in 1.22 and is not served.
 */
export function createOnlyResources(tokens: TokenReviewer & { apiAudiences: readonly string[] }, access: AccessReviewDeps): Creater[] {
  return [
    selfSubjectReviewCreater,
    newTokenReviewCreater(tokens, tokens.apiAudiences),
    newLocalSubjectAccessReviewCreater(access.authorizer),
    newSelfSubjectAccessReviewCreater(access.authorizer),
    newSelfSubjectRulesReviewCreater(access.ruleResolver),
    newSubjectAccessReviewCreater(access.authorizer),
    newSelfSubjectReviewCreater(selfSubjectReviewV1beta1),
    newSelfSubjectReviewCreater(selfSubjectReviewV1alpha1),
  ];
}

/**
 * The read-only resources this control plane serves (installed with
 * `APIInstaller.installReadOnly`): core/v1 componentstatuses, probing etcd through
 * `readStorage` (one read of the server's etcd) whenever it is read.
 */
export function readOnlyResources(readStorage: () => Promise<unknown>): GetterLister[] {
  return [newComponentStatusREST(readStorage)];
}
