/**
 * The strategy of custom resources (issue #14; upstream's custom resource strategy): generation
 * 1 on create and bumped when anything but metadata (and status, with the status subresource)
 * changes; status dropped on create and carried over on main writes when the version has the
 * status subresource; validation of ObjectMeta (names are DNS subdomains), then the version's
 * structural schema and expression rules (lib/apiextensions/custom-kind.ts), ratcheting on update.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import type { FieldError } from '../../../apimachinery/field-errors.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.js';
import type { Obj } from '../../../apis/define.js';
import type { CustomResourceVersion } from '../../../apiextensions/custom-kind.js';
import { addWarning, type RequestContext } from '../../../request/context.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import { metaOf } from '../../generic/object-meta.js';
import type { Strategy } from '../../rest/strategy.js';

type Meta = Record<string, unknown>;

/** The object without metadata (and without status when `withoutStatus`): what generation tracks. */
function content(o: Obj, withoutStatus: boolean): Obj {
  const { metadata: _m, status, ...rest } = o;
  return withoutStatus ? rest : { ...rest, status };
}

/** The version's validation: field errors returned, rule warnings added to the request. */
function checked(ctx: RequestContext, v: CustomResourceVersion, obj: Obj, old?: Obj, statusWrite = false): FieldError[] {
  const { errors, warnings } = v.validate(obj, old, statusWrite);
  for (const w of warnings) addWarning(ctx, w);
  return errors;
}

/**
 * The main strategy of one served version `v` of a custom resource (its kind: group, resource,
 * scope and kind name are those of every version; field selectors the version's own).
 */
export function newCustomResourceStrategy(v: CustomResourceVersion): Strategy {
  const statusEnabled = v.statusEnabled;
  const namespaced = v.kind.namespaced;
  return newKindStrategy(
    v.kind,
    {},
    {
      prepareForCreate(_ctx: RequestContext, obj: Obj): void {
        if (statusEnabled) delete obj.status;
        metaOf(obj).generation = 1;
      },
      validate: (ctx: RequestContext, obj: Obj): FieldError[] => [...validateObjectMeta(obj.metadata as Meta | undefined, namespaced, 'dns1123Subdomain'), ...checked(ctx, v, obj)],
      prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
        if (statusEnabled) {
          if (old.status === undefined) delete obj.status;
          else obj.status = old.status;
        }
        const oldGen = (metaOf(old).generation as number | undefined) ?? 1;
        metaOf(obj).generation = deepEqual(content(obj, statusEnabled), content(old, statusEnabled)) ? oldGen : oldGen + 1;
      },
      validateUpdate: (ctx: RequestContext, obj: Obj, old: Obj): FieldError[] => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...checked(ctx, v, obj, old)],
    },
  );
}

/**
 * The `status` subresource's strategy: only `status` changes (newStatusStrategy), and the whole
 * object is validated with ratcheting, as upstream's status strategy validates it.
 */
export function newCustomResourceStatusStrategy(main: Strategy, v: CustomResourceVersion): Strategy {
  return newStatusStrategy(main, {
    validateUpdate: (ctx: RequestContext, obj: Obj, old: Obj): FieldError[] => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...checked(ctx, v, obj, old, true)],
  });
}
