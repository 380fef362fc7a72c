import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { controllerRevision, daemonSet, replicaSet, statefulSet } from '../../../../lib/apis/apps/v1/index.js';
import { deployment } from '../../../../lib/apis/apps/v1/deployment.js';
import { replicationController } from '../../../../lib/apis/core/v1/replication-controller.js';
import { cronJob } from '../../../../lib/apis/batch/v1/cron-job.js';
import { job } from '../../../../lib/apis/batch/v1/job.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { ago, cellsOf, meta } from './helpers.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }, { name: 'log', image: 'busybox' }] } };

describe('apis/printers: Deployment', () => {
  const d = (spec: Obj, status: Obj): Obj => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta('web', 3 * 3600 + 5 * 60), spec: { template, ...spec }, status });

  it('Ready ready/desired, Up-to-date, Available (integers), Age; wide: Containers, Images, Selector', () => {
    const obj = d({ replicas: 3, selector: { matchLabels: { app: 'web' } } }, { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 });
    expect(cellsOf(deployment, obj)).to.deep.equal(['web', '2/3', 3, 2, '3h5m', 'nginx,log', 'nginx:1.25,busybox', 'app=web']);
  });

  it('a new deployment without status reads zeros', () => {
    expect(cellsOf(deployment, d({ replicas: 1, selector: { matchLabels: { app: 'web' } } }, {})).slice(1, 4)).to.deep.equal(['0/1', 0, 0]);
  });

  const selectors: Array<[string, unknown, string]> = [
    ['match labels sorted by key', { matchLabels: { tier: 'front', app: 'web' } }, 'app=web,tier=front'],
    ['with expressions', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }, { key: 'canary', operator: 'DoesNotExist' }] }, 'app=web,!canary,env in (dev,prod)'],
    ['an empty selector prints nothing', {}, ''],
    ['an invalid operator prints <invalid>', { matchExpressions: [{ key: 'a', operator: 'Near', values: ['b'] }] }, '<invalid>'],
  ];
  for (const [name, selector, text] of selectors) {
    it(`Selector: ${name}`, () => expect(cellsOf(deployment, d({ replicas: 1, selector }, {}))[7]).to.equal(text));
  }
});

describe('apis/printers: Job', () => {
  const jobTemplate = { metadata: { labels: { job: 'pi' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } };
  const j = (spec: Obj, status: Obj, metaExtra: Obj = {}): Obj => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta('pi', 600, metaExtra),
    spec: { template: jobTemplate, selector: { matchLabels: { 'controller-uid': 'u1' } }, ...spec },
    status,
  });
  const cond = (type: string, status = 'True'): Obj => ({ type, status, lastTransitionTime: ago(10) });

  it('a completed job: Complete, succeeded/completions, start-to-completion duration', () => {
    const obj = j({ completions: 1, parallelism: 1 }, { startTime: ago(590), completionTime: ago(548), succeeded: 1, conditions: [cond('SuccessCriteriaMet'), cond('Complete')] });
    expect(cellsOf(job, obj)).to.deep.equal(['pi', 'Complete', '1/1', '42s', '10m', 'pi', 'perl:5.34', 'controller-uid=u1']);
  });

  const statuses: Array<[string, Obj, Obj, string]> = [
    ['running', {}, { startTime: ago(300), active: 1 }, 'Running'],
    ['failed', {}, { startTime: ago(300), failed: 6, conditions: [cond('FailureTarget'), cond('Failed')] }, 'Failed'],
    ['failure target before failed', {}, { startTime: ago(300), conditions: [cond('FailureTarget')] }, 'FailureTarget'],
    ['suspended', { suspend: true }, { conditions: [cond('Suspended')] }, 'Suspended'],
    ['resumed (Suspended False)', { suspend: false }, { startTime: ago(300), conditions: [cond('Suspended', 'False')] }, 'Running'],
    ['complete wins over failed', {}, { conditions: [cond('Complete'), cond('Failed')] }, 'Complete'],
  ];
  for (const [name, spec, status, text] of statuses) {
    it(`Status: ${name} → ${text}`, () => expect(cellsOf(job, j(spec, status))[1]).to.equal(text));
  }

  it('Status: Terminating while deleted and not finished', () => {
    expect(cellsOf(job, j({}, { startTime: ago(300) }, { deletionTimestamp: ago(1) }))[1]).to.equal('Terminating');
    expect(cellsOf(job, j({}, { conditions: [cond('Complete')] }, { deletionTimestamp: ago(1) }))[1]).to.equal('Complete');
  });

  const completions: Array<[string, Obj, Obj, string]> = [
    ['completions set', { completions: 5, parallelism: 2 }, { succeeded: 3 }, '3/5'],
    ['no completions, parallelism 3 (work queue)', { parallelism: 3 }, { succeeded: 1 }, '1/1 of 3'],
    ['no completions, parallelism 1', { parallelism: 1 }, {}, '0/1'],
  ];
  for (const [name, spec, status, text] of completions) {
    it(`Completions: ${name} → ${text}`, () => expect(cellsOf(job, j(spec, status))[2]).to.equal(text));
  }

  it('Duration: until now while running, empty before start', () => {
    expect(cellsOf(job, j({}, { startTime: ago(300) }))[3]).to.equal('5m');
    expect(cellsOf(job, j({}, {}))[3]).to.equal('');
  });
});

describe('apis/printers: CronJob', () => {
  const cj = (spec: Obj, status: Obj): Obj => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: meta('report', 2 * 86400 + 3 * 3600),
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'r', image: 'report:1' }] } } } }, ...spec },
    status,
  });

  it('Schedule, Timezone, Suspend, Active, Last Schedule, Age; wide columns', () => {
    const obj = cj({ suspend: false, timeZone: 'Etc/UTC' }, { active: [{ kind: 'Job', name: 'report-1' }], lastScheduleTime: ago(120) });
    expect(cellsOf(cronJob, obj)).to.deep.equal(['report', '*/5 * * * *', 'Etc/UTC', 'False', 1, '2m', '2d3h', 'r', 'report:1', '<none>']);
  });

  it('no time zone, suspend unset, never scheduled', () => {
    expect(cellsOf(cronJob, cj({}, {})).slice(2, 6)).to.deep.equal(['<none>', '<unset>', 0, '<none>']);
  });

  it('suspended, with a job template selector', () => {
    const obj = cj({ suspend: true, jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [] } } } } }, {});
    const cells = cellsOf(cronJob, obj);
    expect([cells[3], cells[7], cells[8], cells[9]]).to.deep.equal(['True', '', '', 'a=b']);
  });
});

/** [name, type, priority] of each column of `kind`. */
const columnsOf = (kind: Parameters<typeof tableFor>[0]): Array<[string, string, number]> => tableFor(kind, [], {}).columnDefinitions!.map((c) => [c.name, c.type, c.priority]);
const wide: Array<[string, string, number]> = [['Containers', 'string', 1], ['Images', 'string', 1], ['Selector', 'string', 1]];

describe('apis/printers: StatefulSet', () => {
  const sts = (replicas: number | undefined, status: Obj): Obj => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: meta('db', 90), spec: { replicas, template }, status });

  it('columns as upstream: Name, Ready, Age; wide: Containers, Images (no Selector)', () => {
    expect(columnsOf(statefulSet)).to.deep.equal([['Name', 'string', 0], ['Ready', 'string', 0], ['Age', 'string', 0], ['Containers', 'string', 1], ['Images', 'string', 1]]);
  });

  it('Ready is ready/desired', () => {
    expect(cellsOf(statefulSet, sts(3, { replicas: 3, readyReplicas: 2 }))).to.deep.equal(['db', '2/3', '90s', 'nginx,log', 'nginx:1.25,busybox']);
    expect(cellsOf(statefulSet, sts(undefined, {}))[1]).to.equal('0/0');
  });
});

describe('apis/printers: DaemonSet', () => {
  const ds = (spec: Obj, status: Obj): Obj => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta('agent', 3600), spec: { template, ...spec }, status });

  it('columns as upstream: Desired, Current, Ready, Up-to-date, Available (integers), Node Selector, Age; wide: Containers, Images, Selector', () => {
    expect(columnsOf(daemonSet)).to.deep.equal([
      ['Name', 'string', 0],
      ['Desired', 'integer', 0],
      ['Current', 'integer', 0],
      ['Ready', 'integer', 0],
      ['Up-to-date', 'integer', 0],
      ['Available', 'integer', 0],
      ['Node Selector', 'string', 0],
      ['Age', 'string', 0],
      ...wide,
    ]);
  });

  it('counters from status, the template node selector, the label selector', () => {
    const obj = ds(
      { selector: { matchLabels: { app: 'web' } }, template: { ...template, spec: { ...template.spec, nodeSelector: { 'example.com/os': 'linux', disk: 'ssd' } } } },
      { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 1, numberAvailable: 2 },
    );
    expect(cellsOf(daemonSet, obj)).to.deep.equal(['agent', 3, 3, 2, 1, 2, 'disk=ssd,example.com/os=linux', '60m', 'nginx,log', 'nginx:1.25,busybox', 'app=web']);
  });

  it('no node selector and no selector print <none>', () => {
    const cells = cellsOf(daemonSet, ds({}, {}));
    expect([cells[1], cells[6], cells[10]]).to.deep.equal([0, '<none>', '<none>']);
  });
});

describe('apis/printers: ReplicaSet and ReplicationController', () => {
  const replicaColumns = [['Name', 'string', 0], ['Desired', 'integer', 0], ['Current', 'integer', 0], ['Ready', 'integer', 0], ['Age', 'string', 0], ...wide];

  it('columns as upstream: Desired, Current, Ready (integers), Age; wide: Containers, Images, Selector', () => {
    expect(columnsOf(replicaSet)).to.deep.equal(replicaColumns);
    expect(columnsOf(replicationController)).to.deep.equal(replicaColumns);
  });

  it('a ReplicaSet: desired from the spec, current and ready from the status, the label selector', () => {
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta('web-1', 300), spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template }, status: { replicas: 3, readyReplicas: 1 } };
    expect(cellsOf(replicaSet, rs)).to.deep.equal(['web-1', 3, 3, 1, '5m', 'nginx,log', 'nginx:1.25,busybox', 'app=web']);
    const bare = cellsOf(replicaSet, { ...rs, spec: { template }, status: {} });
    expect([...bare.slice(1, 4), bare[7]]).to.deep.equal([0, 0, 0, '<none>']);
  });

  it('a ReplicationController: the selector is its label map (sorted), <none> when empty; no template prints empty containers', () => {
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: meta('web', 300), spec: { replicas: 2, selector: { tier: 'front', app: 'web' }, template }, status: { replicas: 2, readyReplicas: 2 } };
    expect(cellsOf(replicationController, rc)).to.deep.equal(['web', 2, 2, 2, '5m', 'nginx,log', 'nginx:1.25,busybox', 'app=web,tier=front']);
    expect(cellsOf(replicationController, { ...rc, spec: {} }).slice(5)).to.deep.equal(['', '', '<none>']);
  });
});

describe('apis/printers: ControllerRevision', () => {
  const cr = (ownerReferences?: Obj[]): Obj => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: meta('web-5d8b9c', 120, { ownerReferences }), data: {}, revision: 4 });

  it('columns as upstream: Name, Controller, Revision (a string column holding an integer), Age', () => {
    expect(columnsOf(controllerRevision)).to.deep.equal([['Name', 'string', 0], ['Controller', 'string', 0], ['Revision', 'string', 0], ['Age', 'string', 0]]);
    expect(cellsOf(controllerRevision, cr())).to.deep.equal(['web-5d8b9c', '<none>', 4, '2m']);
  });

  const owners: Array<[string, Obj[], string]> = [
    ['a StatefulSet owner prints kind.group/name', [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u', controller: true }], 'statefulset.apps/web'],
    ['a core owner prints kind/name', [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: true }], 'pod/p'],
    ['only the controlling owner counts', [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'a', uid: 'u1' }, { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'b', uid: 'u2', controller: true }], 'daemonset.apps/b'],
    ['no controlling owner prints <none>', [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'a', uid: 'u1', controller: false }], '<none>'],
  ];
  for (const [name, refs, text] of owners) it(`Controller: ${name}`, () => expect(cellsOf(controllerRevision, cr(refs))[1]).to.equal(text));
});
