import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { parseFieldSelector } from '../../../../lib/apimachinery/fields/selector.js';
import { parseLabelSelector } from '../../../../lib/apimachinery/labels/selector.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { type ComponentProbe, type ProbeOutcome, etcdProbe } from '../../../../lib/registry/core/componentstatus/probes.js';
import { ComponentStatusREST, componentStatusOf, newComponentStatusREST } from '../../../../lib/registry/core/componentstatus/rest.js';
import { internalContext } from '../../../../lib/request/context.js';

const ctx = internalContext({ name: 'test', groups: [] });
const fixed = (outcome: ProbeOutcome): ComponentProbe => ({ check: async () => outcome });
const healthy = fixed({ result: 'Success', message: '', error: '' });
const selectors = (field = '', label = '') => ({ field: parseFieldSelector(field), label: parseLabelSelector(label) });
const names = (list: Obj) => (list.items as Obj[]).map((i) => (i.metadata as Obj).name);

describe('registry/core/componentstatus: probes (upstream componentstatus validator)', () => {
  it('etcd answering: Success with no message or error', async () => {
    expect(await etcdProbe(async () => 7).check()).to.deep.equal({ result: 'Success', message: '', error: '' });
  });

  it('etcd failing: Failure with the error of upstream etcd prober', async () => {
    const outcome = await etcdProbe(() => Promise.reject(new Error('connection refused'))).check();
    expect(outcome).to.deep.equal({ result: 'Failure', message: '', error: 'error getting data from etcd: connection refused' });
  });

  it('etcd not answering within the timeout: Failure with Go context deadline error', async () => {
    const outcome = await etcdProbe(() => new Promise(() => undefined), 20).check();
    expect(outcome).to.deep.equal({ result: 'Failure', message: '', error: 'error getting data from etcd: context deadline exceeded' });
  });
});

describe('registry/core/componentstatus: REST (upstream componentstatus rest.go)', () => {
  it('maps probe results to the Healthy condition status as upstream ToConditionStatus', () => {
    const status = (result: ProbeOutcome['result']) => ((componentStatusOf('x', { result, message: '', error: '' }).conditions as Obj[])[0]!).status;
    expect(['Success', 'Warning', 'Failure', 'Unknown'].map((r) => status(r as ProbeOutcome['result']))).to.deep.equal(['True', 'True', 'False', 'Unknown']);
  });

  it('writes a ComponentStatus as upstream: name only, creationTimestamp null, empty message and error left out', () => {
    expect(JSON.stringify(componentStatusOf('etcd-0', { result: 'Success', message: '', error: '' }))).to.equal(
      '{"kind":"ComponentStatus","apiVersion":"v1","metadata":{"name":"etcd-0","creationTimestamp":null},"conditions":[{"type":"Healthy","status":"True"}]}',
    );
    expect(componentStatusOf('scheduler', { result: 'Failure', message: 'refused', error: 'e' }).conditions).to.deep.equal([{ type: 'Healthy', status: 'False', message: 'refused', error: 'e' }]);
  });

  it('gets one component, probed now', async () => {
    let probes = 0;
    const rest = new ComponentStatusREST(() => new Map([['etcd-0', { check: async () => (probes++, { result: 'Success', message: '', error: '' }) } as ComponentProbe]]));
    await rest.get(ctx, '', 'etcd-0');
    await rest.get(ctx, '', 'etcd-0');
    expect(probes).to.equal(2);
  });

  it('a get of an unknown component is a 500 `Component not found: <name>` without reason, as upstream', async () => {
    const rest = new ComponentStatusREST(() => new Map([['etcd-0', healthy]]));
    const err = await rest.get(ctx, '', 'scheduler').then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(StatusError);
    expect((err as StatusError).status).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Component not found: scheduler', code: 500 });
  });

  it('lists every component sorted by name, filtered by field and label selectors', async () => {
    const rest = new ComponentStatusREST(() => new Map([['scheduler', fixed({ result: 'Failure', message: 'x', error: '' })], ['etcd-0', healthy], ['controller-manager', healthy]]));
    const all = await rest.list(ctx, '', selectors());
    expect(all).to.include({ kind: 'ComponentStatusList', apiVersion: 'v1' });
    expect(all.metadata).to.deep.equal({});
    expect(names(all)).to.deep.equal(['controller-manager', 'etcd-0', 'scheduler']);
    expect(names(await rest.list(ctx, '', selectors('metadata.name=etcd-0')))).to.deep.equal(['etcd-0']);
    expect(names(await rest.list(ctx, '', selectors('metadata.name!=etcd-0,metadata.namespace=')))).to.deep.equal(['controller-manager', 'scheduler']);
    expect(names(await rest.list(ctx, '', selectors('', 'tier=control-plane')))).to.deep.equal([]);
  });

  it('serves one component, etcd-0, probing the storage', async () => {
    const rest = newComponentStatusREST(async () => 1);
    expect(names(await rest.list(ctx, '', selectors()))).to.deep.equal(['etcd-0']);
    expect(rest.fieldLabels).to.deep.equal(['metadata.name', 'metadata.namespace']);
  });
});
