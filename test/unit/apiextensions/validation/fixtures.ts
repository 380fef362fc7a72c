/** Shared fixtures of the CRD validation tests: a valid definition and a recording hooks object. */
import type { FieldError, FieldPath } from '../../../../lib/apimachinery/field-errors.js';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import type { CRDValidationHooks, SchemaContext } from '../../../../lib/apiextensions/validation/hooks.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../../../lib/apiextensions/types.js';

/** A schema with a spec and a status. */
export const schema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { replicas: { type: 'integer' }, color: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
});

/** A valid single-version definition of `widgets.example.com`, as decoded and defaulted. */
export function crd(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema() } }],
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: ['v1'] },
  };
}

/** One recorded call of a hook. */
export type HookCall = { hook: 'schema'; path: string; ctx: SchemaContext; props: JSONSchemaProps } | { hook: 'jsonPath'; path: string; value: string };

/** Hooks that record their calls and answer with `schemaErrors` / `jsonPathErrors` (by path). */
export function recordingHooks(answers: { schema?: (path: FieldPath) => FieldError[]; jsonPath?: (path: FieldPath) => FieldError[] } = {}): CRDValidationHooks & { calls: HookCall[] } {
  const calls: HookCall[] = [];
  return {
    calls,
    schema(props, fldPath, ctx) {
      calls.push({ hook: 'schema', path: fldPath.toString(), ctx, props });
      return answers.schema?.(fldPath) ?? [];
    },
    jsonPath(value, fldPath) {
      calls.push({ hook: 'jsonPath', path: fldPath.toString(), value });
      return answers.jsonPath?.(fldPath) ?? [];
    },
  };
}

/** The errors as upstream prints them. */
export const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
