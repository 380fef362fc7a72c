/** A small kind-shaped schema exercising every node type, for the schema unit tests. */
import {
  boolean,
  bytes,
  duration,
  enumOf,
  field,
  float64,
  int32,
  int64,
  intOrString,
  listOf,
  mapOf,
  microTime,
  quantity,
  raw,
  string,
  stringWith,
  struct,
  time,
} from '../../../../lib/apimachinery/schema/builder.js';
import type { StructSchema } from '../../../../lib/apimachinery/schema/types.js';

export const port = struct('api.core.v1.ContainerPort', {
  name: field(1, string),
  containerPort: field(3, int32, { required: true }),
  protocol: field(4, enumOf('TCP', 'UDP', 'SCTP'), { default: 'TCP' }),
});

export const container = struct('api.core.v1.Container', {
  name: field(1, string, { required: true }),
  command: field(3, listOf(string)),
  ports: field(6, listOf(port, { patchMergeKey: 'containerPort', patchStrategy: 'merge', maxItems: 3 })),
  env: field(7, mapOf(string)),
  limits: field(8, mapOf(quantity)),
});

export const spec = struct('api.core.v1.WidgetSpec', {
  replicas: field(1, { ...int32, minimum: 0, maximum: 10 }),
  size: field(2, int64),
  ratio: field(3, float64),
  enabled: field(4, boolean),
  payload: field(5, bytes),
  started: field(6, time),
  renewed: field(7, microTime),
  timeout: field(8, duration),
  target: field(9, intOrString),
  extra: field(10, raw),
  mode: field(11, enumOf('Fast', 'Slow')),
  label: field(12, stringWith({ maxLength: 5 })),
  containers: field(13, listOf(container)),
  nullableNote: field(14, { type: 'string', nullable: true }),
});

export const meta = struct('apimachinery.pkg.apis.meta.v1.ObjectMeta', {
  name: field(1, string),
  labels: field(11, mapOf(string)),
  creationTimestamp: field(8, time),
});

export const widget: StructSchema = struct('api.core.v1.Widget', {
  apiVersion: field(0, string),
  kind: field(0, string),
  metadata: field(1, meta),
  spec: field(2, spec, { required: true }),
});
