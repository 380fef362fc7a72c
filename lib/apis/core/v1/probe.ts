/**
 * core/v1 container health checks and lifecycle hooks: the actions (exec, httpGet, tcpSocket,
 * grpc, sleep), Probe and Lifecycle. Protobuf numbers and defaults as upstream v1.30
 * (`SetDefaults_Probe`, `SetDefaults_HTTPGetAction`, `+default` on GRPCAction.service).
 */
import { enumOf, field, int32, int64, intOrString, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { CORE, inlined } from './references.js';

/** Runs a command in the container. */
export const execAction = struct(`${CORE}.ExecAction`, {
  command: field(1, listOf(string, { listType: 'atomic' }), { description: 'Command line to execute (not run in a shell).' }),
});

/** One HTTP header sent by an HTTP probe. */
export const httpHeader = struct(`${CORE}.HTTPHeader`, {
  name: field(1, string, { required: true, omitEmpty: false }),
  value: field(2, string, { required: true, omitEmpty: false }),
});

/** An HTTP GET against the container; path `/` and scheme `HTTP` by default. */
export const httpGetAction = struct(`${CORE}.HTTPGetAction`, {
  path: field(1, string, { default: '/' }),
  port: field(2, intOrString, { required: true, omitEmpty: false, description: 'Port number or IANA name.' }),
  host: field(3, string),
  scheme: field(4, enumOf('HTTP', 'HTTPS'), { default: 'HTTP' }),
  httpHeaders: field(5, listOf(httpHeader, { listType: 'atomic' })),
});

/** Opens a TCP connection to the container. */
export const tcpSocketAction = struct(`${CORE}.TCPSocketAction`, {
  port: field(1, intOrString, { required: true, omitEmpty: false }),
  host: field(2, string),
});

/** A gRPC health check. */
export const grpcAction = struct(`${CORE}.GRPCAction`, {
  port: field(1, int32, { required: true, omitEmpty: false }),
  service: field(2, string, { default: '', omitEmpty: false, pointer: true }),
});

/** Sleeps for a number of seconds (lifecycle hooks only). */
export const sleepAction = struct(`${CORE}.SleepAction`, {
  seconds: field(1, int64, { required: true, omitEmpty: false }),
});

/** The action of a probe: exactly one of exec, httpGet, tcpSocket, grpc. */
export const probeHandler = struct(`${CORE}.ProbeHandler`, {
  exec: field(1, execAction),
  httpGet: field(2, httpGetAction),
  tcpSocket: field(3, tcpSocketAction),
  grpc: field(4, grpcAction),
});

/** A periodic health check of a container (liveness, readiness, startup). */
export const probe = struct(
  `${CORE}.Probe`,
  {
    ...inlined(1, probeHandler),
    initialDelaySeconds: field(2, int32),
    timeoutSeconds: field(3, int32, { default: 1 }),
    periodSeconds: field(4, int32, { default: 10 }),
    successThreshold: field(5, int32, { default: 1 }),
    failureThreshold: field(6, int32, { default: 3 }),
    terminationGracePeriodSeconds: field(7, int64),
  },
  { description: 'A periodic health check performed against a container.' },
);

/** The action of a lifecycle hook: exactly one of exec, httpGet, tcpSocket (kept for compatibility), sleep. */
export const lifecycleHandler = struct(`${CORE}.LifecycleHandler`, {
  exec: field(1, execAction),
  httpGet: field(2, httpGetAction),
  tcpSocket: field(3, tcpSocketAction),
  sleep: field(4, sleepAction),
});

/** Hooks run after a container starts and before it stops. */
export const lifecycle = struct(`${CORE}.Lifecycle`, {
  postStart: field(1, lifecycleHandler),
  preStop: field(2, lifecycleHandler),
});
