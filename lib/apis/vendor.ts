/**
 * The vendor word and every identifier built from it. This is the only module that spells it;
 * everything else imports these constants (ARCHITECTURE.md § The vendor word).
 */

/** The vendor word itself. */
export const VENDOR = 'orch';
/** The DNS suffix of the vendor's API groups (`<name>.orch.io`). */
export const VENDOR_DOMAIN = `${VENDOR}.io`;

/** Builds a vendor API group name: `vendorGroup('rbac.authorization')` → `rbac.authorization.orch.io`. */
export function vendorGroup(prefix: string): string {
  return `${prefix}.${VENDOR_DOMAIN}`;
}

/** Group of the meta kinds (Table, PartialObjectMetadata): spec 000 § Table representation. */
export const META_GROUP = vendorGroup('meta');
/** Protobuf media type: spec 000 § Protobuf envelope. */
export const PROTOBUF_MEDIA_TYPE = `application/vnd.${VENDOR}.protobuf`;
/** Schema extension prefix: `x-orch-list-type` etc. (spec 000 § Merge strategy markers). */
export const SCHEMA_EXTENSION_PREFIX = `x-${VENDOR}-`;
/** Builds a schema extension name: `schemaExtension('list-type')` → `x-orch-list-type`. */
export function schemaExtension(name: string): string {
  return `${SCHEMA_EXTENSION_PREFIX}${name}`;
}

/** Namespaces the server creates at start (spec 000 § Object deletion lifecycle, issue #2). */
export const SYSTEM_NAMESPACE = `${VENDOR}-system`;
export const PUBLIC_NAMESPACE = `${VENDOR}-public`;
export const NODE_LEASE_NAMESPACE = `${VENDOR}-node-lease`;

/** Vendor-qualified annotation or label key: `vendorKey('bootstrapping')` → `orch.io/bootstrapping`. */
export function vendorKey(name: string): string {
  return `${VENDOR_DOMAIN}/${name}`;
}

/** Environment variable of the client credential plugin (spec 001 § Client credential plugin). */
export const EXEC_INFO_ENV = `${VENDOR.toUpperCase()}_EXEC_INFO`;
/** Upstream's name of EXEC_INFO_ENV, set for a plugin configured with the upstream spelling of CLIENT_AUTHENTICATION_GROUP. */
export const UPSTREAM_EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO';
/** Group of the plugin's `ExecCredential` (`client.authentication.orch.io`; spec 001 § Client credential plugin). */
export const CLIENT_AUTHENTICATION_GROUP = vendorGroup('client.authentication');

/** Default name of the admin client identity and of the server binary. */
export const ADMIN_USER = `${VENDOR}-admin`;
export const SERVER_NAME = `${VENDOR}-apiserver`;

/**
 * The web console (issue #22): the field manager of its server-side applies, and the service
 * account in SYSTEM_NAMESPACE, bound to cluster-admin, whose short-lived token the local `make run`
 * prints in its console URL.
 */
export const CONSOLE_FIELD_MANAGER = `${VENDOR}-console`;
export const CONSOLE_ADMIN_SERVICE_ACCOUNT = 'console-admin';

/**
 * Audit annotations of a request served by a deprecated API (spec 001 § Effects of calling a
 * deprecated endpoint; upstream `k8s.io/deprecated`, `k8s.io/removed-release`): `"true"`, and the
 * release (`1.y`) the API is removed in, when one is planned.
 */
export const DEPRECATED_API_AUDIT_ANNOTATION = vendorKey('deprecated');
export const REMOVED_RELEASE_AUDIT_ANNOTATION = vendorKey('removed-release');

/**
 * The audit API (issue #16 item 4; upstream `audit.k8s.io/v1`): the group of the Policy and
 * Event kinds (its upstream alias: AUDIT_UPSTREAM_GROUP, accepted in policy files), and the annotations the server sets
 * on events: `audit.orch.io/truncated` (upstream `audit.k8s.io/truncated`) and the authorization
 * decision and reason (`authorization.orch.io/decision`, `…/reason`; upstream
 * `authorization.k8s.io/decision`, `…/reason`).
 */
export const AUDIT_GROUP = vendorGroup('audit');
export const AUDIT_TRUNCATED_ANNOTATION = `${AUDIT_GROUP}/truncated`;
export const AUTHORIZATION_DECISION_ANNOTATION = `authorization.${VENDOR_DOMAIN}/decision`;
export const AUTHORIZATION_REASON_ANNOTATION = `authorization.${VENDOR_DOMAIN}/reason`;

/** Annotation on the BOOKMARK that ends the initial events of a watch (spec 000 § Watch parameters). */
export const INITIAL_EVENTS_END_ANNOTATION = vendorKey('initial-events-end');

/**
 * The annotation in which stock kubectl's client-side `apply` keeps the configuration it applied,
 * for its next three-way patch. Upstream's name, hard-coded in the client: a server-side apply by
 * the manager `kubectl` takes over the fields it lists and rewrites it (issue #23 item 5).
 */
export const LAST_APPLIED_CONFIG_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * OpenAPI definition-name prefix: a type id (`api.core.v1.Pod`) becomes `io.orch.api.core.v1.Pod`,
 * as upstream names it `io.k8s.api.core.v1.Pod` (the reversed domain of the Go module).
 */
export const OPENAPI_DEFINITION_PREFIX = `io.${VENDOR}.`;
/** Title of the OpenAPI documents (`info.title`). */
export const OPENAPI_TITLE = `${VENDOR.charAt(0).toUpperCase()}${VENDOR.slice(1)}`;
/** Group suffix dropped from operation ids and tags (`rbac.authorization.orch.io` → `RbacAuthorization`). */
export const OPERATION_ID_GROUP_SUFFIX = `.${VENDOR_DOMAIN}`;

/**
 * Stock-client compatibility. Unmodified upstream clients (kubectl 1.27+) look OpenAPI extensions
 * up by their upstream names, hard-coded in the client: the group-version-kind of an operation
 * or definition (field-validation support check, `explain`, client-side validation, apply) and
 * the strategic-merge metadata (client-side `apply` computes its patch from the schema). The
 * OpenAPI documents carry these names IN ADDITION to the vendor-worded ones for exactly the
 * extensions listed in STOCK_CLIENT_EXTENSIONS; nothing else uses this prefix.
 */
export const STOCK_CLIENT_EXTENSION_PREFIX = 'x-kubernetes-';
/** The extensions (by suffix, as given to `schemaExtension`) also emitted under their upstream names. */
export const STOCK_CLIENT_EXTENSIONS: readonly string[] = ['group-version-kind', 'patch-strategy', 'patch-merge-key'];
/** The upstream spelling of an extension: `stockClientExtension('group-version-kind')` → `x-kubernetes-group-version-kind`. */
export function stockClientExtension(name: string): string {
  return `${STOCK_CLIENT_EXTENSION_PREFIX}${name}`;
}

/**
 * Upstream aliases (`--upstream-aliases`, default on; issue #9). The only clients that exist for
 * this API are the upstream ones, so the server also answers the upstream spellings of what the
 * vendor word names: every `<x>.orch.io` API group is served as `<x>.k8s.io` too (the meta,
 * discovery and client-authentication groups included) and the protobuf media type under its
 * upstream name. The vendor spellings stay the primary, documented identifiers.
 */
export const UPSTREAM_DOMAIN = 'k8s.io';
/** The upstream audit group (`audit.k8s.io`), accepted as an alias of AUDIT_GROUP in audit policy files. */
export const AUDIT_UPSTREAM_GROUP = `audit.${UPSTREAM_DOMAIN}`;
/**
 * A remote-command stream protocol (exec, attach; issue #20): `v5.channel.<domain>` as a
 * WebSocket subprotocol or SPDY `X-Stream-Protocol-Version`; `domain` VENDOR_DOMAIN or, as stock
 * clients send it, UPSTREAM_DOMAIN.
 */
export function channelProtocol(version: number, domain: string = VENDOR_DOMAIN): string {
  return `v${version}.channel.${domain}`;
}
/** The port-forward stream protocol (`portforward.<domain>`, SPDY `X-Stream-Protocol-Version`; issue #20). */
export function portForwardProtocol(domain: string = VENDOR_DOMAIN): string {
  return `portforward.${domain}`;
}

/**
 * The upstream alias of a vendor API group: `upstreamAlias('rbac.authorization.orch.io')` →
 * `rbac.authorization.k8s.io`. Undefined for groups outside the vendor domain (the core group,
 * `apps`, `batch`, users' own groups), which have no alias.
 */
export function upstreamAlias(group: string): string | undefined {
  return group.endsWith(`.${VENDOR_DOMAIN}`) ? `${group.slice(0, -VENDOR_DOMAIN.length)}${UPSTREAM_DOMAIN}` : undefined;
}

/**
 * The vendor group an upstream spelling stands for: `canonicalGroup('rbac.authorization.k8s.io')`
 * → `rbac.authorization.orch.io`; any other group is returned unchanged.
 */
export function canonicalGroup(group: string): string {
  return group.endsWith(`.${UPSTREAM_DOMAIN}`) ? `${group.slice(0, -UPSTREAM_DOMAIN.length)}${VENDOR_DOMAIN}` : group;
}

/**
 * Unmodified upstream clients send and ask for protobuf under the upstream media type name. The
 * envelope is the same, so with the aliases on the server accepts this name beside
 * PROTOBUF_MEDIA_TYPE and answers in the spelling it was asked.
 */
export const UPSTREAM_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** Group of the aggregated discovery documents (spec 000 § Other paths; `apidiscovery.orch.io`). */
export const DISCOVERY_GROUP = vendorGroup('apidiscovery');

/**
 * Service-account tokens (spec 001 § Methods, issue #10 item 2). The issuer a server signs with
 * when `--service-account-issuer` is not given: the in-cluster URL of the API, as kubeadm
 * configures upstream (`https://kubernetes.default.svc.cluster.local`).
 */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = `https://${VENDOR}.default.svc.cluster.local`;
/** The private claim of a bound service-account token (upstream `kubernetes.io`): namespace, serviceaccount, pod/secret/node, warnafter. */
export const SERVICE_ACCOUNT_PRIVATE_CLAIM = VENDOR_DOMAIN;
/** The issuer of legacy Secret-based service-account tokens (upstream `kubernetes/serviceaccount`). */
export const LEGACY_SERVICE_ACCOUNT_ISSUER = `${VENDOR}/serviceaccount`;
/**
 * A claim of a legacy Secret-based token: `legacyServiceAccountClaim('secret.name')` →
 * `orch.io/serviceaccount/secret.name` (upstream `kubernetes.io/serviceaccount/secret.name`).
 */
export function legacyServiceAccountClaim(name: string): string {
  return `${VENDOR_DOMAIN}/serviceaccount/${name}`;
}
/** Secret labels of legacy token tracking (upstream `kubernetes.io/legacy-token-last-used`, `…-invalid-since`). */
export const LEGACY_TOKEN_LAST_USED_LABEL = vendorKey('legacy-token-last-used');
export const LEGACY_TOKEN_INVALID_SINCE_LABEL = vendorKey('legacy-token-invalid-since');
/**
 * The ServiceAccount admission plugin: where the projected token volume is mounted in every
 * container (upstream `/var/run/secrets/kubernetes.io/serviceaccount`), and the ServiceAccount
 * annotation that, `"true"`, limits its pods to the secrets it lists (upstream
 * `kubernetes.io/enforce-mountable-secrets`).
 */
export const SERVICE_ACCOUNT_TOKEN_MOUNT_PATH = `/var/run/secrets/${VENDOR_DOMAIN}/serviceaccount`;
export const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = vendorKey('enforce-mountable-secrets');
/**
 * A key of the authentication domain — a user's `extra` key set by authenticators, an audit
 * annotation: `authenticationKey('pod-name')` → `authentication.orch.io/pod-name` (upstream
 * `authentication.kubernetes.io/pod-name`).
 */
export function authenticationKey(name: string): string {
  return `authentication.${VENDOR_DOMAIN}/${name}`;
}

/**
 * Bootstrap tokens (spec 001 § Bootstrap tokens): the Secret type that marks one,
 * `bootstrap.orch.io/token` (upstream `bootstrap.kubernetes.io/token`). The Secret's key names
 * (`token-id`, `usage-bootstrap-…`) carry no vendor word; they live in
 * `core/v1/bootstrap-token.ts`.
 */
export const BOOTSTRAP_TOKEN_SECRET_TYPE = `${vendorGroup('bootstrap')}/token`;

/** The ConfigMap the root CA publisher keeps in every namespace (upstream `kube-root-ca.crt`). */
export const ROOT_CA_CONFIGMAP_NAME = `${VENDOR}-root-ca.crt`;
/** The annotation describing what an object is for (upstream `kubernetes.io/description`). */
export const DESCRIPTION_ANNOTATION = vendorKey('description');
/** The description the root CA publisher puts on {@link ROOT_CA_CONFIGMAP_NAME}, worded as upstream's. */
export const ROOT_CA_DESCRIPTION =
  `Contains a CA bundle that can be used to verify the ${SERVER_NAME} when using internal endpoints such as the internal service IP or ${VENDOR}.default.svc. ` +
  `No other usage is guaranteed across distributions of ${OPENAPI_TITLE} clusters.`;

/**
 * The group of the server's own configuration files (upstream `apiserver.config.k8s.io`): the
 * AuthenticationConfiguration document of `--authentication-config` (spec 001 § Authentication
 * configuration file) is `apiserver.config.orch.io/v1beta1` (also read as v1alpha1).
 */
export const APISERVER_CONFIG_GROUP = vendorGroup('apiserver.config');

/**
 * The RBAC default policy (spec 001 § RBAC mode; upstream `kubernetes.io/bootstrapping`): the
 * label every default object carries, value `rbac-defaults`.
 */
export const BOOTSTRAPPING_LABEL = vendorKey('bootstrapping');
/**
 * The annotation that turns auto-reconciliation of a default RBAC object off when `"false"`
 * (upstream `rbac.authorization.kubernetes.io/autoupdate`).
 */
export const RBAC_AUTOUPDATE_ANNOTATION = `${vendorGroup('rbac.authorization')}/autoupdate`;
/**
 * The label that aggregates a ClusterRole into a default user-facing role:
 * `rbacAggregateLabel('view')` → `rbac.authorization.orch.io/aggregate-to-view` (upstream
 * `rbac.authorization.k8s.io/aggregate-to-view`).
 */
export function rbacAggregateLabel(role: 'admin' | 'edit' | 'view'): string {
  return `${vendorGroup('rbac.authorization')}/aggregate-to-${role}`;
}
/**
 * A built-in certificate signer name: `signerName('apiserver-client')` → `orch.io/apiserver-client`
 * (upstream `kubernetes.io/kube-apiserver-client`; spec 001 § Admission control names it so).
 */
export function signerName(name: string): string {
  return `${VENDOR_DOMAIN}/${name}`;
}

/**
 * Node authorization and NodeRestriction (spec 001 § Node authorization). The annotation that
 * marks a mirror pod, the static pod a node agent publishes (upstream `kubernetes.io/config.mirror`).
 */
export const MIRROR_POD_ANNOTATION = vendorKey('config.mirror');
/** The label domain only administrators may set on a Node (upstream `node-restriction.kubernetes.io`). */
export const NODE_RESTRICTION_LABEL_DOMAIN = `node-restriction.${VENDOR_DOMAIN}`;
/** Upstream's label and annotation domain, which stock node agents and tools write (`kubernetes.io`). */
export const UPSTREAM_LABEL_DOMAIN = 'kubernetes.io';
/**
 * The system label domains: a label key under one of them (or a subdomain) is reserved, and a
 * node agent may set only the well-known node labels among them. The vendor domain, plus
 * upstream's `kubernetes.io` and `k8s.io` that stock components use.
 */
export const SYSTEM_LABEL_DOMAINS: readonly string[] = [VENDOR_DOMAIN, UPSTREAM_LABEL_DOMAIN, UPSTREAM_DOMAIN];
/** The domains a node agent's well-known labels are spelled in (`<d>/hostname`, `topology.<d>/zone`…): ours and upstream's. */
export const NODE_LABEL_DOMAINS: readonly string[] = [VENDOR_DOMAIN, UPSTREAM_LABEL_DOMAIN];
/**
 * Node condition taints (upstream `node.kubernetes.io/not-ready`, `node.kubernetes.io/unreachable`):
 * TaintNodesByCondition puts not-ready (NoSchedule) on new Nodes; DefaultTolerationSeconds gives
 * pods NoExecute tolerations of both.
 */
export const TAINT_NODE_NOT_READY = `node.${VENDOR_DOMAIN}/not-ready`;
export const TAINT_NODE_UNREACHABLE = `node.${VENDOR_DOMAIN}/unreachable`;

/**
 * Pod Security admission (issue #13): the namespace label and audit annotation prefix
 * `pod-security.orch.io/` (upstream `pod-security.kubernetes.io/`: `…/enforce`, `…/audit-violations`),
 * and the group of its PodSecurityConfiguration (`pod-security.admission.config.orch.io`, upstream
 * `…config.k8s.io`, read through canonicalGroup).
 */
export const POD_SECURITY_PREFIX = `pod-security.${VENDOR_DOMAIN}/`;
export const POD_SECURITY_CONFIG_GROUP = vendorGroup('pod-security.admission.config');
/**
 * The deprecated per-container AppArmor and seccomp annotations the Pod Security checks read, in
 * our spelling and in upstream's, which stock tools write (`container.apparmor.security.beta.kubernetes.io/<c>`,
 * `seccomp.security.alpha.kubernetes.io/pod`, `container.seccomp.security.alpha.kubernetes.io/<c>`).
 */
export const APPARMOR_CONTAINER_ANNOTATION_PREFIXES: readonly string[] = NODE_LABEL_DOMAINS.map((d) => `container.apparmor.security.beta.${d}/`);
export const SECCOMP_POD_ANNOTATIONS: readonly string[] = NODE_LABEL_DOMAINS.map((d) => `seccomp.security.alpha.${d}/pod`);
export const SECCOMP_CONTAINER_ANNOTATION_PREFIXES: readonly string[] = NODE_LABEL_DOMAINS.map((d) => `container.seccomp.security.alpha.${d}/`);
/**
 * The deprecated annotation naming a PersistentVolume's or claim's storage class, which wins over
 * `spec.storageClassName` where set (upstream `volume.beta.kubernetes.io/storage-class`).
 */
export const BETA_STORAGE_CLASS_ANNOTATION = `${vendorGroup('volume.beta')}/storage-class`;
/**
 * The infix of a quota resource scoped to a storage class: `gold.storageclass.storage.orch.io/requests.storage`
 * (upstream `<class>.storageclass.storage.k8s.io/<resource>`).
 */
export const STORAGE_CLASS_QUOTA_SUFFIX = `.${vendorGroup('storageclass.storage')}/`;
/**
 * The deprecated annotation naming an Ingress's class, which must equal `spec.ingressClassName`
 * when both are set (upstream `kubernetes.io/ingress.class`).
 */
export const INGRESS_CLASS_ANNOTATION = vendorKey('ingress.class');
/**
 * The annotation whose value `"true"` marks the default IngressClass, which DefaultIngressClass
 * gives Ingresses created without a class (upstream `ingressclass.kubernetes.io/is-default-class`).
 */
export const DEFAULT_INGRESS_CLASS_ANNOTATION = `${vendorGroup('ingressclass')}/is-default-class`;

/**
 * API Priority and Fairness defaults (upstream `apf.kubernetes.io/autoupdate-spec`): on a default
 * FlowSchema or PriorityLevelConfiguration, `"true"` keeps it reconciled with the server's
 * built-in value at every start, `"false"` leaves a suggested object to its operator.
 */
export const APF_AUTOUPDATE_ANNOTATION = `${vendorGroup('apf')}/autoupdate-spec`;
/**
 * The v1beta3 round-trip annotation of a zero `nominalConcurrencyShares` (upstream
 * `flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares`), forbidden on a stored
 * PriorityLevelConfiguration.
 */
export const APF_PRESERVE_ZERO_SHARES_ANNOTATION = `${vendorGroup('flowcontrol')}/v1beta3-preserve-zero-concurrency-shares`;
/** The round-trip annotation in both spellings read: the vendor's and the upstream one (`flowcontrol.k8s.io/…`). */
export const APF_PRESERVE_ZERO_SHARES_ANNOTATIONS: readonly string[] = [APF_PRESERVE_ZERO_SHARES_ANNOTATION, `flowcontrol.${UPSTREAM_DOMAIN}/v1beta3-preserve-zero-concurrency-shares`];
/**
 * The response headers naming the UIDs of the FlowSchema and PriorityLevelConfiguration that
 * classified a request (upstream `X-Kubernetes-PF-FlowSchema-UID`, `X-Kubernetes-PF-PriorityLevel-UID`).
 */
export const APF_FLOW_SCHEMA_UID_HEADER = `X-${VENDOR.charAt(0).toUpperCase()}${VENDOR.slice(1)}-PF-FlowSchema-UID`;
export const APF_PRIORITY_LEVEL_UID_HEADER = `X-${VENDOR.charAt(0).toUpperCase()}${VENDOR.slice(1)}-PF-PriorityLevel-UID`;

/**
 * The annotations whose value `"true"` marks the default StorageClass (upstream
 * `storageclass.kubernetes.io/is-default-class` and its beta spelling): ours, then upstream's,
 * which stock tools and charts write.
 */
export const DEFAULT_STORAGE_CLASS_ANNOTATIONS: readonly string[] = [VENDOR_DOMAIN, UPSTREAM_LABEL_DOMAIN].flatMap((d) => [
  `storageclass.${d}/is-default-class`,
  `storageclass.beta.${d}/is-default-class`,
]);
/** The group of VolumeSnapshot, a claim data source kept for compatibility (upstream `snapshot.storage.k8s.io`). */
export const VOLUME_SNAPSHOT_GROUP = vendorGroup('snapshot.storage');
/**
 * The finalizers StorageObjectInUseProtection puts on new claims and volumes, removed by the
 * pvc-protection and pv-protection controllers once nothing uses them (upstream
 * `kubernetes.io/pvc-protection`, `kubernetes.io/pv-protection`).
 */
export const PVC_PROTECTION_FINALIZER = vendorKey('pvc-protection');
export const PV_PROTECTION_FINALIZER = vendorKey('pv-protection');
/**
 * The finalizer a CustomResourceDefinition gets on its first delete; the CRD finalizer controller
 * removes it once every custom object is gone (upstream `customresourcecleanup.apiextensions.k8s.io`).
 */
export const CRD_CLEANUP_FINALIZER = `customresourcecleanup.${vendorGroup('apiextensions')}`;

/**
 * CustomResourceDefinitions in the protected groups — the vendor's domain and the upstream
 * spellings this server also answers (`<x>.k8s.io`, `<x>.kubernetes.io`) — need an approval
 * annotation (upstream `api-approved.kubernetes.io`; issue #14): the vendor spelling, or the
 * upstream one, which stock CRDs of those groups carry.
 */
export const PROTECTED_GROUP_DOMAINS: readonly string[] = [VENDOR_DOMAIN, UPSTREAM_DOMAIN, UPSTREAM_LABEL_DOMAIN];
export const API_APPROVED_ANNOTATION = `api-approved.${VENDOR_DOMAIN}`;
export const UPSTREAM_API_APPROVED_ANNOTATION = `api-approved.${UPSTREAM_LABEL_DOMAIN}`;
/** The Pod annotation in which LimitRanger records the defaults it set (upstream `kubernetes.io/limit-ranger`). */
export const LIMIT_RANGER_ANNOTATION = vendorKey('limit-ranger');

/**
 * The label key of the selectors that kept policy/v1beta1 PodDisruptionBudget semantics across
 * the move to v1 (upstream `pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match`): a v1
 * write strips requirements on it unless the selector is exactly the match-none form.
 */
export const PDB_V1BETA1_SELECTOR_LABEL = `${vendorGroup('pdb')}/deprecated-v1beta1-empty-selector-match`;

/**
 * The label on the APIServices the server creates for the group versions it serves (upstream
 * `kube-aggregator.kubernetes.io/automanaged`), value {@link APISERVICE_MANAGED_ON_START}: kept
 * in sync with the server at each start, deleted at start when no longer served.
 */
export const APISERVICE_AUTOMANAGED_LABEL = `${VENDOR}-aggregator.${VENDOR_DOMAIN}/automanaged`;
/** The value of {@link APISERVICE_AUTOMANAGED_LABEL} on APIServices synchronized at start (upstream `onstart`). */
export const APISERVICE_MANAGED_ON_START = 'onstart';

/**
 * The autoscaling/v1 round-trip annotations of a HorizontalPodAutoscaler (upstream
 * `autoscaling.alpha.kubernetes.io/metrics`, `…/current-metrics`, `…/conditions`, `…/behavior`):
 * what autoscaling/v2 holds and v1 has no field for — the metrics other than a CPU utilization
 * target, the current metrics, the conditions and the scaling behavior — as JSON in the v1
 * object's annotations, so that a v1 client reads back what a v2 client wrote.
 */
export const HPA_METRICS_ANNOTATION = `${vendorGroup('autoscaling.alpha')}/metrics`;
export const HPA_CURRENT_METRICS_ANNOTATION = `${vendorGroup('autoscaling.alpha')}/current-metrics`;
export const HPA_CONDITIONS_ANNOTATION = `${vendorGroup('autoscaling.alpha')}/conditions`;
export const HPA_BEHAVIOR_ANNOTATION = `${vendorGroup('autoscaling.alpha')}/behavior`;

/**
 * The Service in `default` that fronts the API servers (upstream `kubernetes`, in-cluster name
 * `orch.default.svc`, the default service-account issuer's host), with upstream's labels
 * (`provider: kubernetes`, `component: apiserver`). Its Endpoints and EndpointSlice have the same name.
 */
export const API_SERVER_SERVICE_NAME = VENDOR;
export const API_SERVER_SERVICE_LABELS: Readonly<Record<string, string>> = { provider: VENDOR, component: 'apiserver' };
/** The EndpointSlice label naming the Service a slice belongs to (upstream `kubernetes.io/service-name`). */
export const ENDPOINT_SLICE_SERVICE_NAME_LABEL = vendorKey('service-name');
/** The Endpoints label that keeps the EndpointSlice mirroring away (upstream `endpointslice.kubernetes.io/skip-mirror`). */
export const ENDPOINT_SLICE_SKIP_MIRROR_LABEL = `${vendorGroup('endpointslice')}/skip-mirror`;

/**
 * API server identity leases (issue #16 item 1, upstream APIServerIdentity): each server's Lease
 * in the system namespace is named `<prefix><hash>` (upstream `kube-apiserver-<hash>`) and carries
 * the label `apiserver.orch.io/identity: orch-apiserver` (upstream
 * `apiserver.kubernetes.io/identity: kube-apiserver`) and the hostname label (upstream `kubernetes.io/hostname`).
 */
export const API_SERVER_IDENTITY_LEASE_PREFIX = `${SERVER_NAME}-`;
export const API_SERVER_IDENTITY_LABEL = `${vendorGroup('apiserver')}/identity`;
export const API_SERVER_IDENTITY_LABEL_VALUE = SERVER_NAME;
export const HOSTNAME_LABEL = vendorKey('hostname');
/** Default name of the controllers' leader-election Lease (upstream `kube-controller-manager`). */
export const CONTROLLER_MANAGER_LEASE_NAME = `${VENDOR}-controller-manager`;

/**
 * The user the aggregation layer names to extension API servers for its own discovery and
 * availability checks (upstream `system:kube-aggregator`, with the group `system:masters`).
 */
export const AGGREGATOR_USER = `system:${VENDOR}-aggregator`;
