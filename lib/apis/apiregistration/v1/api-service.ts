/**
 * apiregistration/v1 APIService (upstream v1.30 `k8s.io/kube-aggregator/pkg/apis/apiregistration/v1`:
 * field structure, JSON names and protobuf numbers — 6 is unused): a server for one API group
 * version, named `<version>.<group>` (`v1.` for the core group); `service` null means the server
 * itself serves it. Defaults as upstream `SetDefaults_ServiceReference` (port 443).
 * Cluster-scoped, category `api-extensions`, with a status subresource. The server creates one
 * for each group version it serves at start (lib/controllers/apiservice-registration).
 */
import { boolean, bytes, field, int32, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { apiServicePrinter } from '../../printers/admission.js';
import { vendorGroup } from '../../vendor.js';
import { validateAPIService, validateAPIServiceStatus } from './api-service-validation.js';

/** The API group of APIService. */
export const APIREGISTRATION_GROUP = vendorGroup('apiregistration');

const AREG = 'api.apiregistration.v1';

/** The Service behind an aggregated API; port defaults to 443. */
export const apiServiceReference = struct(`${AREG}.ServiceReference`, {
  namespace: field(1, string, { description: 'Namespace of the service.' }),
  name: field(2, string, { description: 'Name of the service.' }),
  port: field(3, int32, { default: 443, description: 'Port of the service (1-65535).' }),
});

/** Where an API group version is served and how it ranks in discovery. */
export const apiServiceSpec = struct(`${AREG}.APIServiceSpec`, {
  service: field(1, apiServiceReference, { omitEmpty: false, pointer: true, description: 'The service serving the API; null when this server serves it.' }),
  group: field(2, string, { description: 'The API group; empty only for the core group (version v1).' }),
  version: field(3, string, { description: 'The API version, e.g. v1.' }),
  insecureSkipTLSVerify: field(4, boolean, { description: 'Skip verifying the serving certificate (strongly discouraged).' }),
  caBundle: field(5, bytes, { description: "PEM CA bundle verifying the service's serving certificate." }),
  groupPriorityMinimum: field(7, int32, { required: true, omitEmpty: false, description: 'Least priority of the group in discovery (1-20000; higher first).' }),
  versionPriority: field(8, int32, { required: true, omitEmpty: false, description: 'Priority of the version within its group (1-1000; higher first).' }),
});

/** A condition of an APIService (Available). */
export const apiServiceCondition = struct(`${AREG}.APIServiceCondition`, {
  type: field(1, string, { required: true, omitEmpty: false, description: 'The condition type: Available.' }),
  status: field(2, string, { required: true, omitEmpty: false, description: 'True, False or Unknown.' }),
  lastTransitionTime: field(3, time, { omitEmpty: false, description: 'When the status last changed.' }),
  reason: field(4, string, { description: 'One-word CamelCase reason of the last transition.' }),
  message: field(5, string, { description: 'Human-readable details of the last transition.' }),
});

/** The observed state of an APIService. */
export const apiServiceStatus = struct(`${AREG}.APIServiceStatus`, {
  conditions: field(1, listOf(apiServiceCondition, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }), {
    description: 'The current conditions of the APIService.',
  }),
});

/** The APIService kind. */
export const apiService = defineKind({
  group: APIREGISTRATION_GROUP,
  version: 'v1',
  kind: 'APIService',
  resource: 'apiservices',
  singular: 'apiservice',
  namespaced: false,
  categories: ['api-extensions'],
  statusSubresource: true,
  nameRule: 'pathSegment',
  description: 'A server for one API group version: this server itself, or a service it proxies to.',
  printerColumns: apiServicePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, apiServiceSpec, { omitEmpty: false }),
    status: field(3, apiServiceStatus, { omitEmpty: false }),
  },
  validate: validateAPIService,
  validateStatusUpdate: validateAPIServiceStatus,
});
