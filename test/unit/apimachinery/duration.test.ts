import { expect } from 'chai';
import {
  DurationError,
  formatDuration,
  formatDurationNanos,
  parseDuration,
  parseDurationNanos,
} from '../../../lib/apimachinery/duration.js';

describe('apimachinery/duration', () => {
  describe('parseDuration (Go time.ParseDuration)', () => {
    const valid: Array<[string, number]> = [
      ['0', 0],
      ['-0', 0],
      ['+0', 0],
      ['5s', 5_000],
      ['30s', 30_000],
      ['1478s', 1_478_000],
      ['-5s', -5_000],
      ['+5s', 5_000],
      ['-0s', 0],
      ['5.0s', 5_000],
      ['5.6s', 5_600],
      ['5.s', 5_000],
      ['.5s', 500],
      ['1.004s', 1_004],
      ['100.00100s', 100_001],
      ['10ns', 0.00001],
      ['11us', 0.011],
      ['12\u00b5s', 0.012],
      ['12\u03bcs', 0.012],
      ['13ms', 13],
      ['15m', 900_000],
      ['16h', 57_600_000],
      ['3h30m', 12_600_000],
      ['10.5s4m', 250_500],
      ['-2m3.4s', -123_400],
      ['1h2m3s4ms5us6ns', 3_723_004.005006],
      ['39h9m14.425s', 140_954_425],
      ['52763797000ns', 52_763.797],
      ['0.3333333333333333333h', 1_200_000],
      ['0.100000000000000000000h', 360_000],
    ];
    for (const [text, ms] of valid) {
      it(`${JSON.stringify(text)} → ${ms} ms`, () => {
        expect(parseDuration(text)).to.be.closeTo(ms, 1e-9);
      });
    }

    const exact: Array<[string, bigint]> = [
      ['9223372036854775807ns', 9223372036854775807n],
      ['9223372036854775.807us', 9223372036854775807n],
      ['9223372036s854ms775us807ns', 9223372036854775807n],
      ['-9223372036854775808ns', -9223372036854775808n],
      ['0.830103483285477580700h', 2988372539827n],
      ['1h1.5m', 3_690_000_000_000n],
    ];
    for (const [text, nanos] of exact) {
      it(`${JSON.stringify(text)} → ${nanos} ns exactly`, () => {
        expect(parseDurationNanos(text)).to.equal(nanos);
      });
    }

    const invalid: Array<[string, string]> = [
      ['', 'time: invalid duration ""'],
      ['x', 'time: invalid duration "x"'],
      ['3', 'time: missing unit in duration "3"'],
      ['1.5', 'time: missing unit in duration "1.5"'],
      ['1h3', 'time: missing unit in duration "1h3"'],
      ['-', 'time: invalid duration "-"'],
      ['s', 'time: invalid duration "s"'],
      ['.', 'time: invalid duration "."'],
      ['-.', 'time: invalid duration "-."'],
      ['.s', 'time: invalid duration ".s"'],
      ['+.s', 'time: invalid duration "+.s"'],
      ['1d', 'time: unknown unit "d" in duration "1d"'],
      ['5 s', 'time: unknown unit " s" in duration "5 s"'],
      ['1\u00b5', 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"'],
      ['"1"s', 'time: invalid duration "\\"1\\"s"'],
      ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
      ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
      ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
      ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
      ['3000000h', 'time: invalid duration "3000000h"'],
    ];
    for (const [text, message] of invalid) {
      it(`rejects ${JSON.stringify(text)}: ${message}`, () => {
        expect(() => parseDuration(text)).to.throw(DurationError).with.property('message', message);
      });
    }
  });

  describe('formatDuration (Go Duration.String)', () => {
    const cases: Array<[number, string]> = [
      [0, '0s'],
      [0.000001, '1ns'],
      [0.0011, '1.1\u00b5s'],
      [2.2, '2.2ms'],
      [300, '300ms'],
      [3_300, '3.3s'],
      [245_000, '4m5s'],
      [245_001, '4m5.001s'],
      [300_000, '5m0s'],
      [3_600_000, '1h0m0s'],
      [3_723_500, '1h2m3.5s'],
      [18_367_001, '5h6m7.001s'],
      [480_000.000001, '8m0.000000001s'],
      [-2_000, '-2s'],
      [-0.5, '-500\u00b5s'],
    ];
    for (const [ms, text] of cases) {
      it(`${ms} ms → ${text}`, () => {
        expect(formatDuration(ms)).to.equal(text);
      });
    }

    it('prints the int64 extremes exactly', () => {
      expect(formatDurationNanos(9223372036854775807n)).to.equal('2562047h47m16.854775807s');
      expect(formatDurationNanos(-9223372036854775808n)).to.equal('-2562047h47m16.854775808s');
    });

    it('round-trips what it prints', () => {
      for (const text of ['5m0s', '1h2m3.5s', '1.1\u00b5s', '0s', '-3m0.25s']) {
        expect(formatDuration(parseDuration(text))).to.equal(text);
      }
    });

    it('rejects non-finite and out-of-range values', () => {
      expect(() => formatDuration(Number.NaN)).to.throw(RangeError);
      expect(() => formatDuration(1e20)).to.throw(RangeError);
    });
  });
});
