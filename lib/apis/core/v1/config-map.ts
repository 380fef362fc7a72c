/** core/v1 ConfigMap (upstream field structure and protobuf numbers). */
import { boolean, bytes, field, mapOf, string } from '../../../apimachinery/schema/builder.js';
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { defineKind, type Obj } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { validateConfigMapKeys, validateImmutableData } from './data-keys.js';
import { configMapPrinter } from '../../printers/core.js';

export const configMap = defineKind({
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  description: 'ConfigMap holds configuration data for pods to consume.',
  printerColumns: configMapPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    immutable: field(4, boolean),
    data: field(2, mapOf(string)),
    binaryData: field(3, mapOf(bytes)),
  },
  validate: (cm: Obj): FieldError[] => {
    const errs = validateConfigMapKeys(cm.data, FieldPath.of('data'));
    errs.push(...validateConfigMapKeys(cm.binaryData, FieldPath.of('binaryData')));
    const data = (cm.data ?? {}) as Obj;
    for (const k of Object.keys((cm.binaryData ?? {}) as Obj)) {
      if (k in data) errs.push(invalid(FieldPath.of('data').key(k), k, 'duplicate of key present in binaryData'));
    }
    return errs;
  },
  validateUpdate: (cm: Obj, old: Obj): FieldError[] => validateImmutableData(cm, old, ['data', 'binaryData']),
});
