import { expect } from 'chai';
import { decodeObject, formatMicroTime, formatTime, goTypeName } from '../../../../lib/apimachinery/schema/decode.js';
import { container, port, spec, widget } from './fixtures.js';

/** Decodes `obj` as a Widget; returns the result and the (modified) object. */
function decode(obj: Record<string, unknown>, prune = true) {
  const res = decodeObject(widget, obj, prune);
  return { ...res, obj };
}

describe('schema/decode: type errors (spec 001 § Errors: a wrong field type is 400 with the Go decoder message)', () => {
  const rows: Array<[string, Record<string, unknown>, string]> = [
    ['a number for a string', { spec: { mode: 5 } }, 'json: cannot unmarshal number into Go struct field WidgetSpec.spec.mode of type string'],
    ['a string for an int32', { spec: { replicas: 'three' } }, 'json: cannot unmarshal string into Go struct field WidgetSpec.spec.replicas of type int32'],
    ['a fraction for an int32', { spec: { replicas: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field WidgetSpec.spec.replicas of type int32'],
    ['an int32 overflow', { spec: { replicas: 3000000000 } }, 'json: cannot unmarshal number 3000000000 into Go struct field WidgetSpec.spec.replicas of type int32'],
    ['a bool for an int64', { spec: { size: true } }, 'json: cannot unmarshal bool into Go struct field WidgetSpec.spec.size of type int64'],
    ['a string for a float64', { spec: { ratio: 'x' } }, 'json: cannot unmarshal string into Go struct field WidgetSpec.spec.ratio of type float64'],
    ['a string for a bool', { spec: { enabled: 'yes' } }, 'json: cannot unmarshal string into Go struct field WidgetSpec.spec.enabled of type bool'],
    ['an array for a struct', { spec: [] }, 'json: cannot unmarshal array into Go struct field Widget.spec of type v1.WidgetSpec'],
    ['a string for a struct', { metadata: 'x', spec: {} }, 'json: cannot unmarshal string into Go struct field Widget.metadata of type v1.ObjectMeta'],
    ['an object for a list', { spec: { containers: {} } }, 'json: cannot unmarshal object into Go struct field WidgetSpec.spec.containers of type []v1.Container'],
    ['a string for a list item struct', { spec: { containers: ['c'] } }, 'json: cannot unmarshal string into Go struct field WidgetSpec.spec.containers of type v1.Container'],
    [
      'a number inside a list of strings (path without indexes)',
      { spec: { containers: [{ name: 'a' }, { name: 'b', command: ['sleep', 1200] }] } },
      'json: cannot unmarshal number into Go struct field Container.spec.containers.command of type string',
    ],
    [
      'a string for a list item struct in a nested list',
      { spec: { containers: [{ name: 'a', ports: ['80'] }] } },
      'json: cannot unmarshal string into Go struct field Container.spec.containers.ports of type v1.ContainerPort',
    ],
    [
      'an object for a nested list',
      { spec: { containers: [{ name: 'a', ports: { containerPort: 80 } }] } },
      'json: cannot unmarshal object into Go struct field Container.spec.containers.ports of type []v1.ContainerPort',
    ],
    [
      'a number in a map of strings (path without the key)',
      { spec: { containers: [{ name: 'a', env: { A: 5 } }] } },
      'json: cannot unmarshal number into Go struct field Container.spec.containers.env of type string',
    ],
    ['an array for a map', { metadata: { labels: ['a'] }, spec: {} }, 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    ['a bool for an int-or-string (decoded as int32)', { spec: { target: false } }, 'json: cannot unmarshal bool into Go struct field WidgetSpec.spec.target of type int32'],
    ['a fraction for an int-or-string', { spec: { target: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field WidgetSpec.spec.target of type int32'],
    ['a number for a time (decoded as a string)', { spec: { started: 5 } }, 'json: cannot unmarshal number into Go struct field WidgetSpec.spec.started of type string'],
    ['a number for a duration', { spec: { timeout: 5 } }, 'json: cannot unmarshal number into Go struct field WidgetSpec.spec.timeout of type string'],
    ['a number for a byte string', { spec: { payload: 5 } }, 'json: cannot unmarshal number into Go struct field WidgetSpec.spec.payload of type []uint8'],
    ['illegal base64', { spec: { payload: 'ab!d' } }, 'illegal base64 data at input byte 2'],
    ['a time that is not RFC 3339', { spec: { started: 'yesterday' } }, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    ['a day the month does not have', { spec: { started: '2024-02-30T00:00:00Z' } }, 'parsing time "2024-02-30T00:00:00Z": day out of range'],
    ['a month past 12', { spec: { renewed: '2024-13-01T00:00:00.000000Z' } }, 'parsing time "2024-13-01T00:00:00.000000Z": month out of range'],
    ['hour 24', { spec: { started: '2024-01-01T24:00:00Z' } }, 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    ['a lower-case t (Go reads the layout case-sensitively)', { spec: { started: '2024-05-01t10:00:00Z' } }, 'parsing time "2024-05-01t10:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t10:00:00Z" as "T"'],
  ];
  for (const [what, obj, message] of rows) {
    it(`${what}: ${message}`, () => {
      expect(decode(obj).typeError).to.equal(message);
    });
  }

  it('reports the first type error only', () => {
    expect(decode({ spec: { mode: 1, replicas: 'x' } }).typeError).to.equal('json: cannot unmarshal number into Go struct field WidgetSpec.spec.mode of type string');
  });

  it('a valid object has no type error', () => {
    expect(decode({ spec: { replicas: 2, mode: 'Fast', target: 'http', extra: { any: [1] } } }).typeError).to.equal(undefined);
  });

  it('an int-or-string accepts an integer and a string', () => {
    expect(decode({ spec: { target: 8080 } }).typeError).to.equal(undefined);
    expect(decode({ spec: { target: 'http' } }).typeError).to.equal(undefined);
  });

  it('a quantity accepts a number and a string', () => {
    expect(decode({ spec: { containers: [{ name: 'a', limits: { cpu: 1, memory: '1Gi' } }] } }).typeError).to.equal(undefined);
  });
});

describe('schema/decode: unknown fields (spec 000 § Field validation levels)', () => {
  it('are pruned and listed with their paths, list indexes included', () => {
    const { unknownFields, obj } = decode({ spec: { bogus: 1, containers: [{ name: 'a' }, { name: 'b', extra: true }] }, top: 'x' });
    expect(unknownFields).to.have.members(['spec.bogus', 'spec.containers[1].extra', 'top']);
    expect(obj).to.deep.equal({ spec: { containers: [{ name: 'a' }, { name: 'b' }] } });
  });

  it('are listed but kept when pruning is off', () => {
    const { unknownFields, obj } = decode({ spec: { bogus: 1 } }, false);
    expect(unknownFields).to.deep.equal(['spec.bogus']);
    expect(obj).to.deep.equal({ spec: { bogus: 1 } });
  });

  it('inside a raw field are neither pruned nor listed', () => {
    const { unknownFields, obj } = decode({ spec: { extra: { anything: { goes: 1 } } } });
    expect(unknownFields).to.deep.equal([]);
    expect(obj).to.deep.equal({ spec: { extra: { anything: { goes: 1 } } } });
  });

  it('are kept for a struct that preserves unknown fields', () => {
    const open = { ...spec, preserveUnknownFields: true };
    const res = decodeObject(open, { free: 1 });
    expect(res.unknownFields).to.deep.equal([]);
  });
});

describe('schema/decode: normalization', () => {
  it('drops null properties', () => {
    const { obj } = decode({ metadata: { name: null, labels: null }, spec: { mode: null } });
    expect(obj).to.deep.equal({ metadata: {}, spec: {} });
  });

  it('keeps null for a nullable property', () => {
    expect(decode({ spec: { nullableNote: null } }).obj).to.deep.equal({ spec: { nullableNote: null } });
  });

  const times: Array<[string, string, string]> = [
    ['UTC stays', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00Z'],
    ['an offset is converted to UTC', '2024-05-01T12:30:00+02:30', '2024-05-01T10:00:00Z'],
    ['a negative offset is converted to UTC', '2024-04-30T23:00:00-11:00', '2024-05-01T10:00:00Z'],
    ['fractional seconds are truncated', '2024-05-01T10:00:00.999Z', '2024-05-01T10:00:00Z'],
    ['a leap day stays', '2024-02-29T23:59:59Z', '2024-02-29T23:59:59Z'],
    ['a one-digit hour is read as Go reads it', '2024-05-01T9:00:00Z', '2024-05-01T09:00:00Z'],
    ['an offset of 24 hours is accepted, as Go accepts it', '2024-05-02T10:00:00+24:00', '2024-05-01T10:00:00Z'],
    ['the first instant of a year stays', '2000-01-01T00:00:00Z', '2000-01-01T00:00:00Z'],
  ];
  for (const [what, input, output] of times) {
    it(`a Time: ${what} (${input} → ${output})`, () => {
      expect((decode({ spec: { started: input } }).obj.spec as { started: string }).started).to.equal(output);
    });
  }

  const microTimes: Array<[string, string, string]> = [
    ['microseconds are kept', '2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.123456Z'],
    ['an offset is converted to UTC, microseconds kept', '2024-05-01T12:00:00.000001+02:00', '2024-05-01T10:00:00.000001Z'],
    ['fewer digits are padded to six', '2024-05-01T10:00:00.5Z', '2024-05-01T10:00:00.500000Z'],
    ['no fraction gives six zeros', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000000Z'],
    ['six digits in UTC stay', '2024-12-31T23:59:59.999999Z', '2024-12-31T23:59:59.999999Z'],
    ['more digits are cut to six', '2024-05-01T10:00:00.1234567Z', '2024-05-01T10:00:00.123456Z'],
  ];
  for (const [what, input, output] of microTimes) {
    it(`a MicroTime: ${what} (${input} → ${output})`, () => {
      expect((decode({ spec: { renewed: input } }).obj.spec as { renewed: string }).renewed).to.equal(output);
    });
  }

  it('times inside metadata are normalized too', () => {
    expect((decode({ metadata: { creationTimestamp: '2024-05-01T11:00:00+01:00' }, spec: {} }).obj.metadata as { creationTimestamp: string }).creationTimestamp).to.equal(
      '2024-05-01T10:00:00Z',
    );
  });

  it('formatTime and formatMicroTime print UTC at their precision', () => {
    const d = new Date(Date.UTC(2024, 4, 1, 10, 0, 0, 123));
    expect(formatTime(d)).to.equal('2024-05-01T10:00:00Z');
    expect(formatMicroTime(d)).to.equal('2024-05-01T10:00:00.123000Z');
  });

  it('formatTime gives each second its own text, also right after the same second was formatted', () => {
    const at = (ms: number) => formatTime(new Date(ms));
    const base = Date.UTC(2024, 4, 1, 10, 0, 0);
    expect(at(base + 999)).to.equal('2024-05-01T10:00:00Z');
    expect(at(base + 1)).to.equal('2024-05-01T10:00:00Z');
    expect(at(base + 1000)).to.equal('2024-05-01T10:00:01Z');
    expect(at(base - 1)).to.equal('2024-05-01T09:59:59Z');
    expect(at(-1)).to.equal('1969-12-31T23:59:59Z');
    expect(at(0)).to.equal('1970-01-01T00:00:00Z');
    expect(() => formatTime(new Date(NaN))).to.throw(RangeError);
    expect(() => formatTime(new Date(NaN))).to.throw(RangeError);
  });
});

describe('schema/decode: goTypeName', () => {
  const rows: Array<[string, Parameters<typeof goTypeName>[0], string]> = [
    ['a struct', container, 'v1.Container'],
    ['a list of structs', { type: 'list', items: port }, '[]v1.ContainerPort'],
    ['a map of lists', { type: 'map', values: { type: 'list', items: { type: 'string' } } }, 'map[string][]string'],
    ['bytes', { type: 'bytes' }, '[]uint8'],
    ['a micro time', { type: 'time', precision: 'micros' }, 'v1.MicroTime'],
  ];
  for (const [what, s, name] of rows) {
    it(`${what}: ${name}`, () => {
      expect(goTypeName(s)).to.equal(name);
    });
  }
});
