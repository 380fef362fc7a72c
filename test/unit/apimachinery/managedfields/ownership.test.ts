/**
 * One case per row of spec 000 § Field ownership, in the table's order.
 */
import { expect } from 'chai';
import { apply, type ApplyConflicts } from '../../../../lib/apimachinery/managedfields/index.js';
import { field, listOf, mapOf, string, struct } from '../../../../lib/apimachinery/schema/builder.js';
import type { StructSchema } from '../../../../lib/apimachinery/schema/types.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { objectMeta } from '../../../../lib/apis/meta/v1/types.js';
import { applied, at, edited, fieldsOf, NOW, type Obj, owners, updated } from './helpers.js';
import { covers } from '../../../conformance/covers.js';

const schema = configMap.schema;
const cm = (data: Record<string, string>): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ns' }, data });
const conflictsOf = (live: Obj, config: Obj, manager: string, force = false): ApplyConflicts['conflicts'] | undefined =>
  apply({ live, config, manager, apiVersion: 'v1', kind: 'ConfigMap', force, schema, now: NOW }).conflicts;

/** A test kind whose `spec.items` (keyed list) and `spec.config` (map) are granular or atomic. */
function widget(topology: 'granular' | 'atomic'): StructSchema {
  const item = struct('test.Item', { name: field(1, string), value: field(2, string) });
  const items = topology === 'granular' ? listOf(item, { listType: 'map', listMapKeys: ['name'] }) : listOf(item, { listType: 'atomic' });
  return struct('test.Widget', {
    apiVersion: field(0, string),
    kind: field(0, string),
    metadata: field(1, objectMeta),
    spec: field(2, struct('test.WidgetSpec', { items: field(1, items), config: field(2, mapOf(string, { mapType: topology })) })),
  });
}
const w = (spec: Obj): Obj => ({ apiVersion: 'test/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

describe('managedfields: spec 000 § Field ownership, row by row', () => {
  it(`field not owned by anyone + apply including a value → the applier owns it (operation Apply)${covers('000 § Field ownership › Field not owned by anyone')}`, () => {
    const o = applied(schema, undefined, cm({ a: '1' }), 'alice');
    expect(owners(o)).to.deep.equal([['alice', 'Apply']]);
    expect(fieldsOf(o, 'alice')).to.deep.equal({ 'f:data': { 'f:a': {} } });
    expect(o.data).to.deep.equal({ a: '1' });
  });

  it(`owned by A with value v + B applies a different value without force → conflict, nothing changes${covers('000 § Field ownership › Field owned by manager A with value v')}`, () => {
    const live = applied(schema, undefined, cm({ a: '1' }), 'alice');
    expect(conflictsOf(live, cm({ a: '2' }), 'bob')).to.deep.equal([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', subresource: '', path: '.data.a', identifier: '{"manager":"alice","operation":"Apply"}' },
    ]);
  });

  it(`same + B applies with force=true → value overwritten, B sole owner, removed from A${covers('000 § Field ownership › Same / B applies with query force=true')}`, () => {
    const live = applied(schema, undefined, cm({ a: '1', keep: 'x' }), 'alice');
    const o = applied(schema, live, cm({ a: '2' }), 'bob', { force: true });
    expect(o.data).to.deep.equal({ a: '2', keep: 'x' });
    expect(fieldsOf(o, 'alice')).to.deep.equal({ 'f:data': { 'f:keep': {} } });
    expect(fieldsOf(o, 'bob')).to.deep.equal({ 'f:data': { 'f:a': {} } });
  });

  it(`same + B applies the same value as live → ownership shared between A and B${covers('000 § Field ownership › Same / B applies the same value as the live one')}`, () => {
    const live = applied(schema, undefined, cm({ a: '1' }), 'alice');
    const o = applied(schema, live, cm({ a: '1' }), 'bob');
    expect(fieldsOf(o, 'alice')).to.deep.equal({ 'f:data': { 'f:a': {} } });
    expect(fieldsOf(o, 'bob')).to.deep.equal({ 'f:data': { 'f:a': {} } });
  });

  it(`shared field + any owner applies a changed value → conflict for that owner${covers('000 § Field ownership › Shared field')}`, () => {
    const shared = applied(schema, applied(schema, undefined, cm({ a: '1' }), 'alice'), cm({ a: '1' }), 'bob');
    expect(conflictsOf(shared, cm({ a: '2' }), 'alice')?.map((c) => [c.manager, c.path])).to.deep.equal([['bob', '.data.a']]);
    expect(conflictsOf(shared, cm({ a: '2' }), 'bob')?.map((c) => [c.manager, c.path])).to.deep.equal([['alice', '.data.a']]);
  });

  it(`owned by A + A applies omitting it → removed when nobody else owns it, kept (same value) when co-owned${covers('000 § Field ownership › Field owned by A')}`, () => {
    const live = applied(schema, undefined, cm({ solo: '1', shared: '2', keep: '3' }), 'alice');
    const coOwned = applied(schema, live, cm({ shared: '2' }), 'bob');
    const o = applied(schema, coOwned, cm({ keep: '3' }), 'alice');
    expect(o.data).to.deep.equal({ shared: '2', keep: '3' });
    expect(fieldsOf(o, 'alice')).to.deep.equal({ 'f:data': { 'f:keep': {} } });
    expect(fieldsOf(o, 'bob')).to.deep.equal({ 'f:data': { 'f:shared': {} } });
  });

  it(`update (PUT) or non-apply patch changes a managed field → never a conflict; ownership moves to the updater (Update)${covers('000 § Field ownership › Any field / update')}`, () => {
    const live = applied(schema, undefined, cm({ a: '1', b: '2' }), 'alice');
    const o = updated(schema, live, edited(live, (x) => (at(x, 'data').a = 'changed')), 'kubectl-edit');
    expect(owners(o)).to.deep.equal([['alice', 'Apply'], ['kubectl-edit', 'Update']]);
    expect(fieldsOf(o, 'alice')).to.deep.equal({ 'f:data': { 'f:b': {} } });
    expect(fieldsOf(o, 'kubectl-edit')).to.deep.equal({ 'f:data': { 'f:a': {} } });
  });

  it(`value actually changes → ownership passes to the changer; an unchanged value stays with its owner${covers('000 § Field ownership › Any field / value actually changes')}`, () => {
    const live = applied(schema, undefined, cm({ a: '1', b: '2' }), 'alice');
    const same = updated(schema, live, edited(live, () => undefined), 'noop-writer');
    expect(owners(same)).to.deep.equal([['alice', 'Apply']]);
    const changed = updated(schema, live, edited(live, (x) => (at(x, 'data').b = '3')), 'controller');
    expect(fieldsOf(changed, 'alice')).to.deep.equal({ 'f:data': { 'f:a': {} } });
    expect(fieldsOf(changed, 'controller')).to.deep.equal({ 'f:data': { 'f:b': {} } });
    const back = applied(schema, changed, cm({ a: '1', b: '2' }), 'alice', { force: true });
    expect(owners(back)).to.deep.equal([['alice', 'Apply']]);
  });

  it(`topology map/set/granular → atomic (schema change): the whole list/map is owned by every former owner; further changes conflict${covers('000 § Field ownership › Topology map/set/granular to atomic (schema change)')}`, () => {
    const granular = widget('granular');
    const a = applied(granular, undefined, w({ items: [{ name: 'a', value: '1' }], config: { x: '1' } }), 'alice');
    const ab = applied(granular, a, w({ items: [{ name: 'b', value: '2' }], config: { y: '2' } }), 'bob');
    expect(fieldsOf(ab, 'bob')).to.deep.equal({ 'f:spec': { 'f:config': { 'f:y': {} }, 'f:items': { 'k:{"name":"b"}': { '.': {}, 'f:name': {}, 'f:value': {} } } } });
    const atomic = widget('atomic');
    // A later write with the atomic schema: alice re-applies her unchanged configuration.
    const later = applied(atomic, ab, w({ items: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }], config: { x: '1', y: '2' } }), 'alice');
    expect(fieldsOf(later, 'alice')).to.deep.equal({ 'f:spec': { 'f:config': {}, 'f:items': {} } });
    expect(fieldsOf(later, 'bob')).to.deep.equal({ 'f:spec': { 'f:config': {}, 'f:items': {} } });
    const r = apply({ live: later, config: w({ items: [{ name: 'b', value: '3' }] }), manager: 'bob', apiVersion: 'test/v1', kind: 'Widget', force: false, schema: atomic, now: NOW });
    expect(r.conflicts?.map((c) => [c.manager, c.path])).to.deep.equal([['alice', '.spec.items']]);
  });

  it(`topology atomic → map/set/granular: no conflict on later updates; the previous owner keeps the top-level field, not the inner keys${covers('000 § Field ownership › Topology atomic to map/set/granular')}`, () => {
    const atomic = widget('atomic');
    const a = applied(atomic, undefined, w({ config: { x: '1', y: '2' } }), 'alice');
    expect(fieldsOf(a, 'alice')).to.deep.equal({ 'f:spec': { 'f:config': {} } });
    const granular = widget('granular');
    const o = applied(granular, a, w({ config: { x: '9' } }), 'bob');
    expect((o.spec as Obj).config).to.deep.equal({ x: '9', y: '2' });
    expect(fieldsOf(o, 'alice')).to.deep.equal({ 'f:spec': { 'f:config': {} } });
    expect(fieldsOf(o, 'bob')).to.deep.equal({ 'f:spec': { 'f:config': { 'f:x': {} } } });
  });

  it(`manager entry with no remaining fields (another manager takes all its fields) → entry deleted${covers('000 § Field ownership › Manager entry with no remaining fields')}`, () => {
    const live = applied(schema, undefined, cm({ a: '1' }), 'alice');
    expect(owners(applied(schema, live, cm({ a: '2' }), 'bob', { force: true }))).to.deep.equal([['bob', 'Apply']]);
    expect(owners(updated(schema, live, edited(live, (x) => (at(x, 'data').a = '3')), 'editor'))).to.deep.equal([['editor', 'Update']]);
  });
});
