import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { statusErrorOf } from '../../../framework/status-error.js';
import { parseListParams, type ListParams } from '../../../../lib/endpoints/handlers/list-options.js';

const FIELDS = new Set(['metadata.name', 'metadata.namespace']);

/** Parses `query` as a list (or watch), with the WatchList feature gate on unless told. */
const parse = (query: string, watch = false, watchList = true): ListParams => parseListParams(new URLSearchParams(query), watch, FIELDS, watchList);

/** The StatusError parsing `query` throws. */
function rejected(query: string, watch = false): StatusError {
  return statusErrorOf(() => parse(query, watch), `${query} was accepted`);
}

const RV_REQUIRED = 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided';
const MATCH_WITH_CONTINUE = 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided';
const EXACT_ZERO = 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"';
const CONTINUE_WITH_RV = 'specifying resource version is not allowed when using continue';

describe('handlers/list-options: the list table of spec 000 § Resource versions (valid cells)', () => {
  const valid: Array<[string, string]> = [
    ['match unset, no limit, rv unset', ''],
    ['match unset, no limit, rv 0', 'resourceVersion=0'],
    ['match unset, no limit, rv value', 'resourceVersion=42'],
    ['match unset, limit, rv unset', 'limit=5'],
    ['match unset, limit, rv 0', 'limit=5&resourceVersion=0'],
    ['match unset, limit, rv value', 'limit=5&resourceVersion=42'],
    ['match unset, limit + continue, rv unset', 'limit=5&continue=tok'],
    ['match unset, limit + continue, rv 0 (treated as continue, Exact)', 'limit=5&continue=tok&resourceVersion=0'],
    ['Exact, no limit, rv value', 'resourceVersionMatch=Exact&resourceVersion=42'],
    ['Exact, limit, rv value', 'resourceVersionMatch=Exact&resourceVersion=42&limit=5'],
    ['NotOlderThan, no limit, rv 0', 'resourceVersionMatch=NotOlderThan&resourceVersion=0'],
    ['NotOlderThan, no limit, rv value', 'resourceVersionMatch=NotOlderThan&resourceVersion=42'],
    ['NotOlderThan, limit, rv 0', 'resourceVersionMatch=NotOlderThan&resourceVersion=0&limit=5'],
    ['NotOlderThan, limit, rv value', 'resourceVersionMatch=NotOlderThan&resourceVersion=42&limit=5'],
  ];
  for (const [cell, query] of valid) {
    it(`${cell} is accepted`, () => {
      expect(() => parse(query)).to.not.throw();
    });
  }

  it('parameters are read as given', () => {
    const p = parse('resourceVersion=42&resourceVersionMatch=Exact&limit=5&timeoutSeconds=30');
    expect([p.resourceVersion, p.resourceVersionMatch, p.limit, p.continue, p.timeoutSeconds, p.watch]).to.deep.equal(['42', 'Exact', 5, '', 30, false]);
  });
});

describe('handlers/list-options: invalid cells of the list table are 400 naming the rule (spec 001 § Errors 400)', () => {
  const invalid: Array<[string, string, string[]]> = [
    ['match unset, limit + continue, rv value', 'limit=5&continue=tok&resourceVersion=42', [CONTINUE_WITH_RV]],
    ['Exact, rv unset', 'resourceVersionMatch=Exact', [RV_REQUIRED]],
    ['Exact, limit, rv unset', 'resourceVersionMatch=Exact&limit=5', [RV_REQUIRED]],
    ['Exact, rv 0', 'resourceVersionMatch=Exact&resourceVersion=0', [EXACT_ZERO]],
    ['Exact, limit, rv 0', 'resourceVersionMatch=Exact&resourceVersion=0&limit=5', [EXACT_ZERO]],
    ['NotOlderThan, rv unset', 'resourceVersionMatch=NotOlderThan', [RV_REQUIRED]],
    ['NotOlderThan, limit, rv unset', 'resourceVersionMatch=NotOlderThan&limit=5', [RV_REQUIRED]],
    ['a match with a continue token', 'resourceVersionMatch=NotOlderThan&resourceVersion=42&continue=tok', [MATCH_WITH_CONTINUE]],
    ['Exact, rv 0, with a continue token: both rules, in upstream order', 'resourceVersionMatch=Exact&resourceVersion=0&continue=tok', [MATCH_WITH_CONTINUE, EXACT_ZERO]],
    ['an unknown match', 'resourceVersionMatch=Newest&resourceVersion=42', ['resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""']],
    [
      'an unknown match without resourceVersion: every rule broken is named',
      'resourceVersionMatch=Newest',
      [RV_REQUIRED, 'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
    ],
    ['sendInitialEvents on a list', 'sendInitialEvents=true', ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']],
  ];
  for (const [cell, query, rules] of invalid) {
    it(`${cell}: ${rules.join('; ')}`, () => {
      const err = rejected(query);
      expect(err.status).to.include({ code: 400, reason: 'BadRequest' });
      for (const rule of rules) expect(err.status.message).to.include(rule);
      if (rules.length > 1) expect(err.status.message).to.equal(`ListOptions is invalid: [${rules.join(', ')}]`);
    });
  }

  it('one broken rule: the message is that rule, and a cause names the field', () => {
    const err = rejected('resourceVersionMatch=Exact');
    expect(err.status.message).to.equal(`ListOptions is invalid: ${RV_REQUIRED}`);
    expect(err.status.details?.causes).to.deep.equal([
      { reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', field: 'resourceVersionMatch' },
    ]);
  });
});

describe('handlers/list-options: watch parameters (spec 000 § Watch parameters)', () => {
  const valid: Array<[string, string]> = [
    ['a plain watch', ''],
    ['from a resourceVersion', 'resourceVersion=42'],
    ['with bookmarks', 'allowWatchBookmarks=true'],
    ['sendInitialEvents with NotOlderThan and bookmarks', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true'],
    ['sendInitialEvents with NotOlderThan, resourceVersion empty (consistent read)', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=&allowWatchBookmarks=true'],
    ['sendInitialEvents with NotOlderThan and a resourceVersion', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=42&allowWatchBookmarks=true'],
    ['sendInitialEvents without bookmarks (the end bookmark is then simply not sent)', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan'],
    ['sendInitialEvents=false with NotOlderThan', 'sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=42'],
  ];
  for (const [what, query] of valid) {
    it(`${what} is accepted`, () => {
      expect(() => parse(query, true)).to.not.throw();
    });
  }

  const invalid: Array<[string, string, string[]]> = [
    [
      'resourceVersionMatch without sendInitialEvents',
      'resourceVersionMatch=NotOlderThan&resourceVersion=42',
      ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    ],
    ['sendInitialEvents without resourceVersionMatch', 'sendInitialEvents=true&allowWatchBookmarks=true', ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']],
    ['sendInitialEvents=false without resourceVersionMatch', 'sendInitialEvents=false', ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']],
    [
      'sendInitialEvents with Exact',
      'sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=42&allowWatchBookmarks=true',
      ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"'],
    ],
    [
      'sendInitialEvents with NotOlderThan and a continue token',
      'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=tok&allowWatchBookmarks=true',
      ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
    ],
  ];
  for (const [what, query, rules] of invalid) {
    it(`${what} is 400: ${rules.join('; ')}`, () => {
      const err = rejected(query, true);
      expect(err.status.code).to.equal(400);
      expect(err.status.message).to.equal(rules.length === 1 ? `ListOptions is invalid: ${rules[0]}` : `ListOptions is invalid: [${rules.join(', ')}]`);
    });
  }

  it('sendInitialEvents without the WatchList feature gate is 400', () => {
    expect(() => parse('sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', true, false)).to.throw(
      StatusError,
      'ListOptions is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    );
  });

  it('watch, allowWatchBookmarks and sendInitialEvents are read as booleans', () => {
    const p = parse('allowWatchBookmarks=1&sendInitialEvents=True&resourceVersionMatch=NotOlderThan', true);
    expect([p.watch, p.allowWatchBookmarks, p.sendInitialEvents]).to.deep.equal([true, true, true]);
    expect(parse('', true).sendInitialEvents).to.equal(undefined);
  });
});

describe('handlers/list-options: selectors and numbers', () => {
  it('a malformed label selector is 400 with the parser message', () => {
    const err = rejected('labelSelector=a%20in%20(');
    expect(err.status.code).to.equal(400);
    expect(err.status.message).to.match(/^unable to parse requirement/);
  });

  it('an unsupported field label is 400', () => {
    const err = rejected('fieldSelector=spec.nodeName%3Dx');
    expect(err.status).to.include({ code: 400, message: 'field label not supported: spec.nodeName' });
  });

  it('a supported field selector is parsed', () => {
    expect(parse('fieldSelector=metadata.name%3Dx').field.requiresExactMatch('metadata.name')).to.equal('x');
  });

  it('a non-integer limit is 400', () => {
    expect(rejected('limit=ten').status.message).to.equal('invalid value for limit: strconv.ParseInt: parsing "ten": invalid syntax');
  });

  it('a negative limit means no limit', () => {
    expect(parse('limit=-3').limit).to.equal(0);
  });

  it('a non-integer timeoutSeconds is 400', () => {
    expect(rejected('timeoutSeconds=1.5', true).status.code).to.equal(400);
  });
});
