import { expect } from 'chai';
import { field, listOf, mapOf, string, struct } from '../../../../lib/apimachinery/schema/builder.js';
import { applyDefaults } from '../../../../lib/apimachinery/schema/defaults.js';
import { widget } from './fixtures.js';

type Obj = Record<string, unknown>;

describe('schema/defaults: declared field defaults', () => {
  it('fills an absent field with its default', () => {
    const obj: Obj = { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }] }] } };
    applyDefaults(widget, obj);
    expect(obj).to.deep.equal({ spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } });
  });

  it('does not replace a value that is set', () => {
    const obj: Obj = { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'UDP' }] }] } };
    applyDefaults(widget, obj);
    expect((obj.spec as { containers: Array<{ ports: Array<{ protocol: string }> }> }).containers[0]!.ports[0]!.protocol).to.equal('UDP');
  });

  it('does not replace an empty string (only absence is defaulted)', () => {
    const s = struct('x.v1.S', { a: field(1, string, { default: 'd' }) });
    const obj: Obj = { a: '' };
    applyDefaults(s, obj);
    expect(obj).to.deep.equal({ a: '' });
  });

  it('defaults every item of a list and every value of a map', () => {
    const item = struct('x.v1.Item', { kind: field(1, string, { default: 'k' }) });
    const s = struct('x.v1.S', { list: field(1, listOf(item)), map: field(2, mapOf(item)) });
    const obj: Obj = { list: [{}, { kind: 'set' }], map: { a: {}, b: {} } };
    applyDefaults(s, obj);
    expect(obj).to.deep.equal({ list: [{ kind: 'k' }, { kind: 'set' }], map: { a: { kind: 'k' }, b: { kind: 'k' } } });
  });

  it('a default is a copy: changing the defaulted value leaves the schema default unchanged', () => {
    const s = struct('x.v1.S', { tags: field(1, listOf(string), { default: ['a'] }) });
    const first: Obj = {};
    applyDefaults(s, first);
    (first.tags as string[]).push('changed');
    const second: Obj = {};
    applyDefaults(s, second);
    expect(second).to.deep.equal({ tags: ['a'] });
  });

  it('a defaulted struct is itself defaulted (parent before child)', () => {
    const child = struct('x.v1.Child', { mode: field(1, string, { default: 'auto' }) });
    const s = struct('x.v1.S', { child: field(1, child, { default: {} }) });
    const obj: Obj = {};
    applyDefaults(s, obj);
    expect(obj).to.deep.equal({ child: { mode: 'auto' } });
  });
});

describe('schema/defaults: order and hooks (upstream SetObjectDefaults: parent before child)', () => {
  it('runs field defaults, then the struct hook, then the children, parent before child', () => {
    const calls: string[] = [];
    const child = struct(
      'x.v1.Child',
      { mode: field(1, string, { default: 'auto' }) },
      {
        defaulter: (o) => {
          calls.push(`child hook sees mode=${String(o.mode)} and parentSet=${String(o.parentSet)}`);
        },
      },
    );
    const parent = struct(
      'x.v1.Parent',
      { name: field(1, string, { default: 'n' }), child: field(2, child) },
      {
        defaulter: (o) => {
          calls.push(`parent hook sees name=${String(o.name)}`);
          (o.child as Obj).parentSet = true;
        },
      },
    );
    applyDefaults(parent, { child: {} });
    expect(calls).to.deep.equal(['parent hook sees name=n', 'child hook sees mode=auto and parentSet=true']);
  });

  it('a hook sees the root object', () => {
    let seenRoot: unknown;
    const child = struct('x.v1.Child', {}, { defaulter: (_o, root) => (seenRoot = root) });
    const parent = struct('x.v1.Parent', { child: field(1, child) });
    const obj: Obj = { child: {}, marker: 1 };
    applyDefaults(parent, obj);
    expect(seenRoot).to.equal(obj);
  });

  it('a field a hook adds is defaulted in turn', () => {
    const child = struct('x.v1.Child', { mode: field(1, string, { default: 'auto' }) });
    const parent = struct('x.v1.Parent', { child: field(1, child) }, { defaulter: (o) => (o.child = {}) });
    const obj: Obj = {};
    applyDefaults(parent, obj);
    expect(obj).to.deep.equal({ child: { mode: 'auto' } });
  });

  it('no hook runs for an absent struct', () => {
    let ran = false;
    const child = struct('x.v1.Child', {}, { defaulter: () => (ran = true) });
    applyDefaults(struct('x.v1.Parent', { child: field(1, child) }), {});
    expect(ran).to.equal(false);
  });

  it('unknown properties are left alone', () => {
    const obj: Obj = { spec: {}, other: { protocol: undefined } };
    applyDefaults(widget, obj);
    expect(obj.other).to.deep.equal({ protocol: undefined });
  });
});
