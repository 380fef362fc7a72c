/**
 * `nodes/proxy` (and `nodes/proxy/<path>`; upstream node registry `ProxyREST` and
 * `ResourceLocation`): the request goes to the node's kubelet — HTTPS with the kubelet client
 * identity — when no port or the kubelet's port is named, otherwise to `<scheme>://<node
 * address>:<port>` (plain HTTP unless `https` is named, not verified). spec 000 § Verb mapping.
 */
import { newBadRequest } from '../../../apimachinery/errors.js';
import type { Store } from '../../generic/store.js';
import type { Connecter } from '../../rest/connecter.js';
import { type KubeletClientConfig, joinHostPort, kubeletPort, kubeletTLS, preferredNodeAddress } from './kubelet-connection.js';
import { proxyOptions } from './options.js';
import { PROXY_METHODS, PROXY_VERBS } from './pod-connecters.js';
import { splitSchemeNamePort } from './scheme-name-port.js';

/** The `proxy` connect subresource of nodes, reading Nodes from `nodes`. */
export function nodeProxyConnecter(nodes: Store, kubelet: KubeletClientConfig): Connecter {
  return {
    optionsKind: 'NodeProxyOptions',
    verbs: PROXY_VERBS,
    methods: PROXY_METHODS,
    admitted: true,
    takesPath: true,
    newOptions: (_query, path) => proxyOptions('NodeProxyOptions', path),
    async connect(ctx, r) {
      const parsed = splitSchemeNamePort(r.name);
      if (!parsed) throw newBadRequest(`invalid node request ${JSON.stringify(r.name)}`);
      const node = await nodes.get(ctx, '', parsed.name);
      const host = preferredNodeAddress(node, kubelet.preferredAddressTypes);
      const kubeletAt = kubeletPort(node);
      const toKubelet = parsed.port === '' || parsed.port === String(kubeletAt);
      const scheme = toKubelet ? 'https' : parsed.scheme === 'https' ? 'https' : 'http';
      const url = new URL(`${scheme}://${joinHostPort(host, toKubelet ? kubeletAt : parsed.port)}`);
      url.pathname = (r.options.path as string | undefined) ?? '/';
      if (!toKubelet) return { url, tls: scheme === 'https' ? { verify: false } : undefined, upgradeRequired: false, textStream: false };
      return { url, tls: kubeletTLS(kubelet), timeoutMs: kubelet.timeoutMs, upgradeRequired: false, textStream: false };
    },
  };
}
