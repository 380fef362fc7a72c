/**
 * `kubectl get hpa` and `kubectl get events` (kubectl 1.30, unmodified) against the real server
 * command (issue #12 item 1): the short name resolves to autoscaling/v2 (the preferred version),
 * an explicit `hpa.v1.autoscaling` reads the same object in v1, the server-side Table prints
 * upstream's columns, and Events written through the events API list as core Events.
 */
import { expect } from 'chai';
import { findKubectl, kubectlOk } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const HPA = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 2,
    maxReplicas: 6,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } }],
  },
};

const EVENT = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'web.scaled', namespace: 'default' },
  eventTime: '2024-05-01T10:00:00.000000Z',
  reportingController: 'example.com/autoscaler',
  reportingInstance: 'autoscaler-1',
  action: 'Scale',
  reason: 'Scaled',
  regarding: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
  note: 'Scaled to 3 replicas',
  type: 'Normal',
};

/** The lines of a `kubectl get` table, split into whitespace-separated cells. */
function rows(out: string): string[][] {
  return out
    .trimEnd()
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));
}

describe('kubectl get hpa and kubectl get events against the real server command (issue #12 item 1)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);

  before(async () => {
    findKubectl();
    server = await startServerProcess();
    await kubectlOk(server.kubeconfig, ['create', '-f', '-'], { stdin: JSON.stringify(HPA) });
    await kubectlOk(server.kubeconfig, ['create', '-f', '-'], { stdin: JSON.stringify(EVENT) });
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
  });

  it('prints an autoscaler with the upstream columns', async () => {
    const table = rows(await k('get', 'hpa'));
    expect(table[0]).to.deep.equal(['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    expect(table[1]!.slice(0, 6)).to.deep.equal(['web', 'Deployment/web', 'cpu: <unknown>/75%', '2', '6', '0']);
  });

  it('reads the autoscaler in v2 by default and in v1 when asked', async () => {
    expect(await k('get', 'hpa', 'web', '-o', 'jsonpath={.apiVersion} {.spec.metrics[0].resource.target.averageUtilization}')).to.equal('autoscaling/v2 75');
    expect(await k('get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'jsonpath={.apiVersion} {.spec.targetCPUUtilizationPercentage}')).to.equal('autoscaling/v1 75');
  });

  it('lists the autoscaler among `all`', async () => {
    expect(await k('get', 'all', '-o', 'name')).to.include('horizontalpodautoscaler.autoscaling/web');
  });

  it('prints an Event written through the events API as a core Event', async () => {
    const table = rows(await k('get', 'events'));
    expect(table[0]).to.deep.equal(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    const row = table.find((r) => r[2] === 'Scaled')!;
    expect(row.slice(1)).to.deep.equal(['Normal', 'Scaled', 'deployment/web', 'Scaled to 3 replicas']);
  });

  it('reads the Event through the events API', async () => {
    expect(await k('get', 'events.v1.events.k8s.io', 'web.scaled', '-o', 'jsonpath={.note} {.regarding.name}')).to.equal('Scaled to 3 replicas web');
  });
});
