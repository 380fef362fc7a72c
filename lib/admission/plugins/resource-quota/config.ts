/**
 * The ResourceQuota plugin's configuration from `--admission-control-config-file` (upstream's
 * Configuration of group `resourcequota.admission.<vendor>`, v1 / v1beta1 / v1alpha1, the
 * upstream spelling accepted): `limitedResources`, the
 * resources that may only be consumed when a quota covers them (spec 001 § Admission control).
 */
import { ConfigDecodeError, decodeConfigDocument } from '../../../apimachinery/serializers/config-document.js';
import { type Obj, list, obj, objs, str } from '../../../apis/core/v1/obj-access.js';
import { canonicalGroup, vendorGroup } from '../../../apis/vendor.js';
import type { ScopeRequirement } from './scopes.js';

/** One `limitedResources` entry. */
export interface LimitedResource {
  /** Vendor spelling ('' for core). */
  apiGroup: string;
  resource: string;
  /** A consumed quota name containing one of these must be covered by a quota (`requests.cpu` by `cpu`). */
  matchContains: string[];
  /** A pod falling in one of these scopes must be covered by a quota with that scope. */
  matchScopes: ScopeRequirement[];
}

/** The group of the plugin's configuration kind. */
export const RESOURCE_QUOTA_CONFIG_GROUP = vendorGroup('resourcequota.admission');

/**
 * Reads the plugin's configuration object (undefined: no configuration, nothing limited).
 * @throws Error for a document of another kind or version, or an entry without `resource`
 *   (upstream: `limitedResources[0].resource: Required value`).
 */
export function loadResourceQuotaConfig(raw: Obj | undefined): LimitedResource[] {
  if (raw === undefined) return [];
  try {
    decodeConfigDocument(JSON.stringify(raw), { kind: 'Configuration', group: RESOURCE_QUOTA_CONFIG_GROUP, versions: ['v1', 'v1beta1', 'v1alpha1'], canonicalGroup });
  } catch (err) {
    if (err instanceof ConfigDecodeError) throw new Error(`ResourceQuota configuration error: ${err.message}`, { cause: err });
    throw err;
  }
  const errs: string[] = [];
  const out = objs(raw.limitedResources).map((l, i) => {
    if (str(l.resource) === '') errs.push(`limitedResources[${i}].resource: Required value`);
    return {
      apiGroup: canonicalGroup(str(l.apiGroup)),
      resource: str(l.resource),
      matchContains: list(l.matchContains).map(str),
      matchScopes: objs(l.matchScopes).map((s) => ({ scopeName: str(s.scopeName), operator: str(s.operator), values: list(obj(s)?.values).map(str) })),
    };
  });
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  return out;
}
