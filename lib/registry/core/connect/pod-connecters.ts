/**
 * The connect subresources of pods (upstream pod registry `LogREST`, `ExecREST`, `AttachREST`,
 * `PortForwardREST`, `ProxyREST`): `log`, `exec`, `attach` and `portforward` go to the kubelet of
 * the pod's node (`/containerLogs/<ns>/<pod>/<container>`, `/exec/…`, `/attach/…`,
 * `/portForward/<ns>/<pod>`, with the kubelet's query names `input`, `output`, `error`, `tty`,
 * `command`, `port`); `proxy` goes to the pod's IP. spec 000 § Verb mapping.
 */
import { newBadRequest } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { Store } from '../../generic/store.js';
import type { ConnectRequest, ConnectTarget, Connecter } from '../../rest/connecter.js';
import { type KubeletClientConfig, joinHostPort, kubeletEndpoint } from './kubelet-connection.js';
import { podLogOptions, podPortForwardOptions, podStreamOptions, proxyOptions } from './options.js';
import { splitSchemeNamePort } from './scheme-name-port.js';

/** Verbs discovery lists for exec, attach and portforward (GET and POST). */
export const STREAM_VERBS: readonly string[] = ['create', 'get'];
/** Verbs discovery lists for a proxy subresource. */
export const PROXY_VERBS: readonly string[] = ['create', 'delete', 'get', 'patch', 'update'];
/** Methods a proxy subresource serves (upstream's connect routes). */
export const PROXY_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Names of all containers of a pod, init containers first, then containers, then ephemeral ones (upstream VisitContainers). */
function containerNames(pod: Obj): string[] {
  const spec = (pod.spec ?? {}) as Obj;
  const names: string[] = [];
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of (spec[list] as Obj[] | undefined) ?? []) if (typeof c?.name === 'string') names.push(c.name);
  }
  return names;
}

/**
 * The container a request addresses (upstream validateContainer): the one named, which must be
 * one of the pod's; else the pod's only container.
 * @throws StatusError 400 `container <c> is not valid for pod <p>`, `a container name must be
 *   specified for pod <p>[, choose one of: [a b]]`.
 */
export function chooseContainer(pod: Obj, container: string, podName: string): string {
  if (container) {
    if (!containerNames(pod).includes(container)) throw newBadRequest(`container ${container} is not valid for pod ${podName}`);
    return container;
  }
  const containers = ((pod.spec as Obj | undefined)?.containers as Obj[] | undefined) ?? [];
  if (containers.length === 1) return containers[0]!.name as string;
  if (containers.length === 0) throw newBadRequest(`a container name must be specified for pod ${podName}`);
  throw newBadRequest(`a container name must be specified for pod ${podName}, choose one of: [${containerNames(pod).join(' ')}]`);
}

/** What the pod connecters read. */
export interface PodConnectDeps {
  pods: Store;
  nodes: Store;
  kubelet: KubeletClientConfig;
}

/** The node of a pod, or 400 `pod <name> does not have a host assigned`. */
function nodeOf(pod: Obj, podName: string): string {
  const node = (pod.spec as Obj | undefined)?.nodeName;
  if (typeof node !== 'string' || node === '') throw newBadRequest(`pod ${podName} does not have a host assigned`);
  return node;
}

/** The kubelet URL of `path` on the pod's node, with `params`. */
async function kubeletTarget(ctx: RequestContext, d: PodConnectDeps, nodeName: string, path: string, params: URLSearchParams, opts: Pick<ConnectTarget, 'upgradeRequired' | 'textStream'>, skipVerify = false): Promise<ConnectTarget> {
  const k = await kubeletEndpoint(ctx, d.nodes, d.kubelet, nodeName);
  const url = new URL(`https://${k.hostPort}${path}`);
  url.search = params.toString();
  return { url, tls: skipVerify ? { ...k.tls, verify: false } : k.tls, timeoutMs: k.timeoutMs, ...opts };
}

const seg = encodeURIComponent;

/** `pods/log`: GET only, no admission (upstream's GetterWithOptions); a pod without a node answers an empty log. */
function logConnecter(d: PodConnectDeps): Connecter {
  return {
    optionsKind: 'Pod',
    verbs: ['get'],
    methods: ['GET', 'HEAD'],
    admitted: false,
    takesPath: false,
    newOptions: (query, _path, name) => podLogOptions(query, name),
    async connect(ctx, r: ConnectRequest): Promise<ConnectTarget | null> {
      const opts = r.options;
      const pod = await d.pods.get(ctx, r.namespace, r.name);
      const container = chooseContainer(pod, (opts.container as string | undefined) ?? '', r.name);
      const nodeName = (pod.spec as Obj | undefined)?.nodeName;
      if (typeof nodeName !== 'string' || nodeName === '') return null;
      const params = new URLSearchParams();
      for (const b of ['follow', 'previous', 'timestamps']) if (opts[b] === true) params.set(b, 'true');
      for (const n of ['sinceSeconds', 'sinceTime', 'tailLines', 'limitBytes']) if (opts[n] !== undefined) params.set(n, String(opts[n]));
      const path = `/containerLogs/${seg(r.namespace)}/${seg(r.name)}/${seg(container)}`;
      return kubeletTarget(ctx, d, nodeName, path, params, { upgradeRequired: false, textStream: true }, opts.insecureSkipTLSVerifyBackend === true);
    },
  };
}

/** The kubelet's query of exec and attach (`input`, `output`, `error`, `tty` as `1`; repeated `command`). */
function streamParams(opts: Obj): URLSearchParams {
  const params = new URLSearchParams();
  const names: Record<string, string> = { stdin: 'input', stdout: 'output', stderr: 'error', tty: 'tty' };
  for (const [opt, param] of Object.entries(names)) if (opts[opt] === true) params.append(param, '1');
  for (const c of (opts.command as string[] | undefined) ?? []) params.append('command', c);
  return params;
}

/** `pods/exec` (`withCommand`) or `pods/attach`: an upgrade to the kubelet's `/exec` or `/attach`. */
function streamConnecter(d: PodConnectDeps, withCommand: boolean): Connecter {
  const sub = withCommand ? 'exec' : 'attach';
  return {
    optionsKind: withCommand ? 'PodExecOptions' : 'PodAttachOptions',
    verbs: STREAM_VERBS,
    methods: ['GET', 'POST'],
    admitted: true,
    takesPath: false,
    newOptions: (query) => podStreamOptions(query, withCommand),
    async connect(ctx, r) {
      const pod = await d.pods.get(ctx, r.namespace, r.name);
      const container = chooseContainer(pod, (r.options.container as string | undefined) ?? '', r.name);
      const path = `/${sub}/${seg(r.namespace)}/${seg(r.name)}/${seg(container)}`;
      return kubeletTarget(ctx, d, nodeOf(pod, r.name), path, streamParams(r.options), { upgradeRequired: true, textStream: false });
    },
  };
}

/** `pods/portforward`: an upgrade to the kubelet's `/portForward/<ns>/<pod>` (`port=<p1>,<p2>` when ports are named). */
function portForwardConnecter(d: PodConnectDeps): Connecter {
  return {
    optionsKind: 'PodPortForwardOptions',
    verbs: STREAM_VERBS,
    methods: ['GET', 'POST'],
    admitted: true,
    takesPath: false,
    newOptions: (query) => podPortForwardOptions(query),
    async connect(ctx, r) {
      const pod = await d.pods.get(ctx, r.namespace, r.name);
      const params = new URLSearchParams();
      const ports = (r.options.ports as number[] | undefined) ?? [];
      if (ports.length > 0) params.set('port', ports.join(','));
      return kubeletTarget(ctx, d, nodeOf(pod, r.name), `/portForward/${seg(r.namespace)}/${seg(r.name)}`, params, { upgradeRequired: true, textStream: false });
    },
  };
}

/** True for a global unicast address (Go's IP.IsGlobalUnicast): not loopback, link-local, multicast or unspecified. */
export function isGlobalUnicast(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (v4.slice(1).some((p) => Number(p) > 255)) return false;
    return !(a === 0 || a === 127 || (a === 169 && b === 254) || a >= 224);
  }
  const lower = ip.toLowerCase();
  if (!lower.includes(':')) return false;
  return !(lower === '::' || lower === '::1' || lower.startsWith('fe8') || lower.startsWith('fe9') || lower.startsWith('fea') || lower.startsWith('feb') || lower.startsWith('ff'));
}

/** `pods/proxy` (and `pods/proxy/<path>`): HTTP(S) to the pod's first IP on the named or first declared container port. */
function proxyConnecter(d: PodConnectDeps): Connecter {
  return {
    optionsKind: 'PodProxyOptions',
    verbs: PROXY_VERBS,
    methods: PROXY_METHODS,
    admitted: true,
    takesPath: true,
    newOptions: (_query, path) => proxyOptions('PodProxyOptions', path),
    async connect(ctx, r) {
      const parsed = splitSchemeNamePort(r.name);
      if (!parsed) throw newBadRequest(`invalid pod request ${JSON.stringify(r.name)}`);
      const pod = await d.pods.get(ctx, r.namespace, parsed.name);
      let port = parsed.port;
      if (port === '') {
        const withPorts = (((pod.spec as Obj | undefined)?.containers as Obj[] | undefined) ?? []).find((c) => ((c.ports as Obj[] | undefined) ?? []).length > 0);
        if (withPorts) port = String((withPorts.ports as Obj[])[0]!.containerPort);
      }
      const podIPs = ((pod.status as Obj | undefined)?.podIPs as Obj[] | undefined) ?? [];
      const ip = (podIPs[0]?.ip as string | undefined) ?? '';
      if (!isGlobalUnicast(ip)) throw newBadRequest('address not allowed');
      const host = port === '' ? (ip.includes(':') ? `[${ip}]` : ip) : joinHostPort(ip, port);
      const scheme = parsed.scheme === 'https' ? 'https' : 'http';
      const url = new URL(`${scheme}://${host}`);
      url.pathname = (r.options.path as string | undefined) ?? '/';
      return { url, tls: scheme === 'https' ? { verify: false } : undefined, upgradeRequired: false, textStream: false };
    },
  };
}

/** The connect subresources of pods by name: attach, exec, log, portforward, proxy. */
export function podConnecters(d: PodConnectDeps): Map<string, Connecter> {
  return new Map([
    ['attach', streamConnecter(d, false)],
    ['exec', streamConnecter(d, true)],
    ['log', logConnecter(d)],
    ['portforward', portForwardConnecter(d)],
    ['proxy', proxyConnecter(d)],
  ]);
}
