import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const APPS = '/apis/apps/v1/namespaces/default';
const CORE = '/api/v1/namespaces/default';
const MERGE = 'application/merge-patch+json';

const template = (app: string, image = 'nginx:1.25') => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image }] } });
const statefulSet = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: template(name),
    serviceName: name,
    updateStrategy: { rollingUpdate: { maxUnavailable: 2 } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
});
const daemonSet = (name: string) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name }, spec: { selector: { matchLabels: { app: name } }, template: template(name) } });
const replicaSet = (name: string, replicas = 1) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name }, spec: { replicas, selector: { matchLabels: { app: name } }, template: template(name) } });
const replicationController = (name: string, replicas = 1) => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name }, spec: { replicas, template: template(name) } });
const controllerRevision = (name: string) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data: { spec: { template: { $patch: 'replace' } } }, revision: 1 });

/** One kind of the suite: its collection, a valid object factory and the spec change a PUT makes. */
interface Case {
  kind: string;
  collection: string;
  make: (name: string) => Record<string, unknown>;
  status?: Record<string, unknown>;
}

const CASES: Case[] = [
  { kind: 'StatefulSet', collection: `${APPS}/statefulsets`, make: statefulSet, status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 } },
  { kind: 'DaemonSet', collection: `${APPS}/daemonsets`, make: daemonSet, status: { currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1 } },
  { kind: 'ReplicaSet', collection: `${APPS}/replicasets`, make: replicaSet, status: { replicas: 1, readyReplicas: 1 } },
  { kind: 'ReplicationController', collection: `${CORE}/replicationcontrollers`, make: replicationController, status: { replicas: 1, readyReplicas: 1 } },
  { kind: 'ControllerRevision', collection: `${APPS}/controllerrevisions`, make: controllerRevision },
];

describe('apps/v1 workload kinds and core/v1 ReplicationController over HTTP (issue #12 item 1)', () => {
  const server = useTestServer();

  describe('discovery', () => {
    it('lists the apps/v1 resources in upstream order with short names, categories and subresources', async () => {
      const res = await server().admin.get('/apis/apps/v1');
      expect(res.status).to.equal(200);
      const byName = new Map<string, Record<string, unknown>>(res.body.resources.map((r: Record<string, unknown>) => [r.name, r]));
      // Upstream lists a group version's resources by name.
      const workloads = ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'];
      expect([...byName.keys()].filter((n) => workloads.includes(n))).to.deep.equal(workloads);
      expect(byName.get('statefulsets')).to.deep.include({ kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ['all'] });
      expect(byName.get('daemonsets')).to.deep.include({ kind: 'DaemonSet', shortNames: ['ds'], categories: ['all'] });
      expect(byName.get('replicasets')).to.deep.include({ kind: 'ReplicaSet', shortNames: ['rs'], categories: ['all'] });
      expect(byName.get('controllerrevisions')).to.include({ kind: 'ControllerRevision', namespaced: true });
      expect(byName.get('controllerrevisions')).not.to.have.property('shortNames');
      expect(byName.get('controllerrevisions')).not.to.have.property('categories');
      for (const r of ['statefulsets', 'daemonsets', 'replicasets']) expect(byName.has(`${r}/status`), r).to.equal(true);
      expect(byName.has('controllerrevisions/status')).to.equal(false);
    });

    it('lists replicationcontrollers in core/v1 with rc, category all and a status subresource', async () => {
      const res = await server().admin.get('/api/v1');
      const rc = res.body.resources.find((r: Record<string, unknown>) => r.name === 'replicationcontrollers');
      expect(rc).to.deep.include({ kind: 'ReplicationController', namespaced: true, shortNames: ['rc'], categories: ['all'] });
      expect(res.body.resources.some((r: Record<string, unknown>) => r.name === 'replicationcontrollers/status')).to.equal(true);
    });
  });

  for (const c of CASES) {
    describe(`${c.kind}: create, get, list, update, patch, delete`, () => {
      it('creates (201), gets, lists, updates, patches and deletes', async () => {
        const admin = server().admin;
        const created = await admin.post(c.collection, c.make('crud'));
        expect(created.status, created.text).to.equal(201);
        expect(created.body).to.include({ kind: c.kind });
        const path = `${c.collection}/crud`;
        expect((await admin.get(path)).body.metadata.uid).to.equal(created.body.metadata.uid);
        const list = await admin.get(c.collection);
        expect(list.body.kind).to.equal(`${c.kind}List`);
        expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('crud');
        const labelled = { ...created.body, metadata: { ...created.body.metadata, labels: { ...created.body.metadata.labels, put: 'yes' } } };
        const put = await admin.put(path, labelled);
        expect(put.status, put.text).to.equal(200);
        expect(put.body.metadata.labels.put).to.equal('yes');
        const patched = await admin.patch(path, { metadata: { annotations: { patched: 'yes' } } }, MERGE);
        expect(patched.status, patched.text).to.equal(200);
        expect(patched.body.metadata.annotations.patched).to.equal('yes');
        expect((await admin.delete(path)).status).to.equal(200);
        expect((await admin.get(path)).status).to.equal(404);
      });

      if (c.status) {
        it('writes status only through the status subresource; main writes keep it', async () => {
          const admin = server().admin;
          const created = (await admin.post(c.collection, { ...c.make('status'), status: c.status })).body;
          expect(created.status).not.to.deep.include(c.status);
          const path = `${c.collection}/status`;
          const written = await admin.put(`${path}/status`, { ...created, status: c.status });
          expect(written.status, written.text).to.equal(200);
          expect(written.body.status).to.deep.include(c.status);
          const main = await admin.put(path, { ...written.body, status: {} });
          expect(main.status, main.text).to.equal(200);
          expect(main.body.status).to.deep.include(c.status);
        });

        it('starts at generation 1 and bumps it on spec changes only', async () => {
          const admin = server().admin;
          const created = (await admin.post(c.collection, c.make('gen'))).body;
          expect(created.metadata.generation).to.equal(1);
          const labelled = await admin.patch(`${c.collection}/gen`, { metadata: { labels: { x: 'y' } } }, MERGE);
          expect(labelled.body.metadata.generation).to.equal(1);
          const image = await admin.patch(`${c.collection}/gen`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } } }, MERGE);
          expect(image.status, image.text).to.equal(200);
          expect(image.body.metadata.generation).to.equal(2);
        });
      }
    });
  }

  describe('defaults visible on the wire', () => {
    it('StatefulSet: OrderedReady, RollingUpdate partition 0 (alpha maxUnavailable dropped), Retain/Retain, claim template defaults', async () => {
      const res = await server().admin.post(`${APPS}/statefulsets`, statefulSet('defaults'));
      expect(res.status, res.text).to.equal(201);
      const { template: _t, ...spec } = res.body.spec;
      expect(spec).to.deep.equal({
        replicas: 1,
        selector: { matchLabels: { app: 'defaults' } },
        volumeClaimTemplates: [
          {
            kind: 'PersistentVolumeClaim',
            apiVersion: 'v1',
            metadata: { name: 'data', creationTimestamp: null },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
            status: { phase: 'Pending' },
          },
        ],
        serviceName: 'defaults',
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      });
      expect(res.body.status).to.deep.equal({ replicas: 0, availableReplicas: 0 });
    });

    it('DaemonSet: RollingUpdate maxUnavailable 1 maxSurge 0, history 10, template generation annotation 1', async () => {
      const res = await server().admin.post(`${APPS}/daemonsets`, daemonSet('defaults'));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.spec.updateStrategy).to.deep.equal({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
      expect(res.body.spec.revisionHistoryLimit).to.equal(10);
      expect(res.body.metadata.annotations).to.deep.equal({ 'deprecated.daemonset.template.generation': '1' });
      expect(res.body.status).to.deep.equal({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    });

    it('DaemonSet: the template generation follows template changes only', async () => {
      const admin = server().admin;
      await admin.post(`${APPS}/daemonsets`, daemonSet('templategen'));
      const path = `${APPS}/daemonsets/templategen`;
      const annotated = await admin.patch(path, { metadata: { annotations: { 'deprecated.daemonset.template.generation': '9' } }, spec: { minReadySeconds: 5 } }, MERGE);
      expect(annotated.body.metadata.annotations['deprecated.daemonset.template.generation']).to.equal('1');
      const changed = await admin.patch(path, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } } }, MERGE);
      expect(changed.body.metadata.annotations['deprecated.daemonset.template.generation']).to.equal('2');
    });

    it('ReplicaSet: 1 replica; ReplicationController: 1 replica, selector and labels from the template', async () => {
      const rs = await server().admin.post(`${APPS}/replicasets`, { ...replicaSet('defaults'), spec: { ...replicaSet('defaults').spec, replicas: undefined } });
      expect(rs.body.spec.replicas).to.equal(1);
      expect(rs.body.status).to.deep.equal({ replicas: 0 });
      const rc = await server().admin.post(`${CORE}/replicationcontrollers`, { ...replicationController('defaults'), spec: { template: template('defaults') } });
      expect(rc.status, rc.text).to.equal(201);
      expect(rc.body.spec).to.deep.include({ replicas: 1, selector: { app: 'defaults' } });
      expect(rc.body.metadata.labels).to.deep.equal({ app: 'defaults' });
    });
  });

  describe('422 Invalid with causes', () => {
    it('a DaemonSet whose template labels miss the selector', async () => {
      const body = daemonSet('bad');
      body.spec.template.metadata.labels = { app: 'other' };
      const res = await server().admin.post(`${APPS}/daemonsets`, body);
      expect(res.status).to.equal(422);
      expect(res.body).to.include({ kind: 'Status', reason: 'Invalid', code: 422 });
      expect(res.body.message).to.equal('DaemonSet.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`');
      expect(res.body.details).to.deep.include({ name: 'bad', group: 'apps', kind: 'DaemonSet' });
      expect(res.body.details.causes).to.deep.equal([
        { reason: 'FieldValueInvalid', message: 'Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`', field: 'spec.template.metadata.labels' },
      ]);
    });

    it('a StatefulSet update of a fixed spec field', async () => {
      const admin = server().admin;
      await admin.post(`${APPS}/statefulsets`, statefulSet('fixed'));
      const res = await admin.patch(`${APPS}/statefulsets/fixed`, { spec: { serviceName: 'other' } }, MERGE);
      expect(res.status).to.equal(422);
      expect(res.body.details.causes).to.deep.equal([
        {
          reason: 'FieldValueForbidden',
          message:
            "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
          field: 'spec',
        },
      ]);
      const scaled = await admin.patch(`${APPS}/statefulsets/fixed`, { spec: { replicas: 3, ordinals: { start: 1 } } }, MERGE);
      expect(scaled.status, scaled.text).to.equal(200);
    });

    it('a ReplicaSet selector change (immutable under apps/v1)', async () => {
      const admin = server().admin;
      await admin.post(`${APPS}/replicasets`, replicaSet('immutable'));
      const res = await admin.patch(`${APPS}/replicasets/immutable`, { spec: { selector: { matchLabels: { tier: 'x' } }, template: { metadata: { labels: { tier: 'x' } } } } }, MERGE);
      expect(res.status).to.equal(422);
      expect(res.body.details.causes.map((c: { field: string; reason: string }) => `${c.field} ${c.reason}`)).to.deep.equal(['spec.selector FieldValueInvalid']);
    });

    it('a ControllerRevision without data, and a change of its data', async () => {
      const admin = server().admin;
      const missing = await admin.post(`${APPS}/controllerrevisions`, { ...controllerRevision('nodata'), data: undefined });
      expect(missing.status).to.equal(422);
      expect(missing.body.details.causes).to.deep.equal([{ reason: 'FieldValueRequired', message: 'Required value: data is mandatory', field: 'data' }]);
      await admin.post(`${APPS}/controllerrevisions`, controllerRevision('frozen'));
      const changed = await admin.patch(`${APPS}/controllerrevisions/frozen`, { data: { other: true } }, MERGE);
      expect(changed.status).to.equal(422);
      expect(changed.body.details.causes[0]).to.include({ reason: 'FieldValueInvalid', field: 'data' });
      const revised = await admin.patch(`${APPS}/controllerrevisions/frozen`, { revision: 2 }, MERGE);
      expect(revised.status, revised.text).to.equal(200);
    });

    it('a ReplicationController without a selector or template labels', async () => {
      const res = await server().admin.post(`${CORE}/replicationcontrollers`, { metadata: { name: 'noselector' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal('ReplicationController "noselector" is invalid: spec.selector: Required value');
    });
  });

  describe('field selector status.replicas', () => {
    const names = (res: { body: { items: { metadata: { name: string } }[] } }) => res.body.items.map((i) => i.metadata.name).sort();

    for (const [kind, collection, make] of [
      ['ReplicaSet', `${APPS}/replicasets`, replicaSet],
      ['ReplicationController', `${CORE}/replicationcontrollers`, replicationController],
    ] as const) {
      it(`selects ${kind}s by status.replicas (0 until the controller reports)`, async () => {
        const admin = server().admin;
        const created = (await admin.post(collection, make('fs-two', 2))).body;
        await admin.post(collection, make('fs-none', 2));
        const st = await admin.put(`${collection}/fs-two/status`, { ...created, status: { replicas: 2 } });
        expect(st.status, st.text).to.equal(200);
        expect(names(await admin.get(`${collection}?fieldSelector=status.replicas%3D2`))).to.deep.equal(['fs-two']);
        expect(names(await admin.get(`${collection}?fieldSelector=status.replicas%3D0`))).to.include('fs-none').and.not.include('fs-two');
        const bad = await admin.get(`${collection}?fieldSelector=spec.replicas%3D2`);
        expect(bad.status).to.equal(400);
      });
    }
  });
});
