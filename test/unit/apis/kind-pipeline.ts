/**
 * Test helpers for kind definitions: the decode → default → validate pipeline the registry runs
 * (mirroring lib/registry/generic/kind-strategy.ts: ObjectMeta, declarative and kind-specific
 * validation), error formatting, and a check that a fixture sets every field of a schema.
 */
import { readFileSync } from 'node:fs';
import { type FieldError, fieldErrorString } from '../../../lib/apimachinery/field-errors.js';
import { decodeObject, type DecodeResult } from '../../../lib/apimachinery/schema/decode.js';
import { applyDefaults } from '../../../lib/apimachinery/schema/defaults.js';
import { type Schema, structFields } from '../../../lib/apimachinery/schema/types.js';
import { validateDeclarative } from '../../../lib/apimachinery/schema/validate.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../lib/apimachinery/validation/object-meta.js';
import type { KindDefinition, Obj } from '../../../lib/apis/define.js';

/** Everything but type and object metadata and status: what the declarative walker sees on main writes. */
function specPart(o: Obj): Obj {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = o;
  return rest;
}

/** Decodes and defaults `obj` in place; returns the decode result. */
export function decodeAndDefault(kind: KindDefinition, obj: Obj): DecodeResult {
  const result = decodeObject(kind.schema, obj);
  applyDefaults(kind.schema, obj);
  return result;
}

/** Create-time validation, as the registry strategy composes it. */
export function validateCreate(kind: KindDefinition, obj: Obj): FieldError[] {
  return [
    ...validateObjectMeta(obj.metadata as Obj | undefined, kind.namespaced, kind.nameRule),
    ...validateDeclarative(kind.schema, specPart(obj)),
    ...(kind.validate?.(obj) ?? []),
  ];
}

/** Update validation of the main resource. */
export function validateUpdate(kind: KindDefinition, obj: Obj, old: Obj): FieldError[] {
  return [
    ...validateObjectMetaUpdate((obj.metadata ?? {}) as Obj, (old.metadata ?? {}) as Obj),
    ...validateDeclarative(kind.schema, specPart(obj)),
    ...(kind.validate?.(obj) ?? []),
    ...(kind.validateUpdate?.(obj, old) ?? []),
  ];
}

/** Validation of a status write. */
export function validateStatus(kind: KindDefinition, obj: Obj, old: Obj): FieldError[] {
  return [
    ...validateObjectMetaUpdate((obj.metadata ?? {}) as Obj, (old.metadata ?? {}) as Obj),
    ...validateDeclarative(kind.schema, { status: obj.status }),
    ...(kind.validateStatusUpdate?.(obj, old) ?? []),
  ];
}

/** `path: message` strings, as upstream prints causes. */
export function messages(errs: FieldError[]): string[] {
  return errs.map(fieldErrorString);
}

/** A fresh deep copy of `obj` after `mutate` (which may edit the copy in place). */
export function variant(obj: Obj, mutate: (o: Obj) => void): Obj {
  const copy = structuredClone(obj);
  mutate(copy);
  return copy;
}

/** Reads a JSON fixture from test/fixtures/kinds/. */
export function fixture(name: string): Obj {
  return JSON.parse(readFileSync(new URL(`../../fixtures/kinds/${name}.json`, import.meta.url), 'utf8')) as Obj;
}

/**
 * Schema field paths (`spec.ports[].targetPort`) that `obj` never sets, looking through every
 * list item and map value; `skip` names paths (and their subtrees) to ignore.
 */
export function unsetFields(schema: Schema, obj: unknown, skip: string[] = []): string[] {
  const seen = new Set<string>();
  const all = new Set<string>();
  const visit = (s: Schema, v: unknown, path: string, stack: string[]): void => {
    if (s.type === 'struct') {
      if (stack.includes(s.id)) return;
      for (const [k, f] of Object.entries(structFields(s))) {
        const p = path ? `${path}.${k}` : k;
        if (skip.some((x) => p === x || p.startsWith(`${x}.`) || p.startsWith(`${x}[`))) continue;
        all.add(p);
        const child = v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj)[k] : undefined;
        if (child !== undefined) seen.add(p);
        visit(f.schema, child, p, [...stack, s.id]);
      }
    } else if (s.type === 'list') {
      const items = Array.isArray(v) ? v : [undefined];
      for (const item of items.length ? items : [undefined]) visit(s.items, item, `${path}[]`, stack);
    } else if (s.type === 'map') {
      const values = v && typeof v === 'object' ? Object.values(v as Obj) : [];
      for (const x of values.length ? values : [undefined]) visit(s.values, x, `${path}{}`, stack);
    }
  };
  visit(schema, obj, '', []);
  return [...all].filter((p) => !seen.has(p));
}
