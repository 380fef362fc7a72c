/**
 * core/v1 ServiceAccount: an identity for processes in pods (upstream field structure and
 * protobuf numbers). Upstream validates only its ObjectMeta (DNS subdomain names), so the kind
 * declares no extra rules. spec 000 § Resources and their fields.
 */
import { boolean, field, listOf } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { localObjectReference, objectReference } from './references.js';
import { serviceAccountPrinter } from '../../printers/core.js';

/** The ServiceAccount kind: namespaced, DNS subdomain names. */
export const serviceAccount = defineKind({
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  description: 'An identity that processes running in pods authenticate as.',
  printerColumns: serviceAccountPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    secrets: field(
      2,
      listOf(objectReference, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] }),
      { description: 'Secrets in the same namespace that pods using this account may use.' },
    ),
    imagePullSecrets: field(3, listOf(localObjectReference, { listType: 'atomic' }), {
      description: 'Secrets used to pull images for pods using this account.',
    }),
    automountServiceAccountToken: field(4, boolean, { description: 'Whether pods mount an API token for this account by default.' }),
  },
});
