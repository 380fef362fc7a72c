/**
 * `/api` and `/apis` (spec 000 § Other paths; issue #9): the plain document (APIVersions,
 * APIGroupList) or, when the Accept header asks for it by `as=APIGroupDiscoveryList;g=;v=`, the
 * aggregated discovery list, as upstream's discovery handler: v2 and v2beta1 under the vendor
 * discovery group and, with the upstream aliases on, under its upstream spelling; JSON or YAML;
 * Content-Type naming the group/version/kind answered, a quoted ETag answered 304 on a matching
 * `If-None-Match`, `Vary: Accept`. An aggregated clause this server does not serve is skipped for
 * the next one (plain JSON, as clients list it last), 406 when none is left.
 */
import type { Context } from 'koa';
import { JSON_MEDIA_TYPE, encodeJSON } from '../../apimachinery/serializers/json.js';
import { encodeYAML } from '../../apimachinery/serializers/yaml.js';
import { DISCOVERY_GROUP, upstreamAlias } from '../../apis/vendor.js';
import { queryBool } from '../../request/request-info.js';
import { OBJECT_OFFERS } from '../handlers/representation.js';
import { writeRepresented } from '../handlers/scope.js';
import type { APIInstaller } from '../installer.js';
import { type Offer, negotiate } from '../negotiation/negotiate.js';
import { AggregatedDiscoveryCache, encodeDiscovery } from './aggregated-cache.js';
import { type APIGroupDiscovery, apiGroupDiscoveryList } from './aggregated.js';

/** The kind named by the `as` parameter of an aggregated discovery request. */
const AGGREGATED_DISCOVERY_KIND = 'APIGroupDiscoveryList';
/** The versions of the discovery group served, preferred first. */
const AGGREGATED_DISCOVERY_VERSIONS: readonly string[] = ['v2', 'v2beta1'];

function offersFor(groups: readonly string[]): readonly Offer[] {
  const aggregated = groups.flatMap((g) =>
    AGGREGATED_DISCOVERY_VERSIONS.flatMap((v) => OBJECT_OFFERS.map((o): Offer => ({ mediaType: o.mediaType, as: { as: AGGREGATED_DISCOVERY_KIND, g, v } }))),
  );
  return [...OBJECT_OFFERS, ...aggregated];
}

const OFFERS_WITH_ALIASES = offersFor([DISCOVERY_GROUP, upstreamAlias(DISCOVERY_GROUP)!]);
const OFFERS_VENDOR_ONLY = offersFor([DISCOVERY_GROUP]);

const caches = new WeakMap<APIInstaller, AggregatedDiscoveryCache>();

function cacheOf(installer: APIInstaller): AggregatedDiscoveryCache {
  let cache = caches.get(installer);
  if (!cache) {
    cache = new AggregatedDiscoveryCache(installer);
    caches.set(installer, cache);
  }
  return cache;
}

/** True when `If-None-Match` names `etag` (or is `*`); weak tags compare by their value. */
function notModified(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === `"${etag}"`;
  });
}

/**
 * Answers `/api` (`core`) or `/apis`: `plain()` (the APIVersions or APIGroupList) or the
 * aggregated list the Accept header asks for, its groups passed through `extend` when given (the
 * aggregation layer's remote groups; issue #20). Throws 406 when nothing listed is served.
 */
export async function serveDiscoveryRoot(
  koa: Context,
  installer: APIInstaller,
  core: boolean,
  plain: () => unknown,
  extend?: (items: APIGroupDiscovery[]) => Promise<APIGroupDiscovery[]>,
): Promise<void> {
  koa.vary('Accept');
  const n = negotiate(koa.get('Accept'), installer.upstreamAliases ? OFFERS_WITH_ALIASES : OFFERS_VENDOR_ONLY, queryBool(new URLSearchParams(koa.querystring).get('pretty')));
  const as = n.offer.as;
  if (!as) {
    await writeRepresented(koa, 200, plain(), { mediaType: n.offer.mediaType, pretty: n.pretty });
    return;
  }
  const cached = cacheOf(installer).get(core, `${as.g}/${as.v}`);
  const doc = extend ? encodeDiscovery(apiGroupDiscoveryList(cached.document.apiVersion, await extend(cached.document.items))) : cached;
  koa.set('ETag', `"${doc.etag}"`);
  if (notModified(koa.get('If-None-Match'), doc.etag)) {
    koa.status = 304;
    return;
  }
  koa.status = 200;
  koa.set('Content-Type', `${n.offer.mediaType};g=${as.g};v=${as.v};as=${as.as}`);
  if (n.offer.mediaType === JSON_MEDIA_TYPE) koa.body = n.pretty ? encodeJSON(doc.document, true) : doc.json;
  else koa.body = encodeYAML(doc.document);
}
