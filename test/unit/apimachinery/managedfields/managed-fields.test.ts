import { expect } from 'chai';
import { decodeManagedFields, encodeManagedFields, isResetManagedFields, ManagedFieldsError, validateManagedFields } from '../../../../lib/apimachinery/managedfields/index.js';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';

const entry = (over: Record<string, unknown>) => ({ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} }, ...over });

describe('managedfields/managed-fields: entries on the wire', () => {
  const decodeErrors: Array<[string, unknown, string]> = [
    ['bad operation', [entry({ operation: 'Patch' })], 'operation must be `Apply` or `Update`'],
    ['empty apiVersion', [entry({ apiVersion: '' })], 'apiVersion must not be empty'],
    ['missing fieldsType', [entry({ fieldsType: undefined })], 'missing fieldsType in managed fields entry 0'],
    ['other fieldsType', [entry({}), entry({ manager: 'n', fieldsType: 'FieldsV2' })], 'invalid fieldsType "FieldsV2" in managed fields entry 1'],
    ['bad fieldsV1 key', [entry({ fieldsV1: { zz: {} } })], 'error decoding set: parsing key as path element: missing colon: zz'],
  ];
  for (const [name, entries, message] of decodeErrors) {
    it(`decode error: ${name}`, () => {
      expect(() => decodeManagedFields(entries)).to.throw(ManagedFieldsError, message);
    });
  }

  it('entries are keyed by manager, operation, subresource and (for updaters only) apiVersion', () => {
    const m = decodeManagedFields([entry({}), entry({ apiVersion: 'v2' }), entry({ operation: 'Apply' }), entry({ operation: 'Apply', apiVersion: 'v2' }), entry({ subresource: 'status' })]);
    expect([...m.keys()]).to.deep.equal([
      '{"manager":"m","operation":"Update","apiVersion":"v1"}',
      '{"manager":"m","operation":"Update","apiVersion":"v2"}',
      '{"manager":"m","operation":"Apply"}',
      '{"manager":"m","operation":"Update","apiVersion":"v1","subresource":"status"}',
    ]);
  });

  it('encoding sorts Apply before Update, then by time, manager, apiVersion, subresource', () => {
    const wire = [
      entry({ manager: 'b', time: '2024-01-01T00:00:02Z' }),
      entry({ manager: 'a', time: '2024-01-01T00:00:02Z' }),
      entry({ manager: 'z', time: '2024-01-01T00:00:01Z' }),
      entry({ manager: 'y', operation: 'Apply', time: '2024-01-01T00:00:09Z' }),
      entry({ manager: 'a', apiVersion: 'v0', time: '2024-01-01T00:00:02Z' }),
    ];
    expect(encodeManagedFields(decodeManagedFields(wire))!.map((e) => `${e.operation}/${e.manager}/${e.apiVersion}`)).to.deep.equal(['Apply/y/v1', 'Update/z/v1', 'Update/a/v0', 'Update/a/v1', 'Update/b/v1']);
  });

  it('no entries encode as an absent field', () => {
    expect(encodeManagedFields(new Map())).to.equal(undefined);
  });

  it('the reset request is one entry with every field empty', () => {
    expect(isResetManagedFields([{}])).to.equal(true);
    expect(isResetManagedFields([{ manager: '', time: null }])).to.equal(true);
    expect(isResetManagedFields([])).to.equal(false);
    expect(isResetManagedFields([{}, {}])).to.equal(false);
    expect(isResetManagedFields([{ manager: 'x' }])).to.equal(false);
    expect(isResetManagedFields(undefined)).to.equal(false);
  });

  it('ObjectMeta validation of entries (422 causes)', () => {
    const errs = validateManagedFields([entry({ operation: 'Patch', fieldsType: 'X', manager: 'a'.repeat(129) }), entry({ manager: 'bad\u0007', subresource: 's'.repeat(257) })]);
    expect(errs.map(fieldErrorString)).to.deep.equal([
      'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
      'metadata.managedFields[0].fieldsType: Invalid value: "X": must be `FieldsV1`',
      `metadata.managedFields[0].manager: Too long: may not be more than 128 bytes`,
      'metadata.managedFields[1].manager: Invalid value: "bad\\u0007": invalid character U+0007 (at position 3)',
      'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
    ]);
  });
});
