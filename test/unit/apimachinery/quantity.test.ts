import { expect } from 'chai';
import {
  Quantity,
  QuantityParseError,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_NUMERIC_ERROR,
  QUANTITY_SUFFIX_ERROR,
  type QuantityFormat,
} from '../../../lib/apimachinery/quantity.js';

describe('Quantity (spec 000 § Expression language (CEL) in fields, quantity library)', () => {
  describe('parse → canonical string and format', () => {
    const cases: Array<[string, string, QuantityFormat]> = [
      ['0', '0', 'DecimalSI'],
      ['0n', '0', 'DecimalSI'],
      ['0Ki', '0', 'BinarySI'],
      ['-0', '0', 'DecimalSI'],
      ['1Ki', '1Ki', 'BinarySI'],
      ['8Ki', '8Ki', 'BinarySI'],
      ['7Mi', '7Mi', 'BinarySI'],
      ['6Gi', '6Gi', 'BinarySI'],
      ['5Ti', '5Ti', 'BinarySI'],
      ['4Pi', '4Pi', 'BinarySI'],
      ['3Ei', '3Ei', 'BinarySI'],
      ['1024Ki', '1Mi', 'BinarySI'],
      ['1536Ki', '1536Ki', 'BinarySI'],
      ['1.5Gi', '1536Mi', 'BinarySI'],
      ['1.5Mi', '1536Ki', 'BinarySI'],
      ['0.5Ki', '512', 'BinarySI'],
      ['0.0001Ki', '102400u', 'DecimalSI'],
      ['12.34Ki', '12636160m', 'BinarySI'],
      ['-1Ki', '-1Ki', 'BinarySI'],
      ['10Ei', '9223372036854775807', 'BinarySI'],
      ['5n', '5n', 'DecimalSI'],
      ['4u', '4u', 'DecimalSI'],
      ['3m', '3m', 'DecimalSI'],
      ['9', '9', 'DecimalSI'],
      ['8k', '8k', 'DecimalSI'],
      ['50k', '50k', 'DecimalSI'],
      ['7M', '7M', 'DecimalSI'],
      ['6G', '6G', 'DecimalSI'],
      ['5T', '5T', 'DecimalSI'],
      ['2P', '2P', 'DecimalSI'],
      ['1E', '1E', 'DecimalSI'],
      ['500000G', '500T', 'DecimalSI'],
      ['1000m', '1', 'DecimalSI'],
      ['1.0', '1', 'DecimalSI'],
      ['1.5', '1500m', 'DecimalSI'],
      ['0.5', '500m', 'DecimalSI'],
      ['.5', '500m', 'DecimalSI'],
      ['0.1', '100m', 'DecimalSI'],
      ['-1.5', '-1500m', 'DecimalSI'],
      ['-0.001', '-1m', 'DecimalSI'],
      ['2048', '2048', 'DecimalSI'],
      ['1000', '1k', 'DecimalSI'],
      ['100m', '100m', 'DecimalSI'],
      ['999999999999999999', '999999999999999999', 'DecimalSI'],
      ['1234567890123456789', '1234567890123456789', 'DecimalSI'],
      ['1e3', '1e3', 'DecimalExponent'],
      ['1E3', '1E3', 'DecimalExponent'], // upstream keeps the input when it is already canonical-shaped
      ['1.2e3', '1200', 'DecimalExponent'],
      ['1.5e-3', '1500e-6', 'DecimalExponent'],
      ['10e5', '1e6', 'DecimalExponent'],
      ['1e100', '10e99', 'DecimalExponent'],
      ['1e-9', '1e-9', 'DecimalExponent'],
      ['+1k', '+1k', 'DecimalSI'],
      ['100.035k', '100.035k', 'DecimalSI'],
      // values finer than 10^-9 are rounded away from zero
      ['1e-10', '1e-9', 'DecimalExponent'],
      ['1e-100', '1e-9', 'DecimalExponent'],
      ['0.0001n', '1n', 'DecimalSI'],
      ['1.0001n', '2n', 'DecimalSI'],
      ['-1.0001n', '-2n', 'DecimalSI'],
      // the upstream scanner accepts an empty number as zero
      ['.', '0', 'DecimalSI'],
      ['+', '0', 'DecimalSI'],
      ['-.Ki', '0', 'BinarySI'],
    ];
    for (const [input, canonical, format] of cases) {
      it(`${JSON.stringify(input)} → ${canonical} (${format})`, () => {
        const q = Quantity.parse(input);
        expect(q.toString()).to.equal(canonical);
        expect(q.format).to.equal(format);
        expect(Quantity.isQuantity(input)).to.equal(true);
      });
    }
  });

  describe('parse errors carry the upstream messages', () => {
    const cases: Array<[string, string]> = [
      ['', QUANTITY_FORMAT_ERROR],
      ['abc', QUANTITY_FORMAT_ERROR],
      ['1Kib', QUANTITY_FORMAT_ERROR],
      ['1.2.3', QUANTITY_FORMAT_ERROR],
      ['1e3.5', QUANTITY_FORMAT_ERROR],
      ['1 k', QUANTITY_FORMAT_ERROR],
      ['5i', QUANTITY_SUFFIX_ERROR],
      ['1e', QUANTITY_SUFFIX_ERROR],
      ['1kk', QUANTITY_SUFFIX_ERROR],
      ['1Mb', QUANTITY_FORMAT_ERROR],
    ];
    for (const [input, message] of cases) {
      it(`${JSON.stringify(input)} → ${message}`, () => {
        expect(() => Quantity.parse(input)).to.throw(QuantityParseError, message);
        expect(Quantity.isQuantity(input)).to.equal(false);
      });
    }
    it('the messages are the upstream ones', () => {
      expect(QUANTITY_SUFFIX_ERROR).to.equal("unable to parse quantity's suffix");
      expect(QUANTITY_NUMERIC_ERROR).to.equal('unable to parse numeric part of quantity');
      expect(QUANTITY_FORMAT_ERROR).to.match(/^quantities must match the regular expression/);
    });
  });

  describe('asInt64 follows the upstream representation', () => {
    const cases: Array<[string, bigint | undefined]> = [
      ['0', 0n],
      ['50k', 50000n],
      ['1Ki', 1024n],
      ['500000G', 500000000000000n],
      ['-1Ki', -1024n],
      ['999999999999999999', 999999999999999999n],
      ['1.5', undefined],
      ['1.0', undefined], // stored with a fractional scale upstream
      ['1000m', undefined],
      ['0.0', undefined],
      ['1.5Gi', undefined], // parsed on the decimal path upstream
      ['3Ei', undefined],
      ['1234567890123456789', undefined],
      ['10E', undefined], // 10^19 overflows int64
      ['9E', 9000000000000000000n],
    ];
    for (const [input, expected] of cases) {
      it(`${input} → ${expected === undefined ? 'not an integer' : expected}`, () => {
        expect(Quantity.parse(input).asInt64()).to.equal(expected);
      });
    }
  });

  describe('asApproximateFloat64', () => {
    const cases: Array<[string, number]> = [
      ['12Mi', 12582912],
      ['1.5', 1.5],
      ['-0.001', -0.001],
      ['1e100', 1e100],
      ['1e1000', Infinity],
      ['0', 0],
      ['9223372036854775807', 2 ** 63],
    ];
    for (const [input, expected] of cases) {
      it(`${input} ≈ ${expected}`, () => {
        expect(Quantity.parse(input).asApproximateFloat64()).to.equal(expected);
      });
    }
  });

  describe('comparison and sign', () => {
    const cases: Array<[string, string, -1 | 0 | 1]> = [
      ['200M', '0.2G', 0],
      ['50M', '50Mi', -1],
      ['50Mi', '50M', 1],
      ['1k', '1000', 0],
      ['1Ki', '1k', 1],
      ['-1', '1m', -1],
      ['1e100', '9Ei', 1],
      ['1n', '0', 1],
      ['1e-100', '1n', 0],
    ];
    for (const [a, b, expected] of cases) {
      it(`${a} cmp ${b} = ${expected}`, () => {
        const qa = Quantity.parse(a);
        const qb = Quantity.parse(b);
        expect(qa.cmp(qb)).to.equal(expected);
        expect(qb.cmp(qa)).to.equal(-expected);
        expect(qa.equals(qb)).to.equal(expected === 0);
      });
    }
    for (const [input, sign] of [['5', 1], ['-5m', -1], ['0', 0], ['0.0', 0], ['-1Ei', -1]] as const) {
      it(`sign(${input}) = ${sign}`, () => expect(Quantity.parse(input).sign()).to.equal(sign));
    }
  });

  describe('add and sub (formats follow the receiver unless it is zero)', () => {
    const int = (v: number) => Quantity.fromInt(v, 'DecimalExponent');
    const cases: Array<[string, () => Quantity, string]> = [
      ['50k + 20', () => Quantity.parse('50k').add(int(20)), '50020'],
      ['50k - 20000', () => Quantity.parse('50k').sub(int(20000)), '30k'],
      ['0 + 20 takes the operand format', () => Quantity.parse('0').add(int(20)), '20'],
      ['0 - 1Ki takes BinarySI', () => Quantity.parse('0').sub(Quantity.parse('1Ki')), '-1Ki'],
      ['50k + 20k', () => Quantity.parse('50k').add(Quantity.parse('20k')), '70k'],
      ['1.5 + 0.5', () => Quantity.parse('1.5').add(Quantity.parse('0.5')), '2'],
      ['1Gi + 512Mi', () => Quantity.parse('1Gi').add(Quantity.parse('512Mi')), '1536Mi'],
      ['1Ki - 1', () => Quantity.parse('1Ki').sub(int(1)), '1023'],
      ['chain', () => Quantity.parse('50k').add(int(20)).sub(Quantity.parse('100k')).sub(int(-50000)), '20'],
      ['1k + 1m', () => Quantity.parse('1k').add(Quantity.parse('1m')), '1000001m'],
      ['int64 overflow falls back to arbitrary precision', () => Quantity.parse('9E').add(Quantity.parse('9E')), '18E'],
      ['1e100 - 1e100', () => Quantity.parse('1e100').sub(Quantity.parse('1e100')), '0'],
    ];
    for (const [name, make, expected] of cases) {
      it(`${name} = ${expected}`, () => expect(make().toString()).to.equal(expected));
    }
    it('operands are not mutated', () => {
      const a = Quantity.parse('1k');
      a.add(Quantity.parse('1'));
      a.sub(Quantity.parse('1'));
      expect(a.toString()).to.equal('1k');
    });
    it('a sum on the int64 path with a fractional scale is not an integer (upstream quirk)', () => {
      expect(Quantity.parse('1.5').add(Quantity.parse('0.5')).asInt64()).to.equal(undefined);
      expect(Quantity.parse('1').add(Quantity.parse('2')).asInt64()).to.equal(3n);
    });
  });

  describe('scaled values and construction', () => {
    it('value() and milliValue() round away from zero', () => {
      expect(Quantity.parse('1.5').value()).to.equal(2n);
      expect(Quantity.parse('-1.5').value()).to.equal(-2n);
      expect(Quantity.parse('1.5').milliValue()).to.equal(1500n);
      expect(Quantity.parse('1n').milliValue()).to.equal(1n);
      expect(Quantity.parse('2Ki').value()).to.equal(2048n);
    });
    it('fromInt rejects values outside int64', () => {
      expect(() => Quantity.fromInt(1n << 63n)).to.throw(RangeError);
      expect(Quantity.fromInt(-5).toString()).to.equal('-5');
      expect(Quantity.fromInt(2048, 'BinarySI').toString()).to.equal('2Ki');
    });
    it('serializes to JSON as its canonical string', () => {
      expect(JSON.stringify({ q: Quantity.parse('1.5Gi') })).to.equal('{"q":"1536Mi"}');
    });
  });
});
