/**
 * Serving one stored kind in another version or group (issue #12): autoscaling/v1
 * HorizontalPodAutoscaler over autoscaling/v2 objects, `events.<vendor>/v1` Event over core/v1
 * Event objects. The served version is a kind of its own (KindDefinition: schema, defaults,
 * printer, field selectors, OpenAPI, protobuf); a VersionConversion maps its objects to and from
 * the stored kind, as upstream's conversion functions do through the internal version. The
 * endpoints apply it to request bodies, answers, lists, watch events, patches (applied in the
 * served version, then converted), field selectors and managed fields (lib/apis/group-alias.ts
 * composes it with the upstream-alias spelling).
 */
import { canonicalize } from '../apimachinery/schema/canonical.js';
import { applyDefaults } from '../apimachinery/schema/defaults.js';
import type { KindDefinition, Obj } from './define.js';

/** What a served version declares: its kinds and the two conversion functions. */
export interface VersionConversionSpec {
  /** The kind as stored. */
  storageKind: KindDefinition;
  /** The kind served. */
  servedKind: KindDefinition;
  /**
   * An object of `servedKind` (decoded and defaulted) as an object of `storageKind`. Returns a
   * new object and never modifies `obj`; type meta, defaults and canonical form are added by
   * defineVersionConversion.
   */
  toStorage(obj: Obj): Obj;
  /** A stored object as an object of `servedKind`; a new object, `obj` untouched. */
  toServed(obj: Obj): Obj;
  /**
   * Field-selector labels of the served kind whose storage label differs (upstream field label
   * conversion, `regarding.name` → `involvedObject.name`). Labels not listed are the same.
   */
  fieldLabels?: Readonly<Record<string, string>>;
}

/** A served version of a stored kind with its conversions (see VersionConversionSpec). */
export interface VersionConversion {
  readonly storageKind: KindDefinition;
  readonly servedKind: KindDefinition;
  /**
   * A decoded object of the served kind as the stored kind would hold it: converted, with the
   * stored kind's `apiVersion` and `kind`, its defaults (upstream defaults an object read from
   * storage in the storage version) and its canonical form. A new object; `obj` is not modified.
   */
  toStorage(obj: Obj): Obj;
  /** A stored object in the served kind: converted, with its type meta, in canonical form. A new object. */
  toServed(obj: Obj): Obj;
  /** The storage label of a served field-selector label. */
  fieldLabel(label: string): string;
}

/** Builds the VersionConversion of a spec: type meta, storage defaults and canonical forms around its functions. */
export function defineVersionConversion(spec: VersionConversionSpec): VersionConversion {
  const { storageKind, servedKind } = spec;
  const labels = spec.fieldLabels ?? {};
  return {
    storageKind,
    servedKind,
    toStorage(obj) {
      const out = spec.toStorage(obj);
      out.apiVersion = storageKind.apiVersion;
      out.kind = storageKind.kind;
      applyDefaults(storageKind.schema, out);
      return canonicalize(storageKind.schema, out);
    },
    toServed(obj) {
      const out = spec.toServed(obj);
      out.apiVersion = servedKind.apiVersion;
      out.kind = servedKind.kind;
      return canonicalize(servedKind.schema, out);
    },
    fieldLabel: (label) => labels[label] ?? label,
  };
}
