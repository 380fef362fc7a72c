/**
 * Our protobufjs declarations of the gnostic `openapi.v2` messages the protobuf form of
 * `/openapi/v2` uses (field numbers of `google/gnostic` `openapiv2/OpenAPIv2.proto`; only the
 * fields we write are declared — unknown fields are skipped by every decoder). `Any` carries its
 * value as YAML text (field 2), as gnostic's JSON parser stores defaults, enums and extensions.
 */
import protobuf from 'protobufjs';

type Fields = Record<string, { id: number; type: string; rule?: 'repeated' }>;

const one = (id: number, type: string) => ({ id, type });
const many = (id: number, type: string) => ({ id, type, rule: 'repeated' as const });
const named = (valueType: string): { fields: Fields } => ({ fields: { name: one(1, 'string'), value: one(2, valueType) } });

const MESSAGES: Record<string, { fields: Fields; oneofs?: Record<string, { oneof: string[] }> }> = {
  Document: {
    fields: {
      swagger: one(1, 'string'),
      info: one(2, 'Info'),
      host: one(3, 'string'),
      basePath: one(4, 'string'),
      schemes: many(5, 'string'),
      consumes: many(6, 'string'),
      produces: many(7, 'string'),
      paths: one(8, 'Paths'),
      definitions: one(9, 'Definitions'),
      security: many(12, 'SecurityRequirement'),
      securityDefinitions: one(13, 'SecurityDefinitions'),
      vendorExtension: many(16, 'NamedAny'),
    },
  },
  Info: { fields: { title: one(1, 'string'), version: one(2, 'string'), description: one(3, 'string'), vendorExtension: many(7, 'NamedAny') } },
  Paths: { fields: { vendorExtension: many(1, 'NamedAny'), path: many(2, 'NamedPathItem') } },
  NamedPathItem: named('PathItem'),
  PathItem: {
    fields: {
      ref: one(1, 'string'),
      get: one(2, 'Operation'),
      put: one(3, 'Operation'),
      post: one(4, 'Operation'),
      delete: one(5, 'Operation'),
      options: one(6, 'Operation'),
      head: one(7, 'Operation'),
      patch: one(8, 'Operation'),
      parameters: many(9, 'ParametersItem'),
      vendorExtension: many(10, 'NamedAny'),
    },
  },
  Operation: {
    fields: {
      tags: many(1, 'string'),
      summary: one(2, 'string'),
      description: one(3, 'string'),
      operationId: one(5, 'string'),
      produces: many(6, 'string'),
      consumes: many(7, 'string'),
      parameters: many(8, 'ParametersItem'),
      responses: one(9, 'Responses'),
      schemes: many(10, 'string'),
      deprecated: one(11, 'bool'),
      vendorExtension: many(13, 'NamedAny'),
    },
  },
  ParametersItem: { fields: { parameter: one(1, 'Parameter'), jsonReference: one(2, 'JsonReference') }, oneofs: { oneof: { oneof: ['parameter', 'jsonReference'] } } },
  Parameter: { fields: { bodyParameter: one(1, 'BodyParameter'), nonBodyParameter: one(2, 'NonBodyParameter') }, oneofs: { oneof: { oneof: ['bodyParameter', 'nonBodyParameter'] } } },
  BodyParameter: { fields: { description: one(1, 'string'), name: one(2, 'string'), in: one(3, 'string'), required: one(4, 'bool'), schema: one(5, 'Schema'), vendorExtension: many(6, 'NamedAny') } },
  NonBodyParameter: {
    fields: { queryParameterSubSchema: one(3, 'QueryParameterSubSchema'), pathParameterSubSchema: one(4, 'PathParameterSubSchema') },
    oneofs: { oneof: { oneof: ['queryParameterSubSchema', 'pathParameterSubSchema'] } },
  },
  QueryParameterSubSchema: {
    fields: { required: one(1, 'bool'), in: one(2, 'string'), description: one(3, 'string'), name: one(4, 'string'), type: one(6, 'string'), format: one(7, 'string'), uniqueItems: one(20, 'bool'), vendorExtension: many(23, 'NamedAny') },
  },
  PathParameterSubSchema: {
    fields: { required: one(1, 'bool'), in: one(2, 'string'), description: one(3, 'string'), name: one(4, 'string'), type: one(5, 'string'), format: one(6, 'string'), uniqueItems: one(19, 'bool'), vendorExtension: many(22, 'NamedAny') },
  },
  JsonReference: { fields: { ref: one(1, 'string'), description: one(2, 'string') } },
  Responses: { fields: { responseCode: many(1, 'NamedResponseValue'), vendorExtension: many(2, 'NamedAny') } },
  NamedResponseValue: named('ResponseValue'),
  ResponseValue: { fields: { response: one(1, 'Response'), jsonReference: one(2, 'JsonReference') }, oneofs: { oneof: { oneof: ['response', 'jsonReference'] } } },
  Response: { fields: { description: one(1, 'string'), schema: one(2, 'SchemaItem'), vendorExtension: many(5, 'NamedAny') } },
  SchemaItem: { fields: { schema: one(1, 'Schema') }, oneofs: { oneof: { oneof: ['schema'] } } },
  Schema: {
    fields: {
      ref: one(1, 'string'),
      format: one(2, 'string'),
      title: one(3, 'string'),
      description: one(4, 'string'),
      default: one(5, 'Any'),
      maximum: one(7, 'double'),
      minimum: one(9, 'double'),
      maxLength: one(11, 'int64'),
      minLength: one(12, 'int64'),
      pattern: one(13, 'string'),
      maxItems: one(14, 'int64'),
      minItems: one(15, 'int64'),
      uniqueItems: one(16, 'bool'),
      required: many(19, 'string'),
      enum: many(20, 'Any'),
      additionalProperties: one(21, 'AdditionalPropertiesItem'),
      type: one(22, 'TypeItem'),
      items: one(23, 'ItemsItem'),
      allOf: many(24, 'Schema'),
      properties: one(25, 'Properties'),
      readOnly: one(27, 'bool'),
      vendorExtension: many(31, 'NamedAny'),
    },
  },
  AdditionalPropertiesItem: { fields: { schema: one(1, 'Schema'), boolean: one(2, 'bool') }, oneofs: { oneof: { oneof: ['schema', 'boolean'] } } },
  TypeItem: { fields: { value: many(1, 'string') } },
  ItemsItem: { fields: { schema: many(1, 'Schema') } },
  Properties: { fields: { additionalProperties: many(1, 'NamedSchema') } },
  Definitions: { fields: { additionalProperties: many(1, 'NamedSchema') } },
  NamedSchema: named('Schema'),
  Any: { fields: { yaml: one(2, 'string') } },
  NamedAny: named('Any'),
  SecurityRequirement: { fields: { additionalProperties: many(1, 'NamedStringArray') } },
  NamedStringArray: named('StringArray'),
  StringArray: { fields: { value: many(1, 'string') } },
  SecurityDefinitions: { fields: { additionalProperties: many(1, 'NamedSecurityDefinitionsItem') } },
  NamedSecurityDefinitionsItem: named('SecurityDefinitionsItem'),
  SecurityDefinitionsItem: { fields: { apiKeySecurity: one(2, 'ApiKeySecurity') }, oneofs: { oneof: { oneof: ['apiKeySecurity'] } } },
  ApiKeySecurity: { fields: { type: one(1, 'string'), name: one(2, 'string'), in: one(3, 'string'), description: one(4, 'string'), vendorExtension: many(5, 'NamedAny') } },
};

const root = protobuf.Root.fromJSON({ nested: { openapi: { nested: { v2: { nested: MESSAGES } } } } });

/** The gnostic `openapi.v2.Document` message type. */
export const GnosticDocument: protobuf.Type = root.lookupType('openapi.v2.Document');
/** One entry of `Document.paths.path` (field 2 of `Paths`; `paths` is field 8 of `Document`). */
export const GnosticNamedPathItem: protobuf.Type = root.lookupType('openapi.v2.NamedPathItem');
/** One entry of `Document.definitions.additional_properties` (field 1 of `Definitions`; field 9 of `Document`). */
export const GnosticNamedSchema: protobuf.Type = root.lookupType('openapi.v2.NamedSchema');
