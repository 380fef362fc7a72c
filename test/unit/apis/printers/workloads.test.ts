import { expect } from 'chai';
import { deployment } from '../../../../lib/apis/apps/v1/deployment.js';
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
