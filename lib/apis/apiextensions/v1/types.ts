/**
 * The types of `apiextensions.<vendor>/v1` CustomResourceDefinition (upstream v1.30
 * `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1`: field order, JSON names,
 * `omitempty`, pointers, protobuf numbers, list markers). Defaults as upstream's
 * `SetDefaults_CustomResourceDefinitionSpec` and `SetDefaults_ServiceReference`: `names.singular`
 * is the lower-cased kind and `names.listKind` the kind + `List` when empty, `conversion` is
 * `{strategy: None}` when absent, a conversion service's port is 443;
 * `SetDefaults_CustomResourceDefinition`: an empty `status.storedVersions` becomes the storage
 * version.
 */
import { boolean, bytes, field, int32, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { vendorGroup } from '../../vendor.js';
import { jsonSchemaProps } from './schema-props.js';

/** The API group of CustomResourceDefinition. */
export const APIEXTENSIONS_GROUP = vendorGroup('apiextensions');

const AX = 'apiextensions-apiserver.pkg.apis.apiextensions.v1';
const atomicStrings = () => listOf(string, { listType: 'atomic' });

/** Upstream `SetDefaults_CustomResourceDefinitionSpec` for `spec.names`: singular and listKind from the kind. */
function defaultSpecNames(spec: Record<string, unknown>): void {
  const names = spec.names;
  if (names === null || typeof names !== 'object' || Array.isArray(names)) return;
  const n = names as Record<string, unknown>;
  const kind = typeof n.kind === 'string' ? n.kind : '';
  if (!n.singular) n.singular = kind.toLowerCase();
  if (!n.listKind && kind) n.listKind = `${kind}List`;
}

/** `spec.names` and `status.acceptedNames` (upstream CustomResourceDefinitionNames). */
export const crdNames = struct(
  `${AX}.CustomResourceDefinitionNames`,
  {
    plural: field(1, string, { required: true, omitEmpty: false, description: 'The plural resource name in URLs (lower case).' }),
    singular: field(2, string, { description: 'The singular name (lower case); defaults to the lower-cased kind.' }),
    shortNames: field(3, atomicStrings(), { description: 'Short names for command-line tools.' }),
    kind: field(4, string, { required: true, omitEmpty: false, description: 'The kind of the custom objects (CamelCase).' }),
    listKind: field(5, string, { description: 'The kind of their lists; defaults to the kind + List.' }),
    categories: field(6, atomicStrings(), { description: 'Groups of resources the resource belongs to (`all`).' }),
  },
  { description: 'The names of a custom resource.' },
);

/** `subresources.scale` (upstream CustomResourceSubresourceScale). */
export const crdScale = struct(`${AX}.CustomResourceSubresourceScale`, {
  specReplicasPath: field(1, string, { required: true, omitEmpty: false, description: 'JSON path of the desired replicas, under `.spec`.' }),
  statusReplicasPath: field(2, string, { required: true, omitEmpty: false, description: 'JSON path of the observed replicas, under `.status`.' }),
  labelSelectorPath: field(3, string, { pointer: true, description: 'JSON path of the label selector string, under `.spec` or `.status`.' }),
});

/** `subresources` (upstream CustomResourceSubresources; `status` is an empty object that enables `/status`). */
export const crdSubresources = struct(`${AX}.CustomResourceSubresources`, {
  status: field(1, struct(`${AX}.CustomResourceSubresourceStatus`, {}), { description: 'Enables the status subresource.' }),
  scale: field(2, crdScale, { description: 'Enables the scale subresource.' }),
});

/** One `additionalPrinterColumns` entry (upstream CustomResourceColumnDefinition). */
export const crdColumn = struct(`${AX}.CustomResourceColumnDefinition`, {
  name: field(1, string, { required: true, omitEmpty: false, description: 'The column title.' }),
  type: field(2, string, { required: true, omitEmpty: false, description: 'integer, number, string, boolean or date.' }),
  format: field(3, string, { description: 'An optional format hint of the type.' }),
  description: field(4, string, { description: 'A description of the column.' }),
  priority: field(5, int32, { description: '0 for the default view, more for wide views.' }),
  jsonPath: field(6, string, { required: true, omitEmpty: false, description: 'A simple JSONPath evaluated against each object.' }),
});

/** One `selectableFields` entry (upstream SelectableField). */
export const selectableField = struct(`${AX}.SelectableField`, {
  jsonPath: field(1, string, { required: true, omitEmpty: false, description: 'A field path to a string, integer or boolean field.' }),
});

/** One entry of `spec.versions` (upstream CustomResourceDefinitionVersion). */
export const crdVersion = struct(`${AX}.CustomResourceDefinitionVersion`, {
  name: field(1, string, { required: true, omitEmpty: false, description: 'The version name in URLs (`v1`, `v1beta1`).' }),
  served: field(2, boolean, { required: true, omitEmpty: false, description: 'The version is served over REST.' }),
  storage: field(3, boolean, { required: true, omitEmpty: false, description: 'Objects are stored in this version (exactly one).' }),
  deprecated: field(7, boolean, { description: 'Requests of this version get a deprecation warning.' }),
  deprecationWarning: field(8, string, { pointer: true, description: 'Overrides the default deprecation warning.' }),
  schema: field(4, struct(`${AX}.CustomResourceValidation`, { openAPIV3Schema: field(1, jsonSchemaProps, { description: 'The OpenAPI v3 schema.' }) }), {
    description: 'The validation schema of the version.',
  }),
  subresources: field(5, crdSubresources, { description: 'The subresources of the version.' }),
  additionalPrinterColumns: field(6, listOf(crdColumn, { listType: 'atomic' }), { description: 'Extra Table columns of the version.' }),
  selectableFields: field(9, listOf(selectableField, { listType: 'atomic' }), { description: 'Fields usable in field selectors.' }),
});

/** A conversion webhook's service (upstream ServiceReference); port defaults to 443. */
export const crdServiceReference = struct(`${AX}.ServiceReference`, {
  namespace: field(1, string, { required: true, omitEmpty: false, description: 'Namespace of the service.' }),
  name: field(2, string, { required: true, omitEmpty: false, description: 'Name of the service.' }),
  path: field(3, string, { pointer: true, description: 'URL path sent in every request to the service.' }),
  port: field(4, int32, { default: 443, description: 'Port of the service (1-65535).' }),
});

/** A conversion webhook's address (upstream WebhookClientConfig). */
export const crdWebhookClientConfig = struct(`${AX}.WebhookClientConfig`, {
  url: field(3, string, { pointer: true, description: 'https URL of the webhook, without user information, query or fragment.' }),
  service: field(1, crdServiceReference, { description: 'The in-cluster service of the webhook.' }),
  caBundle: field(2, bytes, { description: "PEM CA bundle verifying the webhook's serving certificate." }),
});

/** `spec.conversion` (upstream CustomResourceConversion). */
export const crdConversion = struct(`${AX}.CustomResourceConversion`, {
  strategy: field(1, string, { required: true, omitEmpty: false, description: 'None or Webhook.' }),
  webhook: field(
    2,
    struct(`${AX}.WebhookConversion`, {
      clientConfig: field(2, crdWebhookClientConfig, { description: 'How to reach the webhook.' }),
      conversionReviewVersions: field(3, atomicStrings(), { required: true, omitEmpty: false, description: 'ConversionReview versions the webhook accepts, preferred first.' }),
    }),
    { description: 'The webhook of the Webhook strategy.' },
  ),
});

/** Conversion strategies (upstream ConversionStrategyType). */
export const NONE_CONVERSION = 'None';
export const WEBHOOK_CONVERSION = 'Webhook';

/** `spec` (upstream CustomResourceDefinitionSpec). */
export const crdSpec = struct(
  `${AX}.CustomResourceDefinitionSpec`,
  {
    group: field(1, string, { required: true, omitEmpty: false, description: 'The API group of the custom objects.' }),
    names: field(3, crdNames, { required: true, omitEmpty: false, description: 'The names of the resource.' }),
    scope: field(4, string, { required: true, omitEmpty: false, description: 'Cluster or Namespaced.' }),
    versions: field(7, listOf(crdVersion, { listType: 'atomic' }), { required: true, omitEmpty: false, description: 'The versions, exactly one of them the storage version.' }),
    conversion: field(9, crdConversion, { default: { strategy: NONE_CONVERSION }, description: 'How objects are converted between versions.' }),
    preserveUnknownFields: field(10, boolean, { description: 'Must be false (kept for compatibility).' }),
  },
  { defaulter: defaultSpecNames },
);

/** One status condition (upstream CustomResourceDefinitionCondition). */
export const crdCondition = struct(`${AX}.CustomResourceDefinitionCondition`, {
  type: field(1, string, { required: true, omitEmpty: false, description: 'Established, NamesAccepted, NonStructuralSchema, Terminating…' }),
  status: field(2, string, { required: true, omitEmpty: false, description: 'True, False or Unknown.' }),
  lastTransitionTime: field(3, time, { description: 'When the status last changed.' }),
  reason: field(4, string, { description: 'A CamelCase reason of the last transition.' }),
  message: field(5, string, { description: 'A human-readable message of the last transition.' }),
});

/**
 * Upstream `SetDefaults_CustomResourceDefinition`: an empty `status.storedVersions` becomes the
 * storage version of `spec.versions` (the first marked one), when there is one.
 */
function defaultStoredVersions(status: Record<string, unknown>, crd: Record<string, unknown>): void {
  const stored = status.storedVersions;
  if (Array.isArray(stored) && stored.length > 0) return;
  const versions = (crd.spec as Record<string, unknown> | undefined)?.versions;
  if (!Array.isArray(versions)) return;
  const storage = versions.find((v) => v !== null && typeof v === 'object' && (v as Record<string, unknown>).storage === true) as Record<string, unknown> | undefined;
  if (storage && typeof storage.name === 'string') status.storedVersions = [storage.name];
}

/** `status` (upstream CustomResourceDefinitionStatus). */
export const crdStatus = struct(
  `${AX}.CustomResourceDefinitionStatus`,
  {
    conditions: field(1, listOf(crdCondition, { listType: 'map', listMapKeys: ['type'] }), { description: 'The conditions of the definition.' }),
    acceptedNames: field(2, crdNames, { omitEmpty: false, description: 'The names actually served (they may differ from spec.names on conflicts).' }),
    storedVersions: field(3, atomicStrings(), { omitEmpty: false, description: 'Every version objects were ever stored in.' }),
  },
  { defaulter: defaultStoredVersions },
);
