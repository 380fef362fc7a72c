/**
 * The installer of the resources this control plane serves (lib/controlplane/resources.ts),
 * without storage behind it: enough to build the OpenAPI documents in unit tests.
 */
import { AdmissionChain } from '../../../../lib/admission/chain.js';
import { field, string, struct } from '../../../../lib/apimachinery/schema/builder.js';
import { type KindDefinition, defineKind } from '../../../../lib/apis/define.js';
import { objectMeta } from '../../../../lib/apis/meta/v1/types.js';
import { resolveAPIEnablement } from '../../../../lib/controlplane/api-enablement.js';
import { createOnlyResources, servedResources } from '../../../../lib/controlplane/resources.js';
import { EMPTY_RUNTIME_CONFIG } from '../../../../lib/server/options/runtime-config.js';
import { UnionAuthenticator } from '../../../../lib/authentication/union.js';
import { UnionAuthorizer, UnionRuleResolver } from '../../../../lib/authorization/union.js';
import { APIInstaller, versionEntry } from '../../../../lib/endpoints/installer.js';
import type { StorageInterface } from '../../../../lib/storage/interface.js';

/**
 * Whether a server without `--runtime-config` serves `kind` (issue #15 item 2: GA versions on,
 * beta and alpha off but for upstream's exceptions), decided among `known` as instance.ts does.
 */
export function servedByDefault(known: readonly KindDefinition[]): (kind: KindDefinition) => boolean {
  const enabled = resolveAPIEnablement(EMPTY_RUNTIME_CONFIG, known);
  return (k) => enabled.resourceEnabled(k.group, k.version, k.resource);
}

/**
 * A fresh installer serving every built-in resource a server without `--runtime-config` serves
 * (stores without storage; the create-only ones with their Creaters; the other versions of stored
 * kinds after them), with the upstream aliases (issue #9) on unless `upstreamAliases` is false.
 */
export function servedInstaller(upstreamAliases = true): APIInstaller {
  const installer = new APIInstaller(new AdmissionChain([]), { watchList: false, responseCompression: true, upstreamAliases });
  const resources = servedResources(() => ({}) as StorageInterface, '/registry');
  const versions = resources.flatMap((r) => r.versions ?? []).map(versionEntry);
  const creaters = createOnlyResources(new UnionAuthenticator([], { anonymous: false }), { authorizer: new UnionAuthorizer([]), ruleResolver: new UnionRuleResolver([]) });
  const served = servedByDefault([...resources.map((r) => r.store.strategy.kind), ...versions.map((v) => v.kind), ...creaters.map((c) => c.kind)]);
  for (const r of resources) {
    if (!served(r.store.strategy.kind)) continue;
    installer.install({ kind: r.store.strategy.kind, store: r.store, subresources: r.subresources, creaters: r.creaters, updaters: r.updaters, selectableFields: new Set(r.store.strategy.fieldLabels()) });
  }
  for (const v of versions) if (served(v.kind)) installer.install(v);
  for (const c of creaters) if (served(c.kind)) installer.installCreater(c);
  return installer;
}

/** A `Widget` kind of the group `example.orch.io/v1` (spec.size), for installing a resource beyond the built-in ones. */
export function widgetKind(namespaced: boolean): KindDefinition {
  return defineKind({
    group: 'example.orch.io',
    version: 'v1',
    kind: 'Widget',
    resource: 'widgets',
    singular: 'widget',
    namespaced,
    fields: { metadata: field(1, objectMeta), spec: field(2, struct('example.v1.WidgetSpec', { size: field(1, string) })) },
  });
}
