import { expect } from 'chai';
import { META_GROUP } from '../../../../lib/apis/vendor.js';
import { essence, parseAccept, parseContentType } from '../../../../lib/endpoints/negotiation/media-type.js';

describe('negotiation/media-type: parseAccept (spec 000 § Content negotiation and encoding)', () => {
  const order: Array<[string | undefined, string[]]> = [
    [undefined, ['*/*']],
    ['', ['*/*']],
    ['   ', ['*/*']],
    ['application/json', ['application/json']],
    ['application/yaml, application/json', ['application/yaml', 'application/json']],
    ['application/json;q=0.5, application/yaml', ['application/yaml', 'application/json']],
    ['a/one;q=0.2, a/two;q=0.9, a/three;q=0.5', ['a/two', 'a/three', 'a/one']],
    ['a/one;q=0.5, a/two;q=0.5', ['a/one', 'a/two']],
    ['*/*, application/yaml', ['application/yaml', '*/*']],
    ['application/*, application/yaml', ['application/yaml', 'application/*']],
    ['*/*, text/*, text/plain', ['text/plain', 'text/*', '*/*']],
    ['application/yaml;q=0, application/json', ['application/json']],
    ['nonsense, application/json', ['application/json']],
    ['*', ['*/*']],
    ['APPLICATION/JSON', ['application/json']],
  ];
  for (const [header, want] of order) {
    it(`${JSON.stringify(header)} → ${want.join(', ')}`, () => {
      expect(parseAccept(header).map(essence)).to.deep.equal(want);
    });
  }

  it('keeps parameters with lower-cased names and unquoted values, without q', () => {
    const [r] = parseAccept(`application/json; AS=Table; g="${META_GROUP}"; v=v1; q=0.9`);
    expect(r).to.deep.equal({ type: 'application', subtype: 'json', params: { as: 'Table', g: META_GROUP, v: 'v1' }, q: 0.9 });
  });

  it('a range without q has quality 1', () => {
    expect(parseAccept('application/json')[0]!.q).to.equal(1);
  });
});

describe('negotiation/media-type: parseContentType', () => {
  it('absent or blank is undefined', () => {
    expect(parseContentType(undefined)).to.equal(undefined);
    expect(parseContentType('')).to.equal(undefined);
    expect(parseContentType('  ')).to.equal(undefined);
  });

  it('an unparsable value is undefined', () => {
    expect(parseContentType('json')).to.equal(undefined);
  });

  it('parses type, subtype and parameters', () => {
    expect(parseContentType('Application/JSON; charset=utf-8')).to.deep.equal({
      type: 'application',
      subtype: 'json',
      params: { charset: 'utf-8' },
      q: 1,
    });
  });
});
