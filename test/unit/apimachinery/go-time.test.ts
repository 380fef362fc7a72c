/**
 * Go's `time.Parse(time.RFC3339, …)` (lib/apimachinery/go-time.ts): what it accepts, the instant it
 * gives, and its error texts, which reach clients inside decode errors (spec 001 § Errors).
 */
import { expect } from 'chai';
import { goTimeQuote } from '../../../lib/apimachinery/go-quote.js';
import { parseGoRFC3339 } from '../../../lib/apimachinery/go-time.js';

const LAYOUT = '"2006-01-02T15:04:05Z07:00"';

describe('go-time: time.Parse(time.RFC3339, …)', () => {
  const accepted: Array<[string, string, number]> = [
    ['2024-02-29T12:34:56Z', '2024-02-29T12:34:56.000Z', 0],
    ['2024-01-01T9:05:06Z', '2024-01-01T09:05:06.000Z', 0],
    ['2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00.000Z', 500_000_000],
    ['2024-01-01T00:00:00,25Z', '2024-01-01T00:00:00.000Z', 250_000_000],
    ['2024-01-01T00:00:00.1234567891Z', '2024-01-01T00:00:00.000Z', 123_456_789],
    ['2024-01-01T12:30:00+02:30', '2024-01-01T10:00:00.000Z', 0],
    ['2024-01-01T00:00:00-11:00', '2024-01-01T11:00:00.000Z', 0],
    ['2024-01-02T00:00:00+24:00', '2024-01-01T00:00:00.000Z', 0],
    ['2024-01-01T01:00:00+00:60', '2024-01-01T00:00:00.000Z', 0],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z', 0],
  ];
  for (const [value, instant, nanos] of accepted) {
    it(`accepts ${value}`, () => {
      const t = parseGoRFC3339(value);
      if ('error' in t) throw new Error(t.error);
      expect(new Date(t.secondMs).toISOString()).to.equal(instant);
      expect(t.nanos).to.equal(nanos);
    });
  }

  const refused: Array<[string, string]> = [
    ['2024-02-30T00:00:00Z', 'parsing time "2024-02-30T00:00:00Z": day out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-01-00T00:00:00Z', 'parsing time "2024-01-00T00:00:00Z": day out of range'],
    ['2024-04-31T00:00:00Z', 'parsing time "2024-04-31T00:00:00Z": day out of range'],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2024-00-01T00:00:00Z', 'parsing time "2024-00-01T00:00:00Z": month out of range'],
    ['2024-13-45T25:00:00Z', 'parsing time "2024-13-45T25:00:00Z": month out of range'],
    ['2024-02-30T25:00:00Z', 'parsing time "2024-02-30T25:00:00Z": hour out of range'],
    ['2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    ['2024-01-01T23:60:00Z', 'parsing time "2024-01-01T23:60:00Z": minute out of range'],
    ['2024-01-01T23:59:60Z', 'parsing time "2024-01-01T23:59:60Z": second out of range'],
    ['2024-01-01T00:00:00+25:00', 'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range'],
    ['2024-01-01T00:00:00+01:61', 'parsing time "2024-01-01T00:00:00+01:61": time zone offset minute out of range'],
    ['2024-01-01T00:00:00Zjunk', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    ['yesterday', `parsing time "yesterday" as ${LAYOUT}: cannot parse "yesterday" as "2006"`],
    ['2024-1-01T00:00:00Z', `parsing time "2024-1-01T00:00:00Z" as ${LAYOUT}: cannot parse "1-01T00:00:00Z" as "01"`],
    ['2024/01/01T00:00:00Z', `parsing time "2024/01/01T00:00:00Z" as ${LAYOUT}: cannot parse "/01/01T00:00:00Z" as "-"`],
    ['2024-01-01t00:00:00Z', `parsing time "2024-01-01t00:00:00Z" as ${LAYOUT}: cannot parse "t00:00:00Z" as "T"`],
    ['2024-01-01 00:00:00Z', `parsing time "2024-01-01 00:00:00Z" as ${LAYOUT}: cannot parse " 00:00:00Z" as "T"`],
    ['2024-01-01T00:00:00z', `parsing time "2024-01-01T00:00:00z" as ${LAYOUT}: cannot parse "z" as "Z07:00"`],
    ['2024-01-01T00:00:00', `parsing time "2024-01-01T00:00:00" as ${LAYOUT}: cannot parse "" as "Z07:00"`],
    ['2024-01-01T00:00:00+0100', `parsing time "2024-01-01T00:00:00+0100" as ${LAYOUT}: cannot parse "+0100" as "Z07:00"`],
    ['2024-01-01T00:0:00Z', `parsing time "2024-01-01T00:0:00Z" as ${LAYOUT}: cannot parse "0:00Z" as "04"`],
    ['', `parsing time "" as ${LAYOUT}: cannot parse "" as "2006"`],
  ];
  for (const [value, error] of refused) {
    it(`refuses ${JSON.stringify(value)}: ${error}`, () => {
      expect(parseGoRFC3339(value)).to.deep.equal({ error });
    });
  }

  it('quotes as Go’s time package does: quotes and backslashes escaped, other bytes outside printable ASCII as \\x', () => {
    expect(goTimeQuote('a"b\\c')).to.equal('"a\\"b\\\\c"');
    expect(goTimeQuote('é\n')).to.equal('"\\xc3\\xa9\\x0a"');
    expect(parseGoRFC3339('é')).to.deep.equal({ error: `parsing time "\\xc3\\xa9" as ${LAYOUT}: cannot parse "\\xc3\\xa9" as "2006"` });
  });
});
