import { expect } from 'chai';
import { structFields, type Schema } from '../../../../../lib/apimachinery/schema/types.js';
import { defaultPullPolicy } from '../../../../../lib/apis/core/v1/image-reference.js';
import { pod } from '../../../../../lib/apis/core/v1/workloads.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const c0 = (o: Obj): Obj => (spec(o).containers as Obj[])[0]!;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(pod, o);
  return o;
};

describe('core/v1 Pod: definition (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(pod).to.include({ group: '', version: 'v1', kind: 'Pod', resource: 'pods', singular: 'pod', namespaced: true, statusSubresource: true, nameRule: 'dns1123Subdomain' });
    expect(pod.shortNames).to.deep.equal(['po']);
    expect(pod.categories).to.deep.equal(['all']);
  });

  it('decodes a minimal pod, applies exactly the upstream defaults and validates clean', () => {
    const p = minimal();
    expect(decodeAndDefault(pod, p)).to.deep.equal({ unknownFields: [] });
    expect(p.spec).to.deep.equal({
      containers: [
        { name: 'web', image: 'nginx:1.25', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    });
    expect(messages(validateCreate(pod, p))).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(pod, fixture('pod'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(pod.schema, fixture('pod'))).to.deep.equal([]);
  });

  it('reports fields that are not in the v1.30 structure as unknown', () => {
    const p = variant(minimal(), (o) => {
      spec(o).resources = {};
      c0(o).restartPolicyRules = [];
    });
    expect(decodeAndDefault(pod, p).unknownFields).to.deep.equal(['spec.containers[0].restartPolicyRules', 'spec.resources']);
  });

  it('gives every field of every struct a distinct positive protobuf number', () => {
    const seen = new Set<string>();
    const check = (s: Schema): void => {
      if (s.type === 'list') return check(s.items);
      if (s.type === 'map') return check(s.values);
      if (s.type !== 'struct' || seen.has(s.id)) return;
      seen.add(s.id);
      const numbers = new Map<string, string>();
      for (const [name, f] of Object.entries(structFields(s))) {
        if (s.id === pod.schema.id && (name === 'apiVersion' || name === 'kind')) continue;
        expect(f.proto, `${s.id}.${name}`).to.be.greaterThan(0);
        const key = `${f.embedded?.proto ?? ''}/${f.proto}`;
        expect(numbers.get(key), `${s.id}.${name} reuses ${key}`).to.equal(undefined);
        numbers.set(key, name);
        check(f.schema);
      }
    };
    check(pod.schema);
    expect(seen.size).to.be.greaterThan(80);
  });
});

describe('core/v1 Pod: defaults (SetDefaults_Pod, SetDefaults_PodSpec, SetDefaults_Container…)', () => {
  const pullPolicies: [string, string][] = [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['registry.example.com:5000/team/app', 'Always'],
    ['registry.example.com:5000/team/app:v2', 'IfNotPresent'],
    ['nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
    ['nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'Always'],
    ['Not/A/Valid/IMAGE', 'IfNotPresent'],
  ];
  for (const [image, policy] of pullPolicies) {
    it(`defaults imagePullPolicy of ${image} to ${policy}`, () => {
      expect(defaultPullPolicy(image)).to.equal(policy);
      expect(c0(defaulted((o) => (c0(o).image = image))).imagePullPolicy).to.equal(policy);
    });
  }

  it('parses an image reference in time linear in its length (JavaScript\'s engine backtracked exponentially on letters and a `!`)', () => {
    // 24 letters took 281 ms, each letter more doubling it: 100,000 would never end.
    expect(defaultPullPolicy(`${'a'.repeat(100_000)}!`)).to.equal('IfNotPresent');
    expect(defaultPullPolicy(`${'a-'.repeat(50_000)}!`)).to.equal('IfNotPresent');
    expect(defaultPullPolicy(`${'a'.repeat(200)}:v1`)).to.equal('IfNotPresent');
    expect(defaultPullPolicy(`${'a'.repeat(200)}`)).to.equal('Always');
  });

  it('keeps an explicit pull policy', () => {
    expect(c0(defaulted((o) => (c0(o).imagePullPolicy = 'Never'))).imagePullPolicy).to.equal('Never');
  });

  it('copies limits into missing requests of pod containers and init containers, not of templates', () => {
    const p = defaulted((o) => {
      c0(o).resources = { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } };
      spec(o).initContainers = [{ name: 'init', image: 'busybox', resources: { limits: { memory: '64Mi' } } }];
    });
    expect(c0(p).resources).to.deep.equal({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    expect((spec(p).initContainers as Obj[])[0]!.resources).to.deep.equal({ limits: { memory: '64Mi' }, requests: { memory: '64Mi' } });
  });

  it('defaults host ports to container ports with host networking', () => {
    const p = defaulted((o) => {
      spec(o).hostNetwork = true;
      c0(o).ports = [{ containerPort: 8080 }, { containerPort: 9090, hostPort: 9090 }];
    });
    expect(c0(p).ports).to.deep.equal([
      { containerPort: 8080, protocol: 'TCP', hostPort: 8080 },
      { containerPort: 9090, hostPort: 9090, protocol: 'TCP' },
    ]);
  });

  it('defaults probes, HTTP actions and gRPC service', () => {
    const p = defaulted((o) => {
      c0(o).livenessProbe = { httpGet: { port: 8080 } };
      c0(o).readinessProbe = { grpc: { port: 9090 }, timeoutSeconds: 5 };
    });
    expect(c0(p).livenessProbe).to.deep.equal({ httpGet: { port: 8080, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c0(p).readinessProbe).to.deep.equal({ grpc: { port: 9090, service: '' }, timeoutSeconds: 5, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  });

  it('defaults volumes: emptyDir when no source, file modes 0644, token expiry, hostPath type, claim volume mode', () => {
    const p = defaulted((o) => {
      spec(o).volumes = [
        { name: 'scratch' },
        { name: 'cfg', configMap: { name: 'cfg' } },
        { name: 'sec', secret: { secretName: 'sec' } },
        { name: 'down', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
        { name: 'proj', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
        { name: 'host', hostPath: { path: '/var/log' } },
        { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
      ];
      spec(o).serviceAccountName = 'web';
    });
    expect(spec(p).volumes).to.deep.equal([
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      { name: 'sec', secret: { secretName: 'sec', defaultMode: 420 } },
      { name: 'down', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }], defaultMode: 420 } },
      { name: 'proj', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }], defaultMode: 420 } },
      { name: 'host', hostPath: { path: '/var/log', type: '' } },
      {
        name: 'eph',
        ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' } } },
      },
    ]);
    expect(messages(validateCreate(pod, p))).to.deep.equal([]);
  });

  it('defaults the downward API apiVersion of environment variables', () => {
    const p = defaulted((o) => (c0(o).env = [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }]));
    expect(c0(p).env).to.deep.equal([{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }]);
  });

  it('leaves priority, preemption policy and service account to admission', () => {
    const p = defaulted();
    for (const k of ['priority', 'preemptionPolicy', 'serviceAccountName', 'automountServiceAccountToken']) expect(spec(p)).not.to.have.property(k);
  });
});
