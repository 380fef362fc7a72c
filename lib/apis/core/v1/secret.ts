/**
 * core/v1 Secret: small pieces of sensitive data (upstream field structure and protobuf numbers).
 * spec 000 § Resources and their fields.
 */
import { boolean, bytes, field, mapOf, string } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { SECRET_TYPE } from './secret-types.js';
import { validateSecret, validateSecretUpdate } from './secret-validation.js';
import { byPath } from '../../field-selectors.js';
import { secretPrinter } from '../../printers/core.js';

/** The Secret kind: namespaced, DNS subdomain names. */
export const secret = defineKind({
  group: '',
  version: 'v1',
  kind: 'Secret',
  resource: 'secrets',
  singular: 'secret',
  namespaced: true,
  description: 'Sensitive key/value data of a given type, stored base64-encoded.',
  fieldSelectors: byPath('type'),
  printerColumns: secretPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    immutable: field(5, boolean, { description: 'When true, data and type can no longer change.' }),
    data: field(2, mapOf(bytes), { description: 'The secret values, base64-encoded in JSON.' }),
    stringData: field(4, mapOf(string), { description: 'Write-only plain-text values merged into data on write.' }),
    type: field(3, string, { default: SECRET_TYPE.opaque, description: 'Type used to check which keys the data must hold.' }),
  },
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
});
