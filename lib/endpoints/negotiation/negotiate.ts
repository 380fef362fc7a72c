/**
 * Response negotiation: picks the first Accept entry the endpoint can produce, falling back in
 * order; 406 only when nothing listed is available (spec 000 § Content negotiation and encoding;
 * spec 001 § Errors 406). Entries asking for a representation this server does not serve (a
 * Table or discovery document of another group, an unknown `as=`) are skipped, not failed.
 */
import { newNotAcceptable } from '../../apimachinery/errors.js';
import { type MediaRange, parseAccept } from './media-type.js';

/** A representation an endpoint offers. */
export interface Offer {
  /** `application/json`, `application/yaml`, … */
  mediaType: string;
  /** Required `as`/`g`/`v` parameters for a transformed representation (e.g. Table); absent = plain object. */
  as?: { as: string; g: string; v: string };
  /** When true, matches only when asked for by name (not through `*\/*` or `application/*`). */
  explicitOnly?: boolean;
}

/** The chosen representation and the range that chose it. */
export interface Negotiated {
  offer: Offer;
  range: MediaRange;
  /** Pretty-print requested (`?pretty=true` or `;pretty=1`). */
  pretty: boolean;
}

function matches(range: MediaRange, offer: Offer): boolean {
  const [type, subtype] = offer.mediaType.split('/');
  const wildcard = range.type === '*' || range.subtype === '*';
  if (wildcard && offer.explicitOnly) return false;
  if (range.type !== '*' && range.type !== type) return false;
  if (range.subtype !== '*' && range.subtype !== subtype) return false;
  const asParam = range.params.as;
  if (asParam === undefined) return offer.as === undefined;
  if (!offer.as) return false;
  return offer.as.as === asParam && offer.as.g === range.params.g && offer.as.v === range.params.v;
}

/**
 * Picks the response representation for `accept` among `offers` (first offer = default); the
 * header's parse is shared (parseAccept). @throws NotAcceptable (406) when nothing listed is offered.
 */
export function negotiate(accept: string | undefined, offers: readonly Offer[], prettyQuery = false): Negotiated {
  for (const range of parseAccept(accept)) {
    for (const offer of offers) {
      if (matches(range, offer)) return { offer, range, pretty: prettyQuery || range.params.pretty === '1' };
    }
  }
  throw newNotAcceptable([...new Set(offers.map((o) => o.mediaType))]);
}
