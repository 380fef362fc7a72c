import { expect } from 'chai';
import { SERVER_NAME } from '../../../lib/apis/vendor.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readAdmissionConfigFile } from '../../../lib/admission/config-file.js';
import { parsePolicy } from '../../../lib/audit/policy.js';
import { parseServerFlags } from '../../../lib/server/options/flags.js';
import { formatStream } from '../../../hack/helm-render/chart.js';
import { CHART_DIR, findObject, OVERRIDES, renderTestChart, type ChartObject } from '../../framework/chart.js';

const NS = 'ops';
const FULL = `demo-${SERVER_NAME}`;
const ETCD = `${FULL}-etcd`;
const PEER = `${ETCD}-peer`;

/** The API server container of the rendered Deployment. */
function apiserverContainer(objects: ChartObject[]) {
  return findObject(objects, 'Deployment', FULL).spec.template.spec.containers[0];
}

/** The value of `--name=` among args (the last occurrence), or undefined. */
function flag(args: string[], name: string): string | undefined {
  return args.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3)).pop();
}

/** Every key/value of `selector` is among `labels`. */
function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

describe('Helm chart (manifests/): rendering', function () {
  describe('with the default values', () => {
    const { objects, rendered } = renderTestChart({}, NS);

    it('renders the expected kinds and names in Helm install order', () => {
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).to.deep.equal([
        `PodDisruptionBudget/${FULL}`,
        `PodDisruptionBudget/${ETCD}`,
        `ServiceAccount/${FULL}`,
        `ClusterRole/${NS}-${FULL}`,
        `ClusterRoleBinding/${NS}-${FULL}`,
        `Role/${FULL}`,
        `RoleBinding/${FULL}`,
        `Service/${PEER}`,
        `Service/${ETCD}`,
        `Service/${FULL}`,
        `Deployment/${FULL}`,
        `StatefulSet/${ETCD}`,
      ]);
      for (const o of objects) {
        expect(o.metadata.labels, `${o.kind}/${o.metadata.name}`).to.include({ 'app.kubernetes.io/instance': 'demo', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': SERVER_NAME });
        if (!o.kind.startsWith('Cluster')) expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).to.equal(NS);
      }
      expect(formatStream(rendered).startsWith(`---\n# Source: ${SERVER_NAME}/templates/poddisruptionbudget.yaml\napiVersion: policy/v1\n`)).to.equal(true);
    });

    it('selectors match their pods: Deployment, StatefulSet, Services and PodDisruptionBudgets', () => {
      const deploy = findObject(objects, 'Deployment');
      const sts = findObject(objects, 'StatefulSet');
      const apiPods = deploy.spec.template.metadata.labels;
      const etcdPods = sts.spec.template.metadata.labels;
      expect(selects(deploy.spec.selector.matchLabels, apiPods)).to.equal(true);
      expect(selects(sts.spec.selector.matchLabels, etcdPods)).to.equal(true);
      expect(selects(findObject(objects, 'Service', FULL).spec.selector, apiPods)).to.equal(true);
      expect(selects(findObject(objects, 'Service', FULL).spec.selector, etcdPods)).to.equal(false);
      expect(selects(findObject(objects, 'Service', PEER).spec.selector, etcdPods)).to.equal(true);
      expect(selects(findObject(objects, 'Service', ETCD).spec.selector, etcdPods)).to.equal(true);
      expect(selects(findObject(objects, 'PodDisruptionBudget', FULL).spec.selector.matchLabels, apiPods)).to.equal(true);
      expect(selects(findObject(objects, 'PodDisruptionBudget', ETCD).spec.selector.matchLabels, etcdPods)).to.equal(true);
      const anti = deploy.spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm;
      expect(selects(anti.labelSelector.matchLabels, apiPods)).to.equal(true);
      expect(anti.topologyKey).to.equal('kubernetes.io/hostname');
    });

    it('the API server Deployment: replicas, probes, graceful termination that drops no request', () => {
      const deploy = findObject(objects, 'Deployment');
      const pod = deploy.spec.template.spec;
      const c = apiserverContainer(objects);
      expect(deploy.spec.replicas).to.equal(2);
      expect(deploy.spec.strategy.rollingUpdate).to.deep.equal({ maxSurge: 1, maxUnavailable: 0 });
      expect(c.readinessProbe.httpGet).to.deep.equal({ scheme: 'HTTPS', path: '/readyz', port: 'https' });
      expect(c.livenessProbe.httpGet).to.deep.equal({ scheme: 'HTTPS', path: '/livez', port: 'https' });
      expect(c.startupProbe.httpGet.path).to.equal('/livez');
      expect(c.ports).to.deep.equal([{ name: 'https', containerPort: 6443, protocol: 'TCP' }]);
      expect(c.lifecycle.preStop.exec.command).to.deep.equal(['sleep', '5']);
      expect(flag(c.args, 'shutdown-delay-duration')).to.equal('15s');
      // preStop 5 s + shutdown delay 15 s + drain 65 s (longer than the 60 s request timeout).
      expect(pod.terminationGracePeriodSeconds).to.equal(85);
      // Readiness notices the failing /readyz well within the shutdown delay.
      expect(c.readinessProbe.periodSeconds * c.readinessProbe.failureThreshold).to.be.below(15);
      expect(c.resources.requests).to.deep.equal({ cpu: '250m', memory: '512Mi' });
    });

    it('the API server reaches every etcd member over TLS with the mounted client certificate', () => {
      const c = apiserverContainer(objects);
      const pod = findObject(objects, 'Deployment').spec.template.spec;
      expect(flag(c.args, 'etcd-servers')!.split(',')).to.deep.equal([0, 1, 2].map((i) => `https://${ETCD}-${i}.${PEER}.${NS}.svc.cluster.local:2379`));
      expect(flag(c.args, 'etcd-cafile')).to.equal('/etc/apiserver/pki/etcd/ca.crt');
      expect(flag(c.args, 'etcd-certfile')).to.equal('/etc/apiserver/pki/etcd/apiserver-etcd-client.crt');
      expect(flag(c.args, 'etcd-keyfile')).to.equal('/etc/apiserver/pki/etcd/apiserver-etcd-client.key');
      expect(flag(c.args, 'tls-cert-file')).to.equal('/etc/apiserver/pki/apiserver.crt');
      expect(flag(c.args, 'client-ca-file')).to.equal('/etc/apiserver/pki/ca.crt');
      const volumes = Object.fromEntries(pod.volumes.map((v: { name: string }) => [v.name, v]));
      expect(volumes.pki.secret.secretName).to.equal(`${FULL}-pki`);
      expect(volumes.pki.secret.defaultMode).to.equal(0o440);
      expect(volumes['etcd-pki'].secret.secretName).to.equal(`${ETCD}-pki`);
      expect(c.volumeMounts.map((m: { mountPath: string }) => m.mountPath)).to.include.members(['/etc/apiserver/pki', '/etc/apiserver/pki/etcd']);
    });

    it('the etcd StatefulSet: 3 members with peer and client TLS, a headless Service and volume claims', () => {
      const sts = findObject(objects, 'StatefulSet');
      const c = sts.spec.template.spec.containers[0];
      expect(sts.spec.replicas).to.equal(3);
      expect(sts.spec.serviceName).to.equal(PEER);
      expect(sts.spec.podManagementPolicy).to.equal('Parallel');
      const headless = findObject(objects, 'Service', PEER);
      expect(headless.spec.clusterIP).to.equal('None');
      expect(headless.spec.publishNotReadyAddresses).to.equal(true);
      expect(flag(c.args, 'initial-cluster')!.split(',')).to.deep.equal([0, 1, 2].map((i) => `${ETCD}-${i}=https://${ETCD}-${i}.${PEER}.${NS}.svc.cluster.local:2380`));
      expect(flag(c.args, 'initial-advertise-peer-urls')).to.equal(`https://$(POD_NAME).${PEER}.${NS}.svc.cluster.local:2380`);
      for (const f of ['client-cert-auth', 'peer-client-cert-auth']) expect(flag(c.args, f)).to.equal('true');
      for (const f of ['trusted-ca-file', 'cert-file', 'key-file', 'peer-trusted-ca-file', 'peer-cert-file', 'peer-key-file']) expect(flag(c.args, f)).to.match(/^\/etc\/etcd\/pki\//);
      expect(sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage).to.equal('8Gi');
      expect(c.volumeMounts.find((m: { name: string }) => m.name === 'data').mountPath).to.equal('/var/lib/etcd');
      expect(findObject(objects, 'PodDisruptionBudget', ETCD).spec.maxUnavailable).to.equal(1);
    });

    it('the Service is ClusterIP on 443 to the https port; RBAC binds the server\'s ServiceAccount', () => {
      const svc = findObject(objects, 'Service', FULL);
      expect(svc.spec.type).to.equal('ClusterIP');
      expect(svc.spec.ports).to.deep.equal([{ name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' }]);
      expect(findObject(objects, 'Deployment').spec.template.spec.serviceAccountName).to.equal(FULL);
      expect(findObject(objects, 'RoleBinding').subjects).to.deep.equal([{ kind: 'ServiceAccount', name: FULL, namespace: NS }]);
      expect(findObject(objects, 'ClusterRoleBinding').roleRef).to.deep.equal({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${NS}-${FULL}` });
      expect(findObject(objects, 'Role').rules[0].resourceNames).to.deep.equal([`${FULL}-pki`, `${ETCD}-pki`]);
    });

    it('the container args are a command line the server accepts', () => {
      const args = (apiserverContainer(objects).args as string[]).map((a) => a.replace('$(POD_IP)', '10.1.2.3'));
      const o = parseServerFlags(args);
      expect(o.etcdServers).to.have.length(3);
      expect(o.shutdownDelayMs).to.equal(15_000);
      expect(o.authorization.modes).to.deep.equal(['Node', 'RBAC']);
    });

    it('NOTES.txt names the Secrets to create and how to reach the API', () => {
      expect(rendered.notes).to.include(`${FULL}-pki: ca.crt, apiserver.crt, apiserver.key, sa.key, sa.pub`);
      expect(rendered.notes).to.include(`kubectl -n ${NS} port-forward service/${FULL} 6443:443`);
    });
  });

  describe('with overrides: 3 replicas, audit on, OIDC on, a LoadBalancer', () => {
    const { objects } = renderTestChart(OVERRIDES, NS);
    const args = (): string[] => apiserverContainer(objects).args;

    it('3 replicas, strictly spread over nodes', () => {
      const deploy = findObject(objects, 'Deployment');
      expect(deploy.spec.replicas).to.equal(3);
      const term = deploy.spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0];
      expect(selects(term.labelSelector.matchLabels, deploy.spec.template.metadata.labels)).to.equal(true);
    });

    it('audit: the policy ConfigMap, mounted, and the --audit-* flags', () => {
      const cm = findObject(objects, 'ConfigMap', `${FULL}-audit-policy`);
      // The server's own policy reader accepts it.
      const policy = parsePolicy(cm.data['policy.yaml']);
      expect(policy.omitStages).to.deep.equal(['RequestReceived']);
      expect(policy.rules.map((r) => r.level)).to.deep.equal(['None', 'Metadata']);
      expect(policy.rules[0]!.nonResourceURLs).to.deep.equal(['/livez', '/readyz', '/healthz']);
      expect(flag(args(), 'audit-policy-file')).to.equal('/etc/apiserver/audit/policy.yaml');
      expect([flag(args(), 'audit-log-path'), flag(args(), 'audit-log-format'), flag(args(), 'audit-log-maxage'), flag(args(), 'audit-log-maxbackup'), flag(args(), 'audit-log-maxsize')]).to.deep.equal(['-', 'json', '7', '3', '100']);
      const pod = findObject(objects, 'Deployment').spec.template.spec;
      expect(pod.volumes.find((v: { name: string }) => v.name === 'audit-policy').configMap.name).to.equal(`${FULL}-audit-policy`);
    });

    it('OIDC, admission and extra flags', async () => {
      expect(flag(args(), 'oidc-issuer-url')).to.equal('https://issuer.example.com');
      expect(flag(args(), 'oidc-client-id')).to.equal('cluster-clients');
      expect(flag(args(), 'oidc-required-claim')).to.equal('hd=example.com');
      expect(flag(args(), 'oidc-groups-prefix')).to.equal('oidc:');
      expect(flag(args(), 'oidc-ca-file')).to.equal('/etc/apiserver/config/oidc-ca.crt');
      expect(flag(args(), 'enable-admission-plugins')).to.equal('AlwaysPullImages');
      expect(flag(args(), 'disable-admission-plugins')).to.equal('DefaultStorageClass');
      expect(flag(args(), 'admission-control-config-file')).to.equal('/etc/apiserver/config/admission.yaml');
      expect(flag(args(), 'livez-grace-period')).to.equal('30s');
      const cm = findObject(objects, 'ConfigMap', `${FULL}-config`);
      expect(Object.keys(cm.data).sort()).to.deep.equal(['admission.yaml', 'oidc-ca.crt']);
      expect(cm.data['oidc-ca.crt']).to.match(/^-----BEGIN CERTIFICATE-----\n[^]*\n-----END CERTIFICATE-----\n?$/);
      // The server's own AdmissionConfiguration reader accepts the mounted file.
      const dir = mkdtempSync(path.join(os.tmpdir(), 'chart-admission-'));
      try {
        writeFileSync(path.join(dir, 'admission.yaml'), cm.data['admission.yaml']);
        expect((await readAdmissionConfigFile(path.join(dir, 'admission.yaml'))).size).to.equal(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const o = parseServerFlags(args().map((a) => a.replace('$(POD_IP)', '10.1.2.3')));
      expect([o.authentication.oidc.issuerURL, o.authentication.oidc.clientID]).to.deep.equal(['https://issuer.example.com', 'cluster-clients']);
    });

    it('the Service is a LoadBalancer with its source ranges', () => {
      const svc = findObject(objects, 'Service', FULL);
      expect(svc.spec).to.include({ type: 'LoadBalancer', externalTrafficPolicy: 'Local' });
      expect(svc.spec.loadBalancerSourceRanges).to.deep.equal(['192.0.2.0/24']);
    });
  });

  describe('errors and other shapes', () => {
    it('OIDC without an issuer fails as `required` does', () => {
      expect(() => renderTestChart({ authentication: { oidc: { enabled: true, clientID: 'x' } } }, NS)).to.throw(
        `template: ${SERVER_NAME}/templates/deployment.yaml: error calling required: authentication.oidc.issuerURL is required when OIDC is enabled`,
      );
    });

    it('an external etcd replaces the StatefulSet; fullnameOverride names everything', () => {
      const { objects } = renderTestChart({ fullnameOverride: 'api', etcd: { enabled: false, external: { servers: ['https://e1:2379', 'https://e2:2379'] } } }, NS);
      expect(objects.filter((o) => o.kind === 'StatefulSet')).to.have.length(0);
      expect(objects.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.metadata.name)).to.deep.equal(['api']);
      const c = findObject(objects, 'Deployment', 'api').spec.template.spec.containers[0];
      expect(flag(c.args, 'etcd-servers')).to.equal('https://e1:2379,https://e2:2379');
    });
  });

  describe('with helm', () => {
    it('`helm template` (where helm is on PATH) renders the same objects as the project renderer', function () {
      if (spawnSync('helm', ['version'], { stdio: 'ignore' }).error) {
        console.log('      (skipped: helm is not on PATH; the project renderer alone renders the chart)');
        this.skip();
      }
      const dir = mkdtempSync(path.join(os.tmpdir(), 'chart-values-'));
      try {
        for (const values of [{}, OVERRIDES]) {
          const file = path.join(dir, 'values.json');
          writeFileSync(file, JSON.stringify(values));
          const out = execFileSync('helm', ['template', 'demo', CHART_DIR, '--namespace', NS, '--values', file], { encoding: 'utf8' });
          const theirs = out.split(/^---$/m).map((d) => parseYaml(d, { version: '1.1' }) as ChartObject | null).filter((d) => d !== null);
          const id = (o: ChartObject): string => `${o.kind}/${o.metadata.name}`;
          const sorted = (l: ChartObject[]): ChartObject[] => [...l].sort((a, b) => id(a).localeCompare(id(b)));
          expect(sorted(theirs)).to.deep.equal(sorted(renderTestChart(values, NS).objects));
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
