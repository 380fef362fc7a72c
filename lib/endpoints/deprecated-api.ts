/**
 * What a request served by a deprecated API leaves behind besides its `Warning` header (spec 001
 * § Effects of calling a deprecated endpoint; upstream endpoints/metrics `MonitorRequest`): the
 * audit annotations `<vendor>/deprecated: "true"` and, when a removal release is planned,
 * `<vendor>/removed-release: "1.y"`, and one sample of the gauge
 * `apiserver_requested_deprecated_apis` through a recorder the server hands the installer.
 */
import type { KindDefinition } from '../apis/define.js';
import { DEPRECATED_API_AUDIT_ANNOTATION, REMOVED_RELEASE_AUDIT_ANNOTATION } from '../apis/vendor.js';
import type { RequestContext } from '../request/context.js';

/** The labels of one requested deprecated API, as the client addressed it (`group` '' for the core group). */
export interface DeprecatedAPIRequest {
  group: string;
  version: string;
  resource: string;
  /** '' for the main resource. */
  subresource: string;
  /** `1.y`, or '' when no removal is planned. */
  removedRelease: string;
}

/** Receives every request served by a deprecated API (the server's metrics: `apiserver_requested_deprecated_apis`). */
export interface DeprecatedAPIRecorder {
  requestedDeprecatedAPI(request: DeprecatedAPIRequest): void;
}

/**
 * Marks the request `req` as served by the deprecated `kind` (one with a deprecation warning:
 * lib/apis/deprecation.ts): sets the audit annotations — the removal release from the kind's
 * `removedIn` (upstream `APILifecycleRemoved`; custom resources have none, as upstream) — and, with
 * a recorder, records the request under the group, version, resource and subresource the client
 * addressed (`req.requestInfo`). Never throws unless the recorder does.
 */
export function markDeprecatedRequest(req: RequestContext, kind: KindDefinition, recorder: DeprecatedAPIRecorder | undefined): void {
  const removedRelease = kind.removedIn ?? '';
  req.auditAnnotations[DEPRECATED_API_AUDIT_ANNOTATION] = 'true';
  if (removedRelease !== '') req.auditAnnotations[REMOVED_RELEASE_AUDIT_ANNOTATION] = removedRelease;
  const info = req.requestInfo;
  recorder?.requestedDeprecatedAPI({ group: info.apiGroup, version: info.apiVersion, resource: info.resource, subresource: info.subresource, removedRelease });
}
