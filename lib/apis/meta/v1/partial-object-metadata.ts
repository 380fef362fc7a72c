/**
 * The metadata-only kinds of the meta group as protobuf messages (spec 000 § Protobuf envelope,
 * § Content negotiation and encoding; issue #6 item 6, issue #9), with the numbers of upstream's
 * `generated.proto`:
 *
 *   v1       PartialObjectMetadata     { ObjectMeta metadata = 1 }
 *   v1       PartialObjectMetadataList { ListMeta metadata = 1; repeated PartialObjectMetadata items = 2 }
 *   v1beta1  PartialObjectMetadataList { repeated PartialObjectMetadata items = 1; ListMeta metadata = 2 }
 *
 * (meta/v1beta1 declares its own list, numbered the other way round, around v1's
 * PartialObjectMetadata.) The JSON shapes are built by lib/apimachinery/meta-only.ts.
 */
import { field, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import type { StructSchema } from '../../../apimachinery/schema/types.js';
import type { ProtobufKind } from '../../../apimachinery/serializers/protobuf/index.js';
import { META_GROUP, canonicalGroup } from '../../vendor.js';
import { listMeta, objectMeta } from './types.js';

const META = 'apimachinery.pkg.apis.meta';

/** The versions of the meta group serving Table and the metadata-only kinds, as upstream: v1 and v1beta1. */
export const META_VERSIONS: readonly string[] = ['v1', 'v1beta1'];

/** meta/v1 PartialObjectMetadata: metadata=1. */
export const partialObjectMetadataSchema = struct(`${META}.v1.PartialObjectMetadata`, {
  apiVersion: field(0, string),
  kind: field(0, string),
  metadata: field(1, objectMeta),
});

/** meta/v1 PartialObjectMetadataList: metadata=1, items=2. */
export const partialObjectMetadataListSchema = struct(`${META}.v1.PartialObjectMetadataList`, {
  apiVersion: field(0, string),
  kind: field(0, string),
  metadata: field(1, listMeta),
  items: field(2, listOf(partialObjectMetadataSchema)),
});

/** meta/v1beta1 PartialObjectMetadataList: items=1, metadata=2. */
export const partialObjectMetadataListV1beta1Schema = struct(`${META}.v1beta1.PartialObjectMetadataList`, {
  apiVersion: field(0, string),
  kind: field(0, string),
  metadata: field(2, listMeta),
  items: field(1, listOf(partialObjectMetadataSchema)),
});

/** The schema of a metadata-only kind in a version of the meta group. */
function schemaOf(version: string, kind: string): StructSchema | undefined {
  if (!META_VERSIONS.includes(version)) return undefined;
  if (kind === 'PartialObjectMetadata') return partialObjectMetadataSchema;
  if (kind === 'PartialObjectMetadataList') return version === 'v1' ? partialObjectMetadataListSchema : partialObjectMetadataListV1beta1Schema;
  return undefined;
}

/**
 * The protobuf facts of a metadata-only document: `apiVersion` is `<meta group>/v1` or
 * `/v1beta1`, the group in either spelling (`meta.<vendor domain>` or its upstream alias);
 * `kind` PartialObjectMetadata or PartialObjectMetadataList. Undefined for anything else (Table
 * included: upstream answers it in JSON and YAML only).
 */
export function metaProtobufKind(apiVersion: string, kind: string): ProtobufKind | undefined {
  const slash = apiVersion.indexOf('/');
  if (slash < 0 || canonicalGroup(apiVersion.slice(0, slash)) !== META_GROUP) return undefined;
  const schema = schemaOf(apiVersion.slice(slash + 1), kind);
  return schema && { apiVersion, kind, schema };
}
