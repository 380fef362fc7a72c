/**
 * The CustomResourceDefinition kind of `apiextensions.<vendor>/v1` (upstream v1.30
 * `apiextensions-apiserver` `customresourcedefinitions`): cluster-scoped, with a `status`
 * subresource, short names `crd` and `crds`, category `api-extensions`, and upstream's default
 * Table (NAME, CREATED AT: upstream serves it with the default table convertor). Validation
 * needs the schema checks of lib/apiextensions, so the registry strategy runs it
 * (lib/registry/apiextensions/customresourcedefinition/strategy.ts), not the kind.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { APIEXTENSIONS_GROUP, crdSpec, crdStatus } from './types.js';

/** The CustomResourceDefinition kind. */
export const customResourceDefinition = defineKind({
  group: APIEXTENSIONS_GROUP,
  version: 'v1',
  kind: 'CustomResourceDefinition',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  statusSubresource: true,
  description: 'A new resource served by the API server, named <plural>.<group>.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, crdSpec, { required: true, omitEmpty: false, description: 'The resource the definition adds.' }),
    status: field(3, crdStatus, { omitEmpty: false, default: {}, description: 'The state of the definition, written by the server.' }),
  },
});
