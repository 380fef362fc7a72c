import { expect } from 'chai';
import { ageSince, rfc3339, timestampMillis } from '../../../../lib/apimachinery/table/timestamps.js';

describe('apimachinery/table/timestamps', () => {
  describe('timestampMillis', () => {
    const cases: Array<[unknown, number | undefined]> = [
      ['2024-05-01T10:00:00Z', Date.UTC(2024, 4, 1, 10)],
      ['2024-05-01T10:00:00.25Z', Date.UTC(2024, 4, 1, 10, 0, 0, 250)],
      ['2024-05-01T10:00:00.123Z', Date.UTC(2024, 4, 1, 10, 0, 0, 123)],
      ['2024-05-01T12:00:00+02:00', Date.UTC(2024, 4, 1, 10)],
      ['2024-05-01t10:00:00z', Date.UTC(2024, 4, 1, 10)],
      ['0001-01-01T00:00:00Z', undefined],
      ['', undefined],
      ['yesterday', undefined],
      [null, undefined],
      [undefined, undefined],
      [1714557600000, undefined],
    ];
    for (const [value, ms] of cases) {
      it(`${JSON.stringify(value)} → ${ms}`, () => expect(timestampMillis(value)).to.equal(ms));
    }
  });

  it('keeps the microseconds of a MicroTime', () => {
    expect(timestampMillis('2024-05-01T10:00:00.000250Z')! - Date.UTC(2024, 4, 1, 10)).to.be.closeTo(0.25, 1e-3);
  });

  describe('ageSince', () => {
    const now = Date.UTC(2024, 4, 1, 12);
    it('prints the human duration since the time', () => expect(ageSince('2024-05-01T11:56:48Z', now)).to.equal('3m12s'));
    it('is <unknown> for an absent time', () => expect(ageSince(undefined, now)).to.equal('<unknown>'));
    it('is <unknown> for the zero time', () => expect(ageSince('0001-01-01T00:00:00Z', now)).to.equal('<unknown>'));
    it('truncates: 44.999999s is 44s', () => expect(ageSince('2024-05-01T11:59:15.000001Z', now)).to.equal('44s'));
    it('is 0s for a time a second in the future (clock skew)', () => expect(ageSince('2024-05-01T12:00:01Z', now)).to.equal('0s'));
    it('is <invalid> further in the future', () => expect(ageSince('2024-05-01T12:00:05Z', now)).to.equal('<invalid>'));
  });

  describe('rfc3339 (Created At)', () => {
    const cases: Array<[unknown, string]> = [
      ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00Z'],
      ['2024-05-01T10:00:00.987654Z', '2024-05-01T10:00:00Z'],
      ['2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00Z'],
      [undefined, '0001-01-01T00:00:00Z'],
      [null, '0001-01-01T00:00:00Z'],
    ];
    for (const [value, text] of cases) {
      it(`${JSON.stringify(value)} → ${text}`, () => expect(rfc3339(value)).to.equal(text));
    }
  });
});
