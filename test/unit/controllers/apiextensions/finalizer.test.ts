import { expect } from 'chai';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../../../../lib/apiextensions/types.js';
import { newNotFound } from '../../../../lib/apimachinery/errors.js';
import { CRD_CLEANUP_FINALIZER } from '../../../../lib/apis/vendor.js';
import { setCondition } from '../../../../lib/controllers/apiextensions/conditions.js';
import {
  DELETION_COMPLETED,
  DELETION_IN_PROGRESS,
  NEVER_ESTABLISHED,
  OVERLAPPING_BUILT_IN,
  WAIT_TIMEOUT_MESSAGE,
  changedBeyondTerminating,
  checkFailed,
  cleanupPlan,
  deletesFailed,
  listFailed,
  needsFinalization,
  withoutCleanupFinalizer,
} from '../../../../lib/controllers/apiextensions/finalizer.js';
import { T0, T0S, T1, T1S, crd, names } from './fixtures.js';

const established: CustomResourceDefinitionCondition = { type: 'Established', status: 'True', lastTransitionTime: T0S, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };

function deleting(c: CustomResourceDefinition, finalizers = [CRD_CLEANUP_FINALIZER]): CustomResourceDefinition {
  return { ...c, metadata: { ...c.metadata, deletionTimestamp: T0S, finalizers } };
}

describe('CRD finalizer decisions (upstream CRDFinalizer)', () => {
  it('names the finalizer after the vendor group', () => {
    expect(CRD_CLEANUP_FINALIZER).to.equal('customresourcecleanup.apiextensions.orch.io');
  });

  it('works only on a CRD being deleted that still holds the cleanup finalizer', () => {
    const c = crd('g.io', names('foo'));
    expect(needsFinalization(c)).to.equal(false);
    expect(needsFinalization({ ...c, metadata: { ...c.metadata, finalizers: [CRD_CLEANUP_FINALIZER] } })).to.equal(false);
    expect(needsFinalization(deleting(c, ['other']))).to.equal(false);
    expect(needsFinalization(deleting(c, ['other', CRD_CLEANUP_FINALIZER]))).to.equal(true);
  });

  it('removes only the cleanup finalizer', () => {
    expect(withoutCleanupFinalizer(['a', CRD_CLEANUP_FINALIZER, 'b'])).to.deep.equal(['a', 'b']);
    expect(withoutCleanupFinalizer(undefined)).to.deep.equal([]);
  });

  it('deletes the objects of an Established CRD, skips a never established one', () => {
    expect(cleanupPlan(crd('g.io', names('foo'), names('foo'), [established]))).to.equal('delete');
    expect(cleanupPlan(crd('g.io', names('foo'), names('foo'), [{ ...established, status: 'False', reason: 'Installing' }]))).to.equal('neverEstablished');
    expect(cleanupPlan(crd('g.io', names('foo')))).to.equal('neverEstablished');
  });

  it('leaves the objects of a CRD overlapping a built-in resource in storage', () => {
    expect(cleanupPlan(crd('apiregistration.orch.io', names('apiservice'), undefined, [established]))).to.equal('skip');
    expect(cleanupPlan(crd('apiextensions.orch.io', names('customresourcedefinition'), undefined, [established]))).to.equal('skip');
    expect(cleanupPlan(crd('apiextensions.orch.io', names('apiservice'), undefined, [established]))).to.equal('delete');
  });

  it('Terminating conditions in upstream\'s words', () => {
    expect(DELETION_IN_PROGRESS).to.deep.equal({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
    expect(DELETION_COMPLETED).to.deep.equal({ type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
    expect(NEVER_ESTABLISHED).to.deep.equal({ type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' });
    expect(OVERLAPPING_BUILT_IN).to.deep.equal({ type: 'Terminating', status: 'False', reason: 'OverlappingBuiltInResource', message: 'instances overlap with built-in resources in storage' });
  });

  it('failure conditions carry the error text', () => {
    const gr = { group: 'g.io', resource: 'foos' };
    expect(listFailed(new Error('etcd unavailable'))).to.deep.equal({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: 'could not list instances: etcd unavailable' });
    expect(deletesFailed([newNotFound(gr, 'x')]).message).to.equal('could not issue all deletes: foos.g.io "x" not found');
    expect(deletesFailed([new Error('a'), new Error('b'), new Error('a')]).message).to.equal('could not issue all deletes: [a, b]');
    expect(deletesFailed(['plain']).message).to.equal('could not issue all deletes: plain');
    expect(checkFailed(new Error(WAIT_TIMEOUT_MESSAGE))).to.deep.equal({
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionCheck',
      message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition',
    });
  });

  it('Terminating transitions keep the time while True and move it when the deletion completes', () => {
    const status = { conditions: [] as CustomResourceDefinitionCondition[] };
    setCondition(status, DELETION_IN_PROGRESS, T0);
    setCondition(status, listFailed(new Error('x')), T1);
    expect(status.conditions).to.deep.equal([{ type: 'Terminating', status: 'True', lastTransitionTime: T0S, reason: 'InstanceDeletionFailed', message: 'could not list instances: x' }]);
    setCondition(status, DELETION_IN_PROGRESS, T1);
    setCondition(status, DELETION_COMPLETED, T1);
    expect(status.conditions).to.deep.equal([{ type: 'Terminating', status: 'False', lastTransitionTime: T1S, reason: 'InstanceDeletionCompleted', message: 'removed all instances' }]);
  });

  it('is not woken by its own Terminating writes, but by any other change or a relist', () => {
    const base = deleting(crd('g.io', names('foo'), names('foo'), [established]));
    const withTerminating = (cond: typeof DELETION_IN_PROGRESS, rv: string): CustomResourceDefinition => {
      const status = { ...base.status, conditions: base.status!.conditions!.map((c) => ({ ...c })) };
      setCondition(status, cond, T1);
      return { ...base, metadata: { ...base.metadata, resourceVersion: rv }, status };
    };
    const a = withTerminating(DELETION_IN_PROGRESS, '6');
    const b = withTerminating(listFailed(new Error('x')), '7');
    expect(changedBeyondTerminating(a, b)).to.equal(false);
    expect(changedBeyondTerminating(a, { ...b, metadata: { ...b.metadata, managedFields: [{ manager: 'orch-apiserver', time: T1S }] } })).to.equal(false);
    expect(changedBeyondTerminating(a, { ...a })).to.equal(true);
    expect(changedBeyondTerminating(a, { ...b, metadata: { ...b.metadata, labels: { l: 'v' } } })).to.equal(true);
  });
});
