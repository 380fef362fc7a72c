/**
 * The installer of the resources this control plane serves (lib/controlplane/resources.ts),
 * without storage behind it: enough to build the OpenAPI documents in unit tests.
 */
import { AdmissionChain } from '../../../../lib/admission/chain.js';
import { field, string, struct } from '../../../../lib/apimachinery/schema/builder.js';
import { type KindDefinition, defineKind } from '../../../../lib/apis/define.js';
import { objectMeta } from '../../../../lib/apis/meta/v1/types.js';
import { createOnlyResources, servedResources } from '../../../../lib/controlplane/resources.js';
import { UnionAuthenticator } from '../../../../lib/authentication/union.js';
import { UnionAuthorizer, UnionRuleResolver } from '../../../../lib/authorization/union.js';
import { APIInstaller, versionEntry } from '../../../../lib/endpoints/installer.js';
import type { StorageInterface } from '../../../../lib/storage/interface.js';

/**
 * A fresh installer serving every built-in resource (stores without storage; the create-only
 * ones with their Creaters; the other versions of stored kinds after them), with the upstream
 * aliases (issue #9) on unless `upstreamAliases` is false.
 */
export function servedInstaller(upstreamAliases = true): APIInstaller {
  const installer = new APIInstaller(new AdmissionChain([]), { watchList: false, responseCompression: true, upstreamAliases });
  for (const r of servedResources(() => ({}) as StorageInterface, '/registry')) {
    installer.install({ kind: r.store.strategy.kind, store: r.store, subresources: r.subresources, creaters: r.creaters, updaters: r.updaters, selectableFields: new Set(r.store.strategy.fieldLabels()) });
  }
  for (const v of servedResources(() => ({}) as StorageInterface, '/registry').flatMap((r) => r.versions ?? [])) installer.install(versionEntry(v));
  for (const c of createOnlyResources(new UnionAuthenticator([], { anonymous: false }), { authorizer: new UnionAuthorizer([]), ruleResolver: new UnionRuleResolver([]) })) installer.installCreater(c);
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
