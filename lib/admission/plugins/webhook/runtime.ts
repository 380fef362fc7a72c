/**
 * What both webhook plugins share (spec 001 § Admission control): the configuration sources,
 * the client cache, the service resolver over Services and Endpoints, the Namespace lister,
 * the equivalent-resource index and the stored kinds. One runtime per plugin instance; its
 * clients close with the server.
 */
import type { KindDefinition } from '../../../apis/define.js';
import type { AdmissionMetrics } from '../../../metrics/admission.js';
import { vendorGroup } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import { equivalentResources } from '../../matching/equivalents.js';
import type { MatchedResource } from '../../matching/rules.js';
import type { AdmissionLog, AdmissionPluginDeps } from '../../plugin-deps.js';
import { admissionAuthorizerValue, celAuthorizer, requestAuthorizer } from '../validating-admission-policy/authorizer.js';
import { WebhookClients } from './client.js';
import { matchWebhook, type MatchContext } from './matcher.js';
import { endpointServiceResolver } from './service-resolver.js';
import { type Webhook, type WebhookSource, webhookSource } from './source.js';

/** The shared state of a webhook plugin. */
export interface WebhookRuntime {
  /** The webhooks of the plugin's configuration kind. */
  readonly source: WebhookSource;
  readonly clients: WebhookClients;
  readonly log: AdmissionLog;
  /** Records each webhook call (absent: not recorded). */
  readonly metrics?: AdmissionMetrics;
  /** The resource `hook` is called as for `attrs` (see matchWebhook), or null. */
  match(ctx: RequestContext, hook: Webhook, attrs: AdmissionAttributes): Promise<MatchedResource | null>;
  /** The stored kind of the request's resource when the objects are of that kind (not of a subresource's own kind). */
  storageKind(attrs: AdmissionAttributes): KindDefinition | undefined;
}

const ADMISSIONREGISTRATION = vendorGroup('admissionregistration');

/**
 * Builds the runtime of the plugin of `kind`: starts the informers of its configuration kind,
 * Namespaces, Services and Endpoints (they sync before the server serves).
 */
export function webhookRuntime(deps: AdmissionPluginDeps, kind: 'mutating' | 'validating'): WebhookRuntime {
  const source = webhookSource(deps.resource(ADMISSIONREGISTRATION, `${kind}webhookconfigurations`).lister);
  const namespaces = deps.resource('', 'namespaces');
  const clients = new WebhookClients(endpointServiceResolver(deps.resource('', 'services'), deps.resource('', 'endpoints')));
  deps.signal.addEventListener('abort', () => clients.close(), { once: true });
  const served = deps.servedResources();
  const equivalents = equivalentResources(served);
  const kinds = new Map<string, KindDefinition>();
  for (const r of served) if (!r.conversion) kinds.set(`${r.group}/${r.version}/${r.resource}`, r.definition);
  const authz = celAuthorizer(deps.authorizer);
  /** Per request context: the authorizer binding of its user (decisions cached for the request). */
  const bindings = new WeakMap<RequestContext, MatchContext>();
  const matchContext = (ctx: RequestContext, attrs: AdmissionAttributes): MatchContext => {
    let m = bindings.get(ctx);
    if (!m) {
      let value: ReturnType<MatchContext['authorizer']> | undefined;
      m = { namespaces, equivalents, authorizer: () => (value ??= admissionAuthorizerValue(requestAuthorizer(authz, attrs.user), attrs)) };
      bindings.set(ctx, m);
    }
    return m;
  };
  return {
    source,
    clients,
    log: deps.log,
    ...(deps.metrics && { metrics: deps.metrics }),
    match: (ctx, hook, attrs) => matchWebhook(hook, attrs, matchContext(ctx, attrs)),
    storageKind(attrs) {
      const k = kinds.get(`${attrs.group}/${attrs.version}/${attrs.resource}`);
      return k && k.kind === attrs.kind ? k : undefined;
    },
  };
}
