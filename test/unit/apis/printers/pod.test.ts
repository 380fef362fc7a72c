import { expect } from 'chai';
import { pod as podKind } from '../../../../lib/apis/core/v1/pod.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { ago, cellsOf, meta, rowOf } from './helpers.js';

/** A container status; `state` and `last` are the state and the last termination. */
function cs(name: string, state: Obj, extra: Obj = {}): Obj {
  return { name, image: 'img', imageID: '', ready: false, restartCount: 0, state, ...extra };
}
const running = { running: { startedAt: ago(100) } };
const waiting = (reason?: string): Obj => ({ waiting: reason === undefined ? {} : { reason } });
const terminated = (t: Obj): Obj => ({ terminated: { startedAt: ago(300), finishedAt: ago(200), ...t } });
const lastTerminated = (secondsAgo: number): Obj => ({ lastState: { terminated: { exitCode: 1, finishedAt: ago(secondsAgo) } } });
const cond = (type: string, status: string, reason?: string): Obj => ({ type, status, ...(reason ? { reason } : {}) });

function pod(spec: Obj, status: Obj, metaExtra: Obj = {}): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('web', 192, metaExtra),
    spec: { containers: [{ name: 'app', image: 'img' }], ...spec },
    status,
  };
}
const twoContainers = { containers: [{ name: 'app', image: 'a' }, { name: 'log', image: 'b' }] };

/** [case, pod, Ready, Status, Restarts] — Age is always 3m12s. */
const CASES: Array<[string, Obj, string, string, string]> = [
  [
    'running, all ready',
    pod(twoContainers, { phase: 'Running', conditions: [cond('Ready', 'True')], containerStatuses: [cs('app', running, { ready: true }), cs('log', running, { ready: true })] }),
    '2/2',
    'Running',
    '0',
  ],
  [
    'running with restarts and a ready / crash-looping mix (last termination 30s ago)',
    pod(twoContainers, {
      phase: 'Running',
      conditions: [cond('Ready', 'False')],
      containerStatuses: [
        cs('app', running, { ready: true, restartCount: 2, ...lastTerminated(180) }),
        cs('log', waiting('CrashLoopBackOff'), { restartCount: 1, ...lastTerminated(30) }),
      ],
    }),
    '1/2',
    'CrashLoopBackOff',
    '3 (30s ago)',
  ],
  ['restarts without a recorded termination time', pod({}, { phase: 'Running', containerStatuses: [cs('app', running, { ready: true, restartCount: 4 })] }), '1/1', 'Running', '4'],
  ['pending, no statuses yet', pod({}, { phase: 'Pending' }), '0/1', 'Pending', '0'],
  ['waiting to pull an image', pod({}, { phase: 'Pending', containerStatuses: [cs('app', waiting('ContainerCreating'))] }), '0/1', 'ContainerCreating', '0'],
  ['scheduling gated', pod({}, { phase: 'Pending', conditions: [cond('PodScheduled', 'False', 'SchedulingGated')] }), '0/1', 'SchedulingGated', '0'],
  ['the pod reason wins over the phase', pod({}, { phase: 'Failed', reason: 'Evicted' }), '0/1', 'Evicted', '0'],
  ['completed', pod({}, { phase: 'Succeeded', containerStatuses: [cs('app', terminated({ exitCode: 0, reason: 'Completed' }))] }), '0/1', 'Completed', '0'],
  ['failed with a reason', pod({}, { phase: 'Failed', containerStatuses: [cs('app', terminated({ exitCode: 2, reason: 'Error' }))] }), '0/1', 'Error', '0'],
  ['terminated by a signal, no reason', pod({}, { phase: 'Failed', containerStatuses: [cs('app', terminated({ exitCode: 137, signal: 9 }))] }), '0/1', 'Signal:9', '0'],
  ['terminated, no reason, no signal', pod({}, { phase: 'Failed', containerStatuses: [cs('app', terminated({ exitCode: 137 }))] }), '0/1', 'ExitCode:137', '0'],
  [
    'Completed with a container still running, pod Ready → Running',
    pod(twoContainers, {
      phase: 'Running',
      conditions: [cond('Ready', 'True')],
      containerStatuses: [cs('app', running, { ready: true }), cs('log', terminated({ exitCode: 0, reason: 'Completed' }))],
    }),
    '1/2',
    'Running',
    '0',
  ],
  [
    'Completed with a container still running, pod not Ready → NotReady',
    pod(twoContainers, {
      phase: 'Running',
      conditions: [cond('Ready', 'False')],
      containerStatuses: [cs('app', running, { ready: true }), cs('log', terminated({ exitCode: 0, reason: 'Completed' }))],
    }),
    '1/2',
    'NotReady',
    '0',
  ],
  [
    'terminating',
    pod({}, { phase: 'Running', containerStatuses: [cs('app', running, { ready: true })] }, { deletionTimestamp: ago(5), deletionGracePeriodSeconds: 30 }),
    '1/1',
    'Terminating',
    '0',
  ],
  [
    'terminating on a lost node → Unknown',
    pod({}, { phase: 'Running', reason: 'NodeLost', containerStatuses: [cs('app', running, { ready: true })] }, { deletionTimestamp: ago(5) }),
    '1/1',
    'Unknown',
    '0',
  ],
];

const INIT = { initContainers: [{ name: 'init-a', image: 'i' }, { name: 'init-b', image: 'i' }] };

/** Init container cases: [case, init statuses, Status, Restarts]. */
const INIT_CASES: Array<[string, Obj[], string, string]> = [
  ['first init running', [cs('init-a', running), cs('init-b', waiting())], 'Init:0/2', '0'],
  ['second init running after the first completed', [cs('init-a', terminated({ exitCode: 0, reason: 'Completed' })), cs('init-b', running)], 'Init:1/2', '0'],
  ['waiting with PodInitializing counts as i/n', [cs('init-a', waiting('PodInitializing')), cs('init-b', waiting())], 'Init:0/2', '0'],
  ['waiting with a reason', [cs('init-a', waiting('ImagePullBackOff')), cs('init-b', waiting())], 'Init:ImagePullBackOff', '0'],
  ['crash looping, restarts counted from init containers', [cs('init-a', waiting('CrashLoopBackOff'), { restartCount: 3, ...lastTerminated(90) }), cs('init-b', waiting())], 'Init:CrashLoopBackOff', '3 (90s ago)'],
  ['failed with a reason', [cs('init-a', terminated({ exitCode: 1, reason: 'Error' })), cs('init-b', waiting())], 'Init:Error', '0'],
  ['failed without a reason', [cs('init-a', terminated({ exitCode: 3 })), cs('init-b', waiting())], 'Init:ExitCode:3', '0'],
  ['exit code 0 counts as done even with a signal (the app containers decide)', [cs('init-a', terminated({ exitCode: 0, signal: 15 }))], 'PodInitializing', '0'],
  ['killed by a signal with a failing exit code', [cs('init-a', terminated({ exitCode: 143, signal: 15 }))], 'Init:Signal:15', '0'],
];

describe('apis/printers: Pod', () => {
  for (const [name, obj, ready, status, restarts] of CASES) {
    it(name, () => {
      expect(cellsOf(podKind, obj).slice(0, 5)).to.deep.equal(['web', ready, status, restarts, '3m12s']);
    });
  }

  describe('init containers', () => {
    for (const [name, statuses, status, restarts] of INIT_CASES) {
      it(name, () => {
        const obj = pod(INIT, { phase: 'Pending', initContainerStatuses: statuses, containerStatuses: [cs('app', waiting('PodInitializing'))] });
        expect(cellsOf(podKind, obj).slice(1, 4)).to.deep.equal(['0/1', status, restarts]);
      });
    }

    it('once initialized, app containers decide; restarts of plain init containers no longer count', () => {
      const obj = pod(INIT, {
        phase: 'Running',
        conditions: [cond('Initialized', 'True'), cond('Ready', 'True')],
        initContainerStatuses: [cs('init-a', terminated({ exitCode: 0, reason: 'Completed' }), { restartCount: 2, ...lastTerminated(500) }), cs('init-b', terminated({ exitCode: 0, reason: 'Completed' }))],
        containerStatuses: [cs('app', running, { ready: true })],
      });
      expect(cellsOf(podKind, obj).slice(1, 4)).to.deep.equal(['1/1', 'Running', '0']);
    });

    it('a sidecar (restartPolicy Always) counts as a container; its restarts and readiness count', () => {
      const obj = pod(
        { initContainers: [{ name: 'proxy', image: 'p', restartPolicy: 'Always' }] },
        {
          phase: 'Running',
          conditions: [cond('Initialized', 'True'), cond('Ready', 'True')],
          initContainerStatuses: [cs('proxy', running, { ready: true, started: true, restartCount: 1, ...lastTerminated(45) })],
          containerStatuses: [cs('app', running, { ready: true, restartCount: 1, ...lastTerminated(600) })],
        },
      );
      expect(cellsOf(podKind, obj).slice(1, 4)).to.deep.equal(['2/2', 'Running', '2 (45s ago)']);
    });

    it('a sidecar not started yet holds initialization', () => {
      const obj = pod(
        { initContainers: [{ name: 'proxy', image: 'p', restartPolicy: 'Always' }] },
        { phase: 'Pending', initContainerStatuses: [cs('proxy', running, { started: false })], containerStatuses: [cs('app', waiting('PodInitializing'))] },
      );
      expect(cellsOf(podKind, obj).slice(1, 3)).to.deep.equal(['0/2', 'Init:0/1']);
    });
  });

  describe('wide columns', () => {
    it('IP (first of podIPs), Node, Nominated Node, Readiness Gates (true / all)', () => {
      const obj = pod(
        { nodeName: 'node-1', readinessGates: [{ conditionType: 'example.io/lb' }, { conditionType: 'example.io/dns' }] },
        {
          phase: 'Running',
          podIP: '10.0.0.9',
          podIPs: [{ ip: '10.0.0.9' }, { ip: 'fd00::9' }],
          nominatedNodeName: 'node-2',
          conditions: [cond('example.io/lb', 'True'), cond('example.io/dns', 'False')],
        },
      );
      expect(cellsOf(podKind, obj).slice(5)).to.deep.equal(['10.0.0.9', 'node-1', 'node-2', '1/2']);
    });

    it('<none> for each when absent', () => {
      expect(cellsOf(podKind, pod({}, { phase: 'Pending' })).slice(5)).to.deep.equal(['<none>', '<none>', '<none>', '<none>']);
    });
  });

  describe('row conditions', () => {
    it('Succeeded → Completed (reason Succeeded)', () => {
      const c = rowOf(podKind, pod({}, { phase: 'Succeeded' })).conditions!;
      expect(c.map((x) => [x.type, x.status, x.reason])).to.deep.equal([['Completed', 'True', 'Succeeded']]);
      expect(c[0]!.message).to.be.a('string');
    });
    it('Failed → Completed (reason Failed)', () => {
      const c = rowOf(podKind, pod({}, { phase: 'Failed' })).conditions!;
      expect(c.map((x) => [x.type, x.status, x.reason])).to.deep.equal([['Completed', 'True', 'Failed']]);
    });
    it('none while running', () => {
      expect(rowOf(podKind, pod({}, { phase: 'Running' }))).to.not.have.property('conditions');
    });
  });
});
