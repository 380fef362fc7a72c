/**
 * The objects of the simulated cluster (issue #24 item 5): Nodes, their Leases, Pods bound to
 * them, with the sizes and fields real kubelets write (a Pod of about 2 KiB).
 */
import { NODE_LEASE_NAMESPACE, vendorGroup } from '../../../lib/apis/vendor.js';

/** API paths of the kinds the benchmark writes. */
export const PATHS = {
  namespaces: '/api/v1/namespaces',
  nodes: '/api/v1/nodes',
  pods: (ns: string) => `/api/v1/namespaces/${ns}/pods`,
  allPods: '/api/v1/pods',
  leases: `/apis/${vendorGroup('coordination')}/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`,
  serviceAccount: (ns: string) => `/api/v1/namespaces/${ns}/serviceaccounts/default`,
};

/** The label every object of the benchmark carries. */
const LABEL = 'scale-bench/run';

/** `now` as a metav1.MicroTime (six fractional digits). */
export function microTime(now = new Date()): string {
  return now.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** `now` as a metav1.Time (whole seconds). */
export function time(now = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The name of node `i`. */
export function nodeName(i: number): string {
  return `scale-node-${String(i).padStart(5, '0')}`;
}

/** The namespace of node `i`'s Pods (nodes are spread over `namespaces` namespaces). */
export function podNamespace(i: number, namespaces: number): string {
  return `scale-${i % namespaces}`;
}

/** A Namespace. */
export function namespace(name: string) {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [LABEL]: 'true' } } };
}

/** The Ready condition a kubelet heartbeats, at `now`. */
function readyCondition(now: Date) {
  return { type: 'Ready', status: 'True', lastHeartbeatTime: time(now), lastTransitionTime: time(now), reason: 'KubeletReady', message: 'kubelet is posting ready status' };
}

/** Node `i`, registered as a kubelet registers it. */
export function node(i: number) {
  const now = new Date();
  const resources = { cpu: '32', memory: '131921468Ki', pods: '110', 'ephemeral-storage': '507944048Ki' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeName(i), labels: { [LABEL]: 'true', 'scale-bench/zone': `zone-${i % 3}` } },
    spec: { podCIDR: `10.${(i >> 8) & 255}.${i & 255}.0/24` },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [readyCondition(now)],
      addresses: [
        { type: 'InternalIP', address: `172.${16 + ((i >> 16) & 15)}.${(i >> 8) & 255}.${i & 255}` },
        { type: 'Hostname', address: nodeName(i) },
      ],
      nodeInfo: { machineID: `m-${i}`, systemUUID: `u-${i}`, bootID: `b-${i}`, kernelVersion: '6.1.0', osImage: 'Debian GNU/Linux 12', containerRuntimeVersion: 'containerd://1.7.0', kubeletVersion: 'v1.30.0', kubeProxyVersion: 'v1.30.0', operatingSystem: 'linux', architecture: 'amd64' },
    },
  };
}

/** The merge patch of a node status heartbeat at `now`. */
export function nodeStatusPatch(now = new Date()) {
  return { status: { conditions: [readyCondition(now)] } };
}

/** Node `i`'s Lease, renewed `now`. */
export function lease(i: number, now = new Date()) {
  return {
    apiVersion: `${vendorGroup('coordination')}/v1`,
    kind: 'Lease',
    metadata: { name: nodeName(i), namespace: NODE_LEASE_NAMESPACE, labels: { [LABEL]: 'true' } },
    spec: { holderIdentity: nodeName(i), leaseDurationSeconds: 40, renewTime: microTime(now) },
  };
}

/** The name of Pod `j` of node `i`. */
export function podName(i: number, j: number): string {
  return `${nodeName(i)}-p${String(j).padStart(3, '0')}`;
}

/** Pod `j` of node `i`, bound to it (as the scheduler leaves it). */
export function pod(i: number, j: number, namespaces: number) {
  const app = `app-${(i * 31 + j) % 50}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(i, j),
      namespace: podNamespace(i, namespaces),
      labels: { [LABEL]: 'true', app, tier: j % 2 === 0 ? 'web' : 'worker', 'pod-template-hash': `h${(i + j) % 97}` },
      annotations: { 'scale-bench/revision': '1', 'scale-bench/owner': `${app}-deployment` },
    },
    spec: {
      nodeName: nodeName(i),
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 30,
      containers: [
        {
          name: 'app',
          image: `registry.example/${app}:1.${j % 10}.0`,
          args: ['--port=8080', '--log-level=info', `--shard=${j}`],
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'APP_NAME', value: app },
            { name: 'NODE', value: nodeName(i) },
            { name: 'POD_INDEX', value: String(j) },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
        },
      ],
    },
  };
}

/**
 * The merge patch of a kubelet's status update of Pod `j` of node `i` at `now`; `seq` numbers
 * the update, so that every update changes the Pod (times are stored to the second) and makes
 * an event its kubelet must see.
 */
export function podStatusPatch(i: number, j: number, seq: number, now = new Date()) {
  const t = time(now);
  return {
    status: {
      phase: 'Running',
      hostIP: `172.16.${(i >> 8) & 255}.${i & 255}`,
      podIP: `10.${(i >> 8) & 255}.${i & 255}.${1 + (j % 250)}`,
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: t, lastTransitionTime: t, message: `probe ${seq}` },
        { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: t },
      ],
    },
  };
}
