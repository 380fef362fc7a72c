/**
 * The shapes of apiextensions.<vendor>/v1 objects as this server reads them (JSON, after
 * decoding): CustomResourceDefinition and the JSONSchemaProps of its `openAPIV3Schema`, with the
 * schema extension keys built once from the vendor word (spec 000 § Merge strategy markers,
 * § Expression language (CEL) in fields; spec 001 § Versioning, apiextensions v1). The kind's
 * declaration (schema, defaults, OpenAPI) is lib/apis/apiextensions/v1; these are the TypeScript
 * views every module of lib/apiextensions shares.
 */
import { schemaExtension } from '../apis/vendor.js';

/** The schema extension keys a CRD schema may carry (`x-<vendor>-…`). */
export const EXT = {
  preserveUnknownFields: schemaExtension('preserve-unknown-fields'),
  embeddedResource: schemaExtension('embedded-resource'),
  intOrString: schemaExtension('int-or-string'),
  listType: schemaExtension('list-type'),
  listMapKeys: schemaExtension('list-map-keys'),
  mapType: schemaExtension('map-type'),
  validations: schemaExtension('validations'),
} as const;

/** One `x-<vendor>-validations` rule (upstream ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** `FieldValueInvalid` (default), `FieldValueForbidden`, `FieldValueRequired`, `FieldValueDuplicate`. */
  reason?: string;
  /** A JSONPath-like path relative to the schema node (`.spec.x`, `['a.b']`, `.list[0]` not allowed). */
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/**
 * JSONSchemaProps (upstream apiextensions v1), as decoded JSON. Vendor extensions are read by
 * their keys in EXT (`props[EXT.preserveUnknownFields]`).
 */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** One schema (arrays of schemas are refused by validation). */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  /** Vendor extensions (EXT keys). */
  [extension: string]: unknown;
}

/** `spec.names` / `status.acceptedNames`. */
export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

/** One additionalPrinterColumns entry. */
export interface CustomResourceColumnDefinition {
  name: string;
  /** `integer`, `number`, `string`, `boolean`, `date`. */
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** `subresources.scale`. */
export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** `subresources`. */
export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

/** A selectable field (1.30 alpha CustomResourceFieldSelectors; `jsonPath` into the object). */
export interface SelectableField {
  jsonPath: string;
}

/** One entry of `spec.versions`. */
export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

/** `spec.conversion.webhook.clientConfig`. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 PEM bundle. */
  caBundle?: string;
}

/** `spec.conversion`. */
export interface CustomResourceConversion {
  /** `None` or `Webhook`. */
  strategy: string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions: string[] };
}

/** `spec`. */
export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  /** `Namespaced` or `Cluster`. */
  scope: string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

/** One condition of `status.conditions`. */
export interface CustomResourceDefinitionCondition {
  /** `Established`, `NamesAccepted`, `NonStructuralSchema`, `Terminating`, `KubernetesAPIApprovalPolicyConformant`. */
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status`. */
export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

/** A CustomResourceDefinition object. */
export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata: Record<string, unknown> & { name?: string; uid?: string; generation?: number; deletionTimestamp?: string; finalizers?: string[]; resourceVersion?: string };
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}
