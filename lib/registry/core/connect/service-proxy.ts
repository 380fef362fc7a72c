/**
 * `services/proxy` (and `services/proxy/<path>`; upstream service registry `ResourceLocation`):
 * the request goes to one ready address of the Service's Endpoints that serves the named port —
 * a port number is first turned into the name of the Service port with that number — chosen at
 * random; the address must belong to the Pod its `targetRef` names. spec 000 § Verb mapping.
 */
import { newBadRequest, newServiceUnavailable } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { Store } from '../../generic/store.js';
import type { Connecter } from '../../rest/connecter.js';
import { joinHostPort } from './kubelet-connection.js';
import { proxyOptions } from './options.js';
import { PROXY_METHODS, PROXY_VERBS } from './pod-connecters.js';
import { splitSchemeNamePort } from './scheme-name-port.js';

/** What the service proxy reads. */
export interface ServiceProxyDeps {
  services: Store;
  endpoints: Store;
  pods: Store;
}

/** Whether `addr` names, through its `targetRef`, a Pod of `namespace` that has its IP (upstream isValidAddress). */
async function isValidAddress(ctx: RequestContext, pods: Store, namespace: string, addr: Obj): Promise<boolean> {
  const ref = addr.targetRef as Obj | undefined;
  if (!ref || ref.kind !== 'Pod' || typeof ref.name !== 'string') return false;
  const pod = await pods.get(ctx, (ref.namespace as string | undefined) || namespace, ref.name).catch(() => undefined);
  if (!pod) return false;
  const ips = (((pod.status as Obj | undefined)?.podIPs as Obj[] | undefined) ?? []).map((p) => p.ip);
  return ips.includes(addr.ip);
}

/** Rotates `items` to start at a random index. */
function fromRandom<T>(items: readonly T[]): T[] {
  const start = Math.floor(Math.random() * items.length);
  return [...items.slice(start), ...items.slice(0, start)];
}

/** The `proxy` connect subresource of services. */
export function serviceProxyConnecter(d: ServiceProxyDeps): Connecter {
  return {
    optionsKind: 'ServiceProxyOptions',
    verbs: PROXY_VERBS,
    methods: PROXY_METHODS,
    admitted: true,
    takesPath: true,
    newOptions: (_query, path) => proxyOptions('ServiceProxyOptions', path),
    async connect(ctx, r) {
      const parsed = splitSchemeNamePort(r.name);
      if (!parsed) throw newBadRequest(`invalid service request ${JSON.stringify(r.name)}`);
      let portName = parsed.port;
      if (/^[+-]?\d+$/.test(portName)) {
        const svc = await d.services.get(ctx, r.namespace, parsed.name);
        const found = (((svc.spec as Obj | undefined)?.ports as Obj[] | undefined) ?? []).find((p) => p.port === Number(portName));
        if (!found) throw newServiceUnavailable(`no service port ${Number(portName)} found for service ${JSON.stringify(parsed.name)}`);
        portName = (found.name as string | undefined) ?? '';
      }
      const eps = await d.endpoints.get(ctx, r.namespace, parsed.name);
      const subsets = (eps.subsets as Obj[] | undefined) ?? [];
      if (subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(parsed.name)}`);
      for (const ss of fromRandom(subsets)) {
        const addresses = (ss.addresses as Obj[] | undefined) ?? [];
        if (addresses.length === 0) continue;
        for (const port of (ss.ports as Obj[] | undefined) ?? []) {
          if (((port.name as string | undefined) ?? '') !== portName) continue;
          for (const addr of fromRandom(addresses)) {
            if (!(await isValidAddress(ctx, d.pods, r.namespace, addr))) continue;
            const scheme = parsed.scheme === 'https' ? 'https' : 'http';
            const url = new URL(`${scheme}://${joinHostPort(addr.ip as string, port.port as number)}`);
            url.pathname = (r.options.path as string | undefined) ?? '/';
            return { url, tls: scheme === 'https' ? { verify: false } : undefined, upgradeRequired: false, textStream: false };
          }
        }
      }
      throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(r.name)}`);
    },
  };
}
