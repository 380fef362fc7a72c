/**
 * kubectl 1.30 (unmodified) against the built-in API (issue #12 items 4–5): one object of many
 * kinds applied from YAML, then the tables of `kubectl get all` and of a multi-type get, three
 * describes, `kubectl explain` of every served resource, `kubectl get cs` and the kinds' field
 * selectors — each table as upstream v1.30's printers lay it out (cells read at the header's
 * column offsets; ages, which move, checked by form).
 *
 * Where the output differs from a stock cluster's, for reasons outside the printers (README
 * § Where we differ, and the report of this issue): groups are spelled with the vendor word
 * (`ingress.networking.<vendor>/web`); the served upstream aliases make kubectl warn that a short
 * name (`ing`, `csr`, `pc`, `sc`) "could also match lower priority resource …"; `kubectl describe
 * ing` of the vendor group uses kubectl's generic describer (its Ingress describer is keyed by the
 * upstream group, reached through the alias); the blocks of `get all` come in this server's
 * discovery order (upstream lists a group version's resources alphabetically); PersistentVolumes
 * get no `pv-protection` finalizer (no StorageObjectInUseProtection admission plugin).
 */
import { expect } from 'chai';
import { stringify } from 'yaml';
import { ADMIN_USER, upstreamAlias, vendorGroup } from '../../lib/apis/vendor.js';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { useTestServer } from '../framework/test-server.js';
import { b64, csrPem } from '../unit/apis/certificates/v1/csr-builder.js';

const NS = 'shop';
const NETWORKING = vendorGroup('networking');
const CERTIFICATES = vendorGroup('certificates');
const SCHEDULING = vendorGroup('scheduling');
const STORAGE = vendorGroup('storage');
/** An event time 10½ hours ago: `10h` for the whole run (upstream HumanDuration). */
const TEN_HOURS_AGO = new Date(Date.now() - 10.5 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');

/** A workload's selector and pod template, labelled `app: <app>`. */
function workload(app: string, image: string, extra: Record<string, unknown> = {}) {
  return { selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: app, image }], ...extra } } };
}

/** The objects applied: the `all` category's kinds and the kinds of issue #12. */
function manifest(): string {
  const ns = { namespace: NS };
  const docs = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'debug', ...ns }, spec: { containers: [{ name: 'sh', image: 'busybox:1.36' }] } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', ...ns }, spec: { clusterIP: '10.0.0.11', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', ...ns }, spec: { replicas: 2, ...workload('web', 'nginx:1.25') } },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', ...ns },
      spec: {
        serviceName: 'db',
        replicas: 3,
        ...workload('db', 'postgres:16'),
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } } }],
      },
    },
    { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', ...ns }, spec: workload('agent', 'fluentd:1.16', { nodeSelector: { disk: 'ssd' } }) },
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'cache', ...ns }, spec: { replicas: 0, ...workload('cache', 'redis:7') } },
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'queue', ...ns }, spec: { replicas: 2, ...workload('queue', 'rabbitmq:3') } },
    { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'legacy', ...ns }, spec: { replicas: 1, selector: { app: 'legacy' }, template: workload('legacy', 'httpd:2.4').template } },
    { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', ...ns }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'busybox:1.36' }] } } } },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly', ...ns },
      spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'backup', image: 'busybox:1.36' }] } } } } },
    },
    {
      apiVersion: `${NETWORKING}/v1`,
      kind: 'Ingress',
      metadata: { name: 'web', ...ns },
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
        rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }],
      },
    },
    { apiVersion: `${NETWORKING}/v1`, kind: 'NetworkPolicy', metadata: { name: 'deny-all', ...ns }, spec: { podSelector: {}, policyTypes: ['Ingress'] } },
    { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', ...ns }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
    { apiVersion: `${SCHEDULING}/v1`, kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, description: 'Customer-facing workloads.' },
    { apiVersion: `${STORAGE}/v1`, kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'example.com/fast', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true },
    ...[['node-csr', 'example.com/signer'], ['other-csr', 'example.com/other']].map(([name, signerName]) => ({
      apiVersion: `${CERTIFICATES}/v1`,
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: { request: b64(csrPem('ec', 'system:node:node-1')), signerName, usages: ['client auth'], expirationSeconds: 3600 },
    })),
    { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', ...ns }, subsets: [{ addresses: [{ ip: '10.1.0.5' }, { ip: '10.1.0.6' }], ports: [{ port: 8080 }] }] },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'debug.1', ...ns },
      involvedObject: { kind: 'Pod', name: 'debug', ...ns },
      reason: 'Scheduled',
      message: 'Successfully assigned shop/debug to node-1',
      type: 'Normal',
      source: { component: 'scheduler' },
    },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.1', ...ns },
      involvedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', ...ns },
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set web-1 to 2',
      type: 'Normal',
      source: { component: 'deployment-controller' },
      firstTimestamp: TEN_HOURS_AGO,
      lastTimestamp: TEN_HOURS_AGO,
      count: 1,
    },
    { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', ...ns }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, default: { cpu: '500m' } }] } },
    { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'quota', ...ns }, spec: { hard: { pods: '10', 'requests.cpu': '4' } } },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-1' },
      spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: 'fast', hostPath: { path: '/data/pv-1' } },
    },
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', ...ns }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '5Gi' } } } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', ...ns }, type: 'Opaque', stringData: { password: 's3cr3t' } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'custom', ...ns }, type: 'example.com/custom', data: { token: 'dG9rZW4=' } },
    { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } },
    { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2' }, spec: { unschedulable: true } },
  ];
  return docs.map((d) => stringify(d)).join('---\n');
}

/** One table of kubectl's output: the header cells and each row's cells. */
interface Table {
  header: string[];
  rows: string[][];
}

/** An age as upstream prints it (`45s`, `2m3s`, `12m`, `3h`): stands for any of them in expectations. */
const AGE = '<age>';
const AGE_FORM = /^(\d+s|\d+m(\d+s)?|\d+h(\d+m)?|\d+d)$/;

/**
 * The tables of kubectl's table output (blank-line separated): each row cut at the offsets where
 * the header's cells start (kubectl's tabwriter left-aligns every column, three spaces apart), so
 * empty cells and cells with spaces come out whole; the AGE column becomes {@link AGE}.
 */
function tables(out: string): Table[] {
  return out
    .trimEnd()
    .split('\n\n')
    .map((block) => {
      const [head, ...lines] = block.split('\n') as [string, ...string[]];
      const header = head.trim().split(/ {2,}/);
      let from = 0;
      const starts = header.map((cell) => (from = head.indexOf(cell, from)));
      const rows = lines.map((line) => {
        for (const s of starts.slice(1)) expect(line[s - 1] ?? ' ', `column boundary at ${s} of ${JSON.stringify(line)}`).to.equal(' ');
        return starts.map((s, i) => line.slice(s, starts[i + 1]).trim()).map((cell, i) => (header[i] === 'AGE' && AGE_FORM.test(cell) ? AGE : cell));
      });
      return { header, rows };
    });
}

/** Key lines of a describe: `Label:` then the value, as kubectl aligns them. */
function describeLine(label: string, value: string): RegExp {
  return new RegExp(`^ *${label.replace(/[()|]/g, '\\$&')}:\\s+${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');
}

describe('kubectl 1.30 against the built-in API (issue #12 items 4–5)', function () {
  this.timeout(180_000);
  const server = useTestServer();
  const k = (...args: string[]) => kubectlOk(server().kubeconfig, args);

  before(async function () {
    this.timeout(60_000);
    findKubectl();
    const applied = await kubectl(server().kubeconfig, ['apply', '-f', '-'], { stdin: manifest() });
    expect(applied.code, applied.stderr).to.equal(0);
    expect(applied.stdout.trim().split('\n')).to.deep.equal([
      `namespace/${NS} created`,
      'pod/debug created',
      'service/web created',
      'deployment.apps/web created',
      'statefulset.apps/db created',
      'daemonset.apps/agent created',
      'replicaset.apps/cache created',
      'replicaset.apps/queue created',
      'replicationcontroller/legacy created',
      'job.batch/migrate created',
      'cronjob.batch/nightly created',
      `ingress.${NETWORKING}/web created`,
      `networkpolicy.${NETWORKING}/deny-all created`,
      'poddisruptionbudget.policy/web created',
      `priorityclass.${SCHEDULING}/high created`,
      `storageclass.${STORAGE}/fast created`,
      `certificatesigningrequest.${CERTIFICATES}/node-csr created`,
      `certificatesigningrequest.${CERTIFICATES}/other-csr created`,
      'endpoints/web created',
      'event/debug.1 created',
      'event/web.1 created',
      'limitrange/limits created',
      'resourcequota/quota created',
      'persistentvolume/pv-1 created',
      'persistentvolumeclaim/data created',
      'secret/creds created',
      'secret/custom created',
      'node/node-1 created',
      'node/node-2 created',
    ]);
    // A replica set's observed replicas, as its controller would write them (none runs here).
    await k('patch', 'rs', 'queue', '-n', NS, '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":2}}');
  });

  it('the `all` category holds upstream members (HorizontalPodAutoscaler once autoscaling is served)', async () => {
    const members = (await k('api-resources', '--categories=all', '-o', 'name')).trim().split('\n');
    expect(members.filter((m) => !m.startsWith('horizontalpodautoscalers.'))).to.deep.equal([
      'pods',
      'replicationcontrollers',
      'services',
      'daemonsets.apps',
      'deployments.apps',
      'replicasets.apps',
      'statefulsets.apps',
      'cronjobs.batch',
      'jobs.batch',
    ]);
  });

  it('get all: every kind of the `all` category with its upstream columns', async () => {
    // No HorizontalPodAutoscaler is created: whether autoscaling is served or not, it prints no table.
    const byName = new Map(tables(await k('get', 'all', '-n', NS)).map((t) => [t.rows[0]![0]!.split('/')[0]!, t]));
    expect([...byName.keys()].sort()).to.deep.equal(['cronjob.batch', 'daemonset.apps', 'deployment.apps', 'job.batch', 'pod', 'replicaset.apps', 'replicationcontroller', 'service', 'statefulset.apps']);
    const expected: Record<string, Table> = {
      pod: { header: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], rows: [['pod/debug', '0/1', 'Pending', '0', AGE]] },
      service: { header: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'], rows: [['service/web', 'ClusterIP', '10.0.0.11', '<none>', '80/TCP', AGE]] },
      replicationcontroller: { header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'], rows: [['replicationcontroller/legacy', '1', '0', '0', AGE]] },
      'deployment.apps': { header: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'], rows: [['deployment.apps/web', '0/2', '0', '0', AGE]] },
      'statefulset.apps': { header: ['NAME', 'READY', 'AGE'], rows: [['statefulset.apps/db', '0/3', AGE]] },
      'daemonset.apps': {
        header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
        rows: [['daemonset.apps/agent', '0', '0', '0', '0', '0', 'disk=ssd', AGE]],
      },
      'replicaset.apps': {
        header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
        rows: [
          ['replicaset.apps/cache', '0', '0', '0', AGE],
          ['replicaset.apps/queue', '2', '2', '0', AGE],
        ],
      },
      'job.batch': { header: ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'], rows: [['job.batch/migrate', 'Running', '0/1', '', AGE]] },
      'cronjob.batch': {
        header: ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'],
        rows: [['cronjob.batch/nightly', '0 3 * * *', '<none>', 'False', '0', '<none>', AGE]],
      },
    };
    for (const [name, table] of Object.entries(expected)) expect(byName.get(name), name).to.deep.equal(table);
  });

  it('get ing,sts,ds,pdb,csr,pc,sc,ep,ev: one table a type, in the order asked', async () => {
    const out = await k('get', 'ing,sts,ds,pdb,csr,pc,sc,ep,ev', '-n', NS);
    expect(tables(out)).to.deep.equal([
      { header: ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'], rows: [[`ingress.${NETWORKING}/web`, 'nginx', 'shop.example.com', '', '80, 443', AGE]] },
      { header: ['NAME', 'READY', 'AGE'], rows: [['statefulset.apps/db', '0/3', AGE]] },
      { header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'], rows: [['daemonset.apps/agent', '0', '0', '0', '0', '0', 'disk=ssd', AGE]] },
      { header: ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'], rows: [['poddisruptionbudget.policy/web', '1', 'N/A', '0', AGE]] },
      {
        header: ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION'],
        rows: [
          [`certificatesigningrequest.${CERTIFICATES}/node-csr`, AGE, 'example.com/signer', ADMIN_USER, '60m', 'Pending'],
          [`certificatesigningrequest.${CERTIFICATES}/other-csr`, AGE, 'example.com/other', ADMIN_USER, '60m', 'Pending'],
        ],
      },
      {
        header: ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE'],
        rows: [
          [`priorityclass.${SCHEDULING}/high`, '1000', 'false', AGE],
          [`priorityclass.${SCHEDULING}/system-cluster-critical`, '2000000000', 'false', AGE],
          [`priorityclass.${SCHEDULING}/system-node-critical`, '2000001000', 'false', AGE],
        ],
      },
      { header: ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'], rows: [[`storageclass.${STORAGE}/fast`, 'example.com/fast', 'Retain', 'WaitForFirstConsumer', 'true', AGE]] },
      { header: ['NAME', 'ENDPOINTS', 'AGE'], rows: [['endpoints/web', '10.1.0.5:8080,10.1.0.6:8080', AGE]] },
      {
        header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
        rows: [
          ['<unknown>', 'Normal', 'Scheduled', 'pod/debug', 'Successfully assigned shop/debug to node-1'],
          ['10h', 'Normal', 'ScalingReplicaSet', 'deployment/web', 'Scaled up replica set web-1 to 2'],
        ],
      },
    ]);
  });

  it('get cs: etcd-0 probed healthy, with upstream deprecation warning', async () => {
    const res = await kubectl(server().kubeconfig, ['get', 'cs']);
    expect(res.code, res.stderr).to.equal(0);
    expect(tables(res.stdout)).to.deep.equal([{ header: ['NAME', 'STATUS', 'MESSAGE', 'ERROR'], rows: [['etcd-0', 'Healthy', '', '']] }]);
    expect(res.stderr).to.equal('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
  });

  describe('describe', () => {
    it('a StatefulSet: replicas, strategy, template and volume claims', async () => {
      const out = await k('describe', 'sts', 'db', '-n', NS);
      for (const [label, value] of [
        ['Name', 'db'],
        ['Namespace', NS],
        ['Selector', 'app=db'],
        ['Replicas', '3 desired | 0 total'],
        ['Update Strategy', 'RollingUpdate'],
        ['Partition', '0'],
        ['Pods Status', '0 Running / 0 Waiting / 0 Succeeded / 0 Failed'],
        ['Image', 'postgres:16'],
        ['StorageClass', 'fast'],
        ['Capacity', '1Gi'],
        ['Access Modes', '[ReadWriteOnce]'],
        ['Events', '<none>'],
      ]) {
        expect(out).to.match(describeLine(label!, value!));
      }
    });

    it('an Ingress through the upstream alias: kubectl Ingress describer, backends from the Endpoints', async () => {
      const out = await k('describe', `ingresses.${upstreamAlias(NETWORKING)}`, 'web', '-n', NS);
      for (const [label, value] of [
        ['Name', 'web'],
        ['Namespace', NS],
        ['Ingress Class', 'nginx'],
        ['Default backend', '<default>'],
      ]) {
        expect(out).to.match(describeLine(label!, value!));
      }
      expect(out).to.include('TLS:\n  shop-tls terminates shop.example.com\n');
      expect(out).to.match(/^ +\/ +web:80 \(10\.1\.0\.5:8080,10\.1\.0\.6:8080\)$/m);
    });

    it('an Ingress of the vendor group: kubectl generic describer of every field', async () => {
      const out = await k('describe', 'ingress', 'web', '-n', NS);
      expect(out).to.match(describeLine('API Version', `${NETWORKING}/v1`));
      expect(out).to.match(describeLine('Ingress Class Name', 'nginx'));
      expect(out).to.match(describeLine('Secret Name', 'shop-tls'));
    });

    it('a PersistentVolume: class, phase, policy, modes, capacity and source', async () => {
      const out = await k('describe', 'pv', 'pv-1');
      for (const [label, value] of [
        ['Name', 'pv-1'],
        ['StorageClass', 'fast'],
        ['Status', 'Pending'],
        ['Reclaim Policy', 'Retain'],
        ['Access Modes', 'RWO'],
        ['VolumeMode', 'Filesystem'],
        ['Capacity', '10Gi'],
        ['Node Affinity', '<none>'],
        ['Type', 'HostPath (bare host directory volume)'],
        ['Path', '/data/pv-1'],
      ]) {
        expect(out).to.match(describeLine(label!, value!));
      }
      // Upstream's StorageObjectInUseProtection admission adds `kubernetes.io/pv-protection`.
      expect(out).to.match(/^Finalizers:\s+\[.*\]$/m);
    });
  });

  it('explain of every served resource answers its KIND and VERSION', async () => {
    const kinds = new Map<string, { kind: string; version: string }>();
    const addList = async (path: string, group: string, version: string) => {
      for (const r of (await server().admin.get(path)).body.resources as Array<{ name: string; kind: string }>) if (!r.name.includes('/')) kinds.set(group ? `${r.name}.${group}` : r.name, { kind: r.kind, version });
    };
    await addList('/api/v1', '', 'v1');
    for (const g of (await server().admin.get('/apis')).body.groups as Array<{ name: string; preferredVersion: { groupVersion: string; version: string } }>) {
      await addList(`/apis/${g.preferredVersion.groupVersion}`, g.name, g.preferredVersion.version);
    }
    const names = (await k('api-resources', '-o', 'name')).trim().split('\n');
    expect([...names].sort()).to.deep.equal([...kinds.keys()].sort());
    for (const name of names) {
      // As a name, `events.events.<group>` would resolve to the core Event (kubectl takes the first
      // resource whose `<resource>.<group>` prefixes the argument): name the group version instead.
      const dot = name.indexOf('.');
      const args = dot < 0 ? ['explain', name] : ['explain', name.slice(0, dot), `--api-version=${name.slice(dot + 1)}/${kinds.get(name)!.version}`];
      const res = await kubectl(server().kubeconfig, args);
      expect(res.code, `${name}: ${res.stderr}`).to.equal(0);
      // kubectl explains the preferred version (autoscaling/v2 for horizontalpodautoscalers).
      expect(res.stdout, name).to.match(new RegExp(`^(GROUP: +\\S+\\n)?KIND: +${kinds.get(name)!.kind}\\nVERSION: +${kinds.get(name)!.version}\\n`));
    }
  });

  describe('field selectors', () => {
    const names = async (...args: string[]) => tables(await k('get', ...args)).flatMap((t) => t.rows.map((r) => r[t.header.indexOf('NAME')] ?? r[0]!));

    it('events by involvedObject.kind', async () => {
      const [t] = tables(await k('get', 'events', '-n', NS, '--field-selector', 'involvedObject.kind=Pod'));
      expect(t).to.deep.equal({ header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], rows: [['<unknown>', 'Normal', 'Scheduled', 'pod/debug', 'Successfully assigned shop/debug to node-1']] });
    });

    it('secrets by type', async () => {
      const [t] = tables(await k('get', 'secrets', '-n', NS, '--field-selector', 'type=Opaque'));
      expect(t).to.deep.equal({ header: ['NAME', 'TYPE', 'DATA', 'AGE'], rows: [['creds', 'Opaque', '1', AGE]] });
    });

    it('nodes by spec.unschedulable (an unset field reads false)', async () => {
      expect(await names('nodes', '--field-selector', 'spec.unschedulable=false')).to.deep.equal(['node-1']);
      const [t] = tables(await k('get', 'nodes', '--field-selector', 'spec.unschedulable=true'));
      expect(t).to.deep.equal({ header: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'], rows: [['node-2', 'Unknown,SchedulingDisabled', '<none>', AGE, '']] });
    });

    it('replica sets by status.replicas (an unset count reads 0)', async () => {
      expect(await names('rs', '-n', NS, '--field-selector', 'status.replicas=0')).to.deep.equal(['cache']);
      expect(await names('rs', '-n', NS, '--field-selector', 'status.replicas=2')).to.deep.equal(['queue']);
    });

    it('certificate signing requests by spec.signerName', async () => {
      expect(await names('csr', '--field-selector', 'spec.signerName=example.com/signer')).to.deep.equal(['node-csr']);
      expect(await names('csr', '--field-selector', 'spec.signerName!=example.com/signer')).to.deep.equal(['other-csr']);
    });

    it('a field label the kind does not select by is refused by the server', async () => {
      const res = await kubectl(server().kubeconfig, ['get', 'secrets', '-n', NS, '--field-selector', 'spec.nodeName=x']);
      expect(res.code).to.not.equal(0);
      expect(res.stderr).to.include('field label not supported: spec.nodeName');
    });
  });
});
