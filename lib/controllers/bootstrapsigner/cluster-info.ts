/**
 * The `cluster-info` ConfigMap of the public namespace (spec 001 § Bootstrap tokens): what a
 * joining client reads without credentials to learn where the server is and which CA to trust,
 * checked with the `jws-kubeconfig-<token-id>` signatures.
 */
import { PUBLIC_NAMESPACE } from '../../apis/vendor.js';

/** Namespace and name of the ConfigMap (upstream `kube-public/cluster-info`). */
export const CLUSTER_INFO_NAMESPACE = PUBLIC_NAMESPACE;
export const CLUSTER_INFO_NAME = 'cluster-info';
/** The data key of the kubeconfig document. */
export const KUBECONFIG_KEY = 'kubeconfig';
/** Prefix of the data keys holding the signatures: `jws-kubeconfig-<token-id>`. */
export const JWS_KEY_PREFIX = 'jws-kubeconfig-';

/**
 * The kubeconfig document of `cluster-info` as upstream kubeadm writes it (client-go's
 * serialization of a Config holding one unnamed cluster): the server URL and the CA bundle,
 * base64-encoded, and nothing else.
 */
export function clusterInfoKubeconfig(serverURL: string, caPem: string): string {
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${Buffer.from(caPem, 'utf8').toString('base64')}`,
    `    server: ${serverURL}`,
    '  name: ""',
    'contexts: null',
    'current-context: ""',
    'kind: Config',
    'preferences: {}',
    'users: null',
    '',
  ].join('\n');
}
