/**
 * Objects persisted in a removed version stay reachable (spec 001 § Removed API versions: "All
 * persisted objects remain reachable through the new versions"; issue #15 item 3): a value
 * written to etcd in the old encoding — apiVersion of the removed version, its field names — is
 * read through the replacement version with the migration map's rewrites applied.
 */
import { expect } from 'chai';
import { etcdctl } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';

interface Case {
  name: string;
  key: string;
  path: string;
  stored: Record<string, unknown>;
  expect: (body: Record<string, any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const meta = (name: string) => ({ name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: '2020-01-01T00:00:00Z' });

const cases: Case[] = [
  {
    name: 'extensions/v1beta1 Ingress through networking v1',
    key: 'networking.orch.io/ingresses/default/old-ingress',
    path: '/apis/networking.orch.io/v1/namespaces/default/ingresses/old-ingress',
    stored: { apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: meta('old-ingress'), spec: { backend: { serviceName: 'web', servicePort: 80 } } },
    expect: (b) => expect(b.spec.defaultBackend).to.deep.equal({ service: { name: 'web', port: { number: 80 } } }),
  },
  {
    name: 'batch/v1beta1 CronJob through batch/v1',
    key: 'batch/cronjobs/default/old-cron',
    path: '/apis/batch/v1/namespaces/default/cronjobs/old-cron',
    stored: {
      apiVersion: 'batch/v1beta1',
      kind: 'CronJob',
      metadata: meta('old-cron'),
      spec: { schedule: '@hourly', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
    },
    expect: (b) => expect(b.spec.schedule).to.equal('@hourly'),
  },
  {
    name: 'policy/v1beta1 PodDisruptionBudget with an empty selector through policy/v1 (still selects none)',
    key: 'policy/poddisruptionbudgets/default/old-pdb',
    path: '/apis/policy/v1/namespaces/default/poddisruptionbudgets/old-pdb',
    stored: { apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: meta('old-pdb'), spec: { minAvailable: 1, selector: {} } },
    expect: (b) => expect(b.spec.selector).to.deep.equal({ matchExpressions: [{ key: 'pdb.orch.io/deprecated-v1beta1-empty-selector-match', operator: 'Exists' }] }),
  },
];

describe('objects persisted in a removed version', function () {
  this.timeout(60_000);
  const server = useTestServer();
  for (const c of cases) {
    it(c.name, async () => {
      await etcdctl(['put', `${server().prefix}/${c.key}`, JSON.stringify(c.stored)]);
      const res = await server().admin.get(c.path);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.apiVersion).to.equal(c.path.split('/').slice(2, 4).join('/'));
      c.expect(res.body);
    });
  }
});
