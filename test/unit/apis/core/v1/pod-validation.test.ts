import { expect } from 'chai';
import { pod } from '../../../../../lib/apis/core/v1/workloads.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, messages, validateCreate } from '../../kind-pipeline.js';
import { NAME_PART } from '../../../apimachinery/label-messages.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const c0 = (o: Obj): Obj => (spec(o).containers as Obj[])[0]!;
const errorsOf = (mutate: (o: Obj) => void): string[] => {
  const o = minimal();
  mutate(o);
  decodeAndDefault(pod, o);
  return messages(validateCreate(pod, o));
};

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const ENV_MSG =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

describe('core/v1 Pod: validation on create (upstream ValidatePodCreate; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['containers are required', (o) => delete spec(o).containers, ['spec.containers: Required value']],
    ['an empty container list is not enough', (o) => (spec(o).containers = []), ['spec.containers: Required value']],
    ['container names are DNS labels', (o) => (c0(o).name = 'Web'), [`spec.containers[0].name: Invalid value: "Web": ${LABEL_MSG}`]],
    ['container names are required', (o) => delete c0(o).name, ['spec.containers[0].name: Required value']],
    ['container names are unique', (o) => (spec(o).containers = [c0(o), { name: 'web', image: 'busybox' }]), ['spec.containers[1].name: Duplicate value: "web"']],
    ['init and regular container names are unique together', (o) => (spec(o).initContainers = [{ name: 'web', image: 'busybox' }]), ['spec.initContainers[0].name: Duplicate value: "web"']],
    ['an image is required', (o) => (c0(o).image = ''), ['spec.containers[0].image: Required value']],
    ['a pod image has no surrounding whitespace', (o) => (c0(o).image = ' nginx'), ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace']],
    ['container ports are 1–65535', (o) => (c0(o).ports = [{ containerPort: 70000 }]), ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
    ['container port 0 counts as missing', (o) => (c0(o).ports = [{ containerPort: 0 }]), ['spec.containers[0].ports[0].containerPort: Required value']],
    ['container ports are required', (o) => (c0(o).ports = [{ name: 'http' }]), ['spec.containers[0].ports[0].containerPort: Required value']],
    ['port protocols are SCTP, TCP or UDP', (o) => (c0(o).ports = [{ containerPort: 80, protocol: 'tcp' }]), ['spec.containers[0].ports[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"']],
    ['port names are IANA service names', (o) => (c0(o).ports = [{ containerPort: 80, name: 'HTTP-' }]), [
      'spec.containers[0].ports[0].name: Invalid value: "HTTP-": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].ports[0].name: Invalid value: "HTTP-": must contain at least one letter (a-z)',
      'spec.containers[0].ports[0].name: Invalid value: "HTTP-": must not begin or end with a hyphen',
    ]],
    ['port names are unique within a container', (o) => (c0(o).ports = [{ containerPort: 80, name: 'http' }, { containerPort: 81, name: 'http' }]), ['spec.containers[0].ports[1].name: Duplicate value: "http"']],
    ['host ports are not shared between containers', (o) => {
      c0(o).ports = [{ containerPort: 80, hostPort: 8080 }];
      (spec(o).containers as Obj[]).push({ name: 'side', image: 'busybox', ports: [{ containerPort: 81, hostPort: 8080 }] });
    }, ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"']],
    ['environment variable names are C-like identifiers', (o) => (c0(o).env = [{ name: '1ST' }]), [`spec.containers[0].env[0].name: Invalid value: "1ST": ${ENV_MSG}`]],
    ['environment variable names may not be ..', (o) => (c0(o).env = [{ name: '..' }]), [`spec.containers[0].env[0].name: Invalid value: "..": must not be '..'`]],
    ['valueFrom needs a source', (o) => (c0(o).env = [{ name: 'A', valueFrom: {} }]), [
      'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ]],
    ['valueFrom excludes value', (o) => (c0(o).env = [{ name: 'A', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }]), [
      'spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ]],
    ['env fieldRef paths are the supported ones', (o) => (c0(o).env = [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.schedulerName' } } }]), [
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "spec.schedulerName": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
    ]],
    ['volume names are DNS labels and unique', (o) => (spec(o).volumes = [{ name: 'a_b', emptyDir: {} }, { name: 'x', emptyDir: {} }, { name: 'x', emptyDir: {} }]), [
      `spec.volumes[0].name: Invalid value: "a_b": ${LABEL_MSG}`,
      'spec.volumes[2].name: Duplicate value: "x"',
    ]],
    ['a volume has exactly one source', (o) => (spec(o).volumes = [{ name: 'x', emptyDir: {}, hostPath: { path: '/tmp' } }]), ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type']],
    ['file modes are at most 0777', (o) => (spec(o).volumes = [{ name: 'x', secret: { secretName: 's', defaultMode: 512 } }]), [
      'spec.volumes[0].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
    ]],
    ['ConfigMap volumes name their ConfigMap', (o) => (spec(o).volumes = [{ name: 'x', configMap: {} }]), ['spec.volumes[0].configMap.name: Required value']],
    ['projected key paths are relative without ..', (o) => (spec(o).volumes = [{ name: 'x', configMap: { name: 'c', items: [{ key: 'k', path: '../etc' }] } }]), [
      `spec.volumes[0].configMap.items[0].path: Invalid value: "../etc": must not contain '..'`,
    ]],
    ['volume mounts reference existing volumes', (o) => (c0(o).volumeMounts = [{ name: 'data', mountPath: '/data' }]), ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
    ['mount paths are unique', (o) => {
      spec(o).volumes = [{ name: 'd', emptyDir: {} }];
      c0(o).volumeMounts = [{ name: 'd', mountPath: '/d' }, { name: 'd', mountPath: '/d' }];
    }, ['spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique']],
    ['restart policy is Always, OnFailure or Never', (o) => (spec(o).restartPolicy = 'Sometimes'), ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
    ['DNS policy is one of the four', (o) => (spec(o).dnsPolicy = 'Cluster'), [
      'spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ]],
    ['DNS policy None needs dnsConfig', (o) => (spec(o).dnsPolicy = 'None'), ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
    ['requests may not exceed limits', (o) => (c0(o).resources = { limits: { cpu: '1' }, requests: { cpu: '1500m' } }), [
      'spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1',
    ]],
    ['quantities are not negative', (o) => (c0(o).resources = { requests: { memory: '-1Gi' } }), [
      'spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
    ]],
    ['quantities parse', (o) => (c0(o).resources = { requests: { memory: 'lots' } }), [
      "spec.containers[0].resources.requests[memory]: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ]],
    ['resource names are standard or qualified (requests defaulted from limits too)', (o) => (c0(o).resources = { limits: { gpu: '1' } }), [
      'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    ]],
    ['extended resources are whole and not overcommitted', (o) => (c0(o).resources = { limits: { 'example.com/gpu': '1' }, requests: { 'example.com/gpu': '500m' } }), [
      'spec.containers[0].resources.requests[example.com/gpu]: Invalid value: "500m": must be an integer',
      'spec.containers[0].resources.requests: Invalid value: "500m": must be equal to example.com/gpu limit of 1',
    ]],
    ['probe timings are not negative', (o) => (c0(o).readinessProbe = { exec: { command: ['true'] }, periodSeconds: -1 }), [
      'spec.containers[0].readinessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
    ]],
    ['liveness probes succeed once', (o) => (c0(o).livenessProbe = { tcpSocket: { port: 80 }, successThreshold: 2 }), [
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    ]],
    ['a probe has a handler', (o) => (c0(o).startupProbe = { periodSeconds: 5 }), ['spec.containers[0].startupProbe: Required value: must specify a handler type']],
    ['a probe has one handler', (o) => (c0(o).livenessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 80 } }), [
      'spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
    ]],
    ['probe ports are valid numbers or names', (o) => (c0(o).livenessProbe = { httpGet: { port: 'Web_Port' } }), [
      'spec.containers[0].livenessProbe.httpGet.port: Invalid value: "Web_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ]],
    ['regular init containers have no probes', (o) => (spec(o).initContainers = [{ name: 'init', image: 'busybox', readinessProbe: { exec: { command: ['true'] } } }]), [
      'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
    ]],
    ['only init containers have a restart policy', (o) => (c0(o).restartPolicy = 'Always'), ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']],
    ['user ids are 0–2147483647', (o) => (spec(o).securityContext = { runAsUser: -1 }), ['spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive']],
    ['Localhost seccomp profiles name the profile', (o) => (c0(o).securityContext = { seccompProfile: { type: 'Localhost' } }), [
      'spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
    ]],
    ['tolerations without key use Exists', (o) => (spec(o).tolerations = [{ operator: 'Equal', value: 'x' }]), [
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ]],
    ['required node affinity has terms', (o) => (spec(o).affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }), [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
    ]],
    ['pod affinity terms have a topology key', (o) => (spec(o).affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }] } }), [
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must be non-empty",
      `spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${NAME_PART}`,
    ]],
    ['spread constraints skew by at least one', (o) => (spec(o).topologySpreadConstraints = [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }]), [
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
    ]],
    ['active deadlines are positive', (o) => (spec(o).activeDeadlineSeconds = 0), ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
    ['node names are DNS subdomains', (o) => (spec(o).nodeName = 'Node_1'), [
      "spec.nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['ephemeral containers are added through their subresource, not on create', (o) => (spec(o).ephemeralContainers = [{ name: 'debug', image: 'busybox' }]), [
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
    ]],
    ['token projections need a service account', (o) => (spec(o).volumes = [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }]), [
      'spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set',
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
  }
});
