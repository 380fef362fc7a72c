/**
 * The connect capability (upstream `rest.Connecter`, and the streaming getter of `pods/log`): a
 * subresource whose request is not stored but proxied to another server — the node's kubelet
 * (`pods/log`, `pods/exec`, `pods/attach`, `pods/portforward`, `nodes/proxy`), a pod's or a
 * service endpoint's address (`pods/proxy`, `services/proxy`). spec 000 § Verb mapping, § What
 * the service does (admission runs on "custom actions such as proxying a connection to a Pod").
 */
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';

/** TLS of the connection to the target: client certificate and trust (absent: plain HTTP). */
export interface TargetTLS {
  /** PEM client certificate and key presented to the target (the kubelet client identity). */
  cert?: string;
  key?: string;
  /** PEM CAs the target's serving certificate must chain to; absent with `verify` false: not checked. */
  ca?: string;
  /** Whether the target's certificate is verified (false: upstream's InsecureSkipVerify). */
  verify: boolean;
}

/** Where one connect request goes. */
export interface ConnectTarget {
  /** The full URL (scheme, host, port, path and query) the request is sent to. */
  url: URL;
  tls?: TargetTLS;
  /** Dial and response-header timeout in milliseconds (`--kubelet-timeout`); absent: none. */
  timeoutMs?: number;
  /** Only an HTTP upgrade (WebSocket, SPDY) may go through: exec, attach, portforward. */
  upgradeRequired: boolean;
  /**
   * A streamed plain-text answer (`pods/log`): the body is written as `text/plain` whatever the
   * target's content type, flushed as it arrives; a target's error status becomes a Status.
   */
  textStream: boolean;
}

/** What one connect request names. */
export interface ConnectRequest {
  /** The request's namespace ('' for a cluster-scoped kind). */
  namespace: string;
  /** The object's name as it appears in the path (`name`, or `scheme:name:port` for proxies). */
  name: string;
  /** The decoded options object (newOptions). */
  options: Obj;
}

/** A connect subresource. */
export interface Connecter {
  /** The kind of the options object (`PodExecOptions`…; `Pod` for `pods/log`, as upstream's discovery lists it). */
  readonly optionsKind: string;
  /** The verbs discovery lists (`get`; `create`, `get`; or the proxy's five). */
  readonly verbs: readonly string[];
  /** The HTTP methods served; another is 405. */
  readonly methods: readonly string[];
  /** Whether CONNECT admission runs (every Connecter; not `pods/log`, upstream's GetterWithOptions). */
  readonly admitted: boolean;
  /** Whether a path may follow the subresource (`…/proxy/<path>`), which goes into the options' `path`. */
  readonly takesPath: boolean;
  /**
   * Decodes the query (and, for proxies, the path after the subresource) into the options object
   * (`{kind, apiVersion: 'v1', …}`) with upstream's query parameter names.
   * `name` is the object's name in the path (named in a 422).
   * @throws StatusError 400 for a malformed parameter, 422 for invalid options.
   */
  newOptions(query: URLSearchParams, path: string, name: string): Obj;
  /**
   * Resolves the target of one request: reads the object (and its node or endpoints), checks the
   * options against it. null: nothing to connect to, answered with an empty body (the log of a
   * pod not yet scheduled, as upstream's streamer without a location).
   * @throws StatusError 404 (object, node), 400 (no container named, unscheduled pod, bad name),
   *   422 (invalid options), 503 (no endpoints).
   */
  connect(ctx: RequestContext, req: ConnectRequest): Promise<ConnectTarget | null>;
}
