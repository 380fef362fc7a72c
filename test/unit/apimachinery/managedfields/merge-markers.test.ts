/**
 * The mapType and structType rows of spec 000 § Merge strategy markers: `atomic` maps and structs
 * are owned and replaced as a whole by one manager; `granular` ones are owned field by field.
 */
import { expect } from 'chai';
import { apply } from '../../../../lib/apimachinery/managedfields/index.js';
import { field, mapOf, string, struct } from '../../../../lib/apimachinery/schema/builder.js';
import type { StructSchema } from '../../../../lib/apimachinery/schema/types.js';
import { objectMeta } from '../../../../lib/apis/meta/v1/types.js';
import { covers } from '../../../conformance/covers.js';
import { applied, fieldsOf, NOW, type Obj } from './helpers.js';

/** A test kind whose `spec.config` (a map) and `spec.selector` (a struct) carry `mapType`. */
function widget(mapType: 'granular' | 'atomic'): StructSchema {
  const selector = struct('test.Selector', { app: field(1, string), tier: field(2, string) }, { mapType });
  return struct('test.Widget', {
    apiVersion: field(0, string),
    kind: field(0, string),
    metadata: field(1, objectMeta),
    spec: field(2, struct('test.WidgetSpec', { config: field(1, mapOf(string, { mapType })), selector: field(2, selector) })),
  });
}
const w = (spec: Obj): Obj => ({ apiVersion: 'test/v1', kind: 'Widget', metadata: { name: 'w' }, spec });
const conflictPaths = (schema: StructSchema, live: Obj, spec: Obj, manager: string) =>
  apply({ live, config: w(spec), manager, apiVersion: 'test/v1', kind: 'Widget', force: false, schema, now: NOW }).conflicts?.map((c) => [c.manager, c.path]);

describe('managedfields: mapType and structType markers (spec 000 § Merge strategy markers)', () => {
  it(`mapType atomic: one manager owns the whole map, another's apply conflicts on it and, forced, replaces it${covers('000 § Merge strategy markers (schema extensions) › mapType')}`, () => {
    const atomic = widget('atomic');
    const a = applied(atomic, undefined, w({ config: { x: '1', y: '2' } }), 'alice');
    expect(fieldsOf(a, 'alice')).to.deep.equal({ 'f:spec': { 'f:config': {} } });
    expect(conflictPaths(atomic, a, { config: { z: '3' } }, 'bob')).to.deep.equal([['alice', '.spec.config']]);
    const forced = applied(atomic, a, w({ config: { z: '3' } }), 'bob', { force: true });
    expect((forced.spec as Obj).config).to.deep.equal({ z: '3' });
    expect(fieldsOf(forced, 'bob')).to.deep.equal({ 'f:spec': { 'f:config': {} } });
    expect(fieldsOf(forced, 'alice')).to.equal(undefined);
  });

  it(`mapType granular: managers own and update individual keys without conflict${covers('000 § Merge strategy markers (schema extensions) › mapType')}`, () => {
    const granular = widget('granular');
    const a = applied(granular, undefined, w({ config: { x: '1' } }), 'alice');
    const ab = applied(granular, a, w({ config: { y: '2' } }), 'bob');
    expect((ab.spec as Obj).config).to.deep.equal({ x: '1', y: '2' });
    expect(fieldsOf(ab, 'alice')).to.deep.equal({ 'f:spec': { 'f:config': { 'f:x': {} } } });
    expect(fieldsOf(ab, 'bob')).to.deep.equal({ 'f:spec': { 'f:config': { 'f:y': {} } } });
  });

  it(`structType atomic: the struct is owned and replaced as a whole; granular: field by field${covers('000 § Merge strategy markers (schema extensions) › structType')}`, () => {
    const atomic = widget('atomic');
    const a = applied(atomic, undefined, w({ selector: { app: 'web' } }), 'alice');
    expect(fieldsOf(a, 'alice')).to.deep.equal({ 'f:spec': { 'f:selector': {} } });
    expect(conflictPaths(atomic, a, { selector: { tier: 'front' } }, 'bob')).to.deep.equal([['alice', '.spec.selector']]);
    const forced = applied(atomic, a, w({ selector: { tier: 'front' } }), 'bob', { force: true });
    expect((forced.spec as Obj).selector).to.deep.equal({ tier: 'front' });

    const granular = widget('granular');
    const g = applied(granular, applied(granular, undefined, w({ selector: { app: 'web' } }), 'alice'), w({ selector: { tier: 'front' } }), 'bob');
    expect((g.spec as Obj).selector).to.deep.equal({ app: 'web', tier: 'front' });
    expect(fieldsOf(g, 'alice')).to.deep.equal({ 'f:spec': { 'f:selector': { 'f:app': {} } } });
    expect(fieldsOf(g, 'bob')).to.deep.equal({ 'f:spec': { 'f:selector': { 'f:tier': {} } } });
  });
});
