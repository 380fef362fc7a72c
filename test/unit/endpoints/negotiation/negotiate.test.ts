import { expect } from 'chai';
import { statusErrorOf } from '../../../framework/status-error.js';
import { META_GROUP, PROTOBUF_MEDIA_TYPE } from '../../../../lib/apis/vendor.js';
import { negotiate, type Offer } from '../../../../lib/endpoints/negotiation/negotiate.js';
import { ACCEPT_MEMO_SIZE, parseAccept } from '../../../../lib/endpoints/negotiation/media-type.js';

const JSON_OFFER: Offer = { mediaType: 'application/json' };
const YAML_OFFER: Offer = { mediaType: 'application/yaml', explicitOnly: true };
const TABLE_OFFER: Offer = { mediaType: 'application/json', as: { as: 'Table', g: META_GROUP, v: 'v1' } };
const OFFERS = [JSON_OFFER, YAML_OFFER, TABLE_OFFER];

/** Which offer `accept` selects, by name. */
function chosen(accept: string | undefined, offers: readonly Offer[] = OFFERS): string {
  const { offer } = negotiate(accept, offers);
  return offer === TABLE_OFFER ? 'table' : offer === YAML_OFFER ? 'yaml' : offer === JSON_OFFER ? 'json' : 'other';
}


describe('negotiation/negotiate (spec 000 § Content negotiation and encoding; spec 001 § Errors 406)', () => {
  const rows: Array<[string, string | undefined, string]> = [
    ['no Accept header: the default (first) offer', undefined, 'json'],
    ['an empty Accept header: the default offer', '', 'json'],
    ['a bare * (read as */*): the default offer', '*', 'json'],
    ['*/*: the default offer', '*/*', 'json'],
    ['application/*: the default offer', 'application/*', 'json'],
    ['an explicitly named type', 'application/yaml', 'yaml'],
    ['an offer only available by name is not chosen through */*', '*/*;q=0.9', 'json'],
    ['the first acceptable entry of a list', 'application/yaml, application/json', 'yaml'],
    ['an unavailable type falls back to the next entry', `${PROTOBUF_MEDIA_TYPE}, application/json`, 'json'],
    ['an unavailable type falls back to */*', 'text/html, */*', 'json'],
    ['at equal q a specific type comes before a wildcard', '*/*, application/yaml', 'yaml'],
    ['the higher q wins over list order', 'application/json;q=0.5, application/yaml', 'yaml'],
    ['q=0 excludes an entry', 'application/yaml;q=0, application/json;q=0.1', 'json'],
    ['a Table of the meta group is the Table offer', `application/json;as=Table;g=${META_GROUP};v=v1, application/json`, 'table'],
    ['a Table of another group is skipped for the next entry', 'application/json;as=Table;g=meta.k8s.io;v=v1, application/json', 'json'],
    [
      'kubectl\'s Table list falls back to JSON when no Table version is served',
      `application/json;as=Table;v=v1beta1;g=${META_GROUP},application/json`,
      'json',
    ],
    ['an as= without group and version is skipped', 'application/json;as=Table, application/yaml', 'yaml'],
    ['an unknown as= is skipped', `application/json;as=PartialObjectMetadata;g=${META_GROUP};v=v1, application/json`, 'json'],
    ['unrecognized parameters are ignored', 'application/json;charset=utf-8', 'json'],
    ['aggregated discovery of another group falls back', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', 'json'],
  ];
  for (const [rule, accept, want] of rows) {
    it(`${rule}: ${JSON.stringify(accept)} → ${want}`, () => {
      expect(chosen(accept)).to.equal(want);
    });
  }

  it('pretty comes from ?pretty or the ;pretty=1 parameter', () => {
    expect(negotiate('application/json', OFFERS).pretty).to.equal(false);
    expect(negotiate('application/json', OFFERS, true).pretty).to.equal(true);
    expect(negotiate('application/json;pretty=1', OFFERS).pretty).to.equal(true);
    expect(negotiate('application/json;pretty=0', OFFERS).pretty).to.equal(false);
  });

  it('returns the range that chose the offer', () => {
    const n = negotiate('text/html, application/*;q=0.8', OFFERS);
    expect(n.range).to.include({ type: 'application', subtype: '*', q: 0.8 });
  });

  const unacceptable: Array<[string, string]> = [
    ['only unavailable types', 'text/html, application/xml'],
    ['only a Table of another group', 'application/json;as=Table;g=meta.k8s.io;v=v1'],
    ['everything at q=0', 'application/json;q=0, */*;q=0'],
    ['a wildcard that matches only an explicit-only offer', 'application/*'],
  ];
  for (const [what, accept] of unacceptable) {
    it(`406 NotAcceptable when nothing listed is available: ${what}`, () => {
      const offers = what.startsWith('a wildcard') ? [YAML_OFFER] : OFFERS;
      const err = statusErrorOf(() => negotiate(accept, offers));
      expect(err.status).to.deep.equal({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `only the following media types are accepted: ${[...new Set(offers.map((o) => o.mediaType))].join(', ')}`,
        reason: 'NotAcceptable',
        code: 406,
      });
    });
  }

  it('the 406 message lists each offered media type once', () => {
    const err = statusErrorOf(() => negotiate('text/html', OFFERS));
    expect(err.status.message).to.equal('only the following media types are accepted: application/json, application/yaml');
  });

  it('chooses per offer list and header without mixing them up, past the Accept memo size too', () => {
    const pick = (accept: string, offers: readonly Offer[]) => negotiate(accept, offers).offer;
    expect(pick('application/yaml', OFFERS)).to.equal(YAML_OFFER);
    expect(pick('application/yaml', OFFERS)).to.equal(YAML_OFFER);
    expect(statusErrorOf(() => negotiate('application/yaml', [JSON_OFFER])).status.code).to.equal(406);
    expect(statusErrorOf(() => negotiate('application/yaml', [JSON_OFFER])).status.code).to.equal(406);
    expect(negotiate('application/json;pretty=1', OFFERS).pretty).to.equal(true);
    expect(negotiate('application/json', OFFERS, true).pretty).to.equal(true);
    expect(negotiate('application/json', OFFERS).pretty).to.equal(false);
    for (let i = 0; i < ACCEPT_MEMO_SIZE * 3; i++) {
      const accept = i % 2 ? `application/json;q=0.${(i % 9) + 1}, text/x-${i}` : `application/yaml, text/x-${i}`;
      expect(pick(accept, OFFERS), accept).to.equal(i % 2 ? JSON_OFFER : YAML_OFFER);
    }
  });

  it('shares one frozen parse per Accept header', () => {
    const a = parseAccept('application/json, */*');
    expect(parseAccept('application/json, */*')).to.equal(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a[0]) && Object.isFrozen(a[0]!.params)).to.equal(true);
  });
});
