/**
 * Media types named by the OpenAPI documents: what the resource operations consume and produce
 * (spec 000 § Content negotiation and encoding, § Patch content types), and the representations
 * of the OpenAPI documents themselves (kube-openapi's handler and handler3).
 */
import { PROTOBUF_MEDIA_TYPE } from '../../apis/vendor.js';

/** What every resource operation answers in. */
export const OPERATION_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];
/** The streaming forms of list and watch answers. */
export const WATCH_MEDIA_TYPES: readonly string[] = ['application/json;stream=watch', `${PROTOBUF_MEDIA_TYPE};stream=watch`];
/** The patch formats a built-in kind accepts (spec 000 § Patch content types). */
export const JSON_PATCH_MEDIA_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** The protobuf form of `/openapi/v2` as clients request it (the `@` form, still accepted). */
export const OPENAPI_V2_PROTOBUF_REQUEST_SUBTYPE = 'com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** The protobuf form of `/openapi/v2` as answered (the dot form; the `@` form breaks clients). */
export const OPENAPI_V2_PROTOBUF_SUBTYPE = 'com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The `Content-Type` of a protobuf `/openapi/v2` answer. */
export const OPENAPI_V2_PROTOBUF_MEDIA_TYPE = `application/${OPENAPI_V2_PROTOBUF_SUBTYPE}`;
