/**
 * The warning a request of a deprecated built-in kind carries (spec 001 § Effects of calling a
 * deprecated endpoint; upstream `k8s.io/apiserver/pkg/endpoints/deprecation.WarningMessage`):
 * `<apiVersion> <Kind> is deprecated in v<since>+`, then `, unavailable in v<removed>+` when the
 * kind declares its removal release, then `; use <group/version> <Kind>` when it declares a
 * replacement. A kind with its own `deprecationWarning` (a CRD version's) warns with that instead.
 */
import type { KindDefinition } from './define.js';

/** The `apiVersion` of a group and version: `v1` for the core group, `<group>/<version>` otherwise. */
function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * The deprecation warning of `kind` (without the `299 - "…"` header framing), or undefined when
 * it is not deprecated (neither `deprecationWarning` nor `deprecatedSince`). Never throws.
 */
export function deprecationWarning(kind: KindDefinition): string | undefined {
  if (kind.deprecationWarning !== undefined) return kind.deprecationWarning;
  if (kind.deprecatedSince === undefined) return undefined;
  let msg = `${kind.apiVersion} ${kind.kind} is deprecated in v${kind.deprecatedSince}+`;
  if (kind.removedIn !== undefined) msg += `, unavailable in v${kind.removedIn}+`;
  const r = kind.replacement;
  if (r !== undefined) msg += `; use ${apiVersionOf(r.group, r.version)} ${r.kind}`;
  return msg;
}
