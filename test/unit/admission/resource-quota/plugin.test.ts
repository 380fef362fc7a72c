import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { ResourceQuotaAdmission } from '../../../../lib/admission/plugins/resource-quota/plugin.js';
import type { QuotaAccess } from '../../../../lib/admission/plugins/resource-quota/reserver.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const ctx = internalContext({ name: 'test', groups: [] });
const QUOTA: Obj = { metadata: { name: 'q', namespace: 'ns', resourceVersion: '1' }, spec: { hard: { 'count/configmaps': '0', 'count/events': '0', services: '1' } }, status: { hard: { 'count/configmaps': '0', 'count/events': '0', services: '1' }, used: { 'count/configmaps': '0', 'count/events': '0', services: '1' } } };

/** Quotas that count reads and writes: the plugin must not touch them for what it does not evaluate. */
function access(): QuotaAccess & { lookups: number } {
  const a = {
    lookups: 0,
    lister: {
      get: () => QUOTA,
      list: (ns?: string) => {
        a.lookups++;
        return ns === 'ns' ? [QUOTA] : [];
      },
      generation: () => 0,
    },
    get: async () => QUOTA,
    updateStatus: async (_c: unknown, o: Obj) => o,
  };
  return a;
}
const attrs = (a: Partial<AdmissionAttributes>) => admissionAttrs({ name: 'u', groups: [] }, { namespace: 'ns', object: { metadata: { name: 'x' } }, ...a });

describe('ResourceQuota plugin: what it evaluates', () => {
  it('rejects a create a quota forbids, in the validating phase only', async () => {
    const p = new ResourceQuotaAdmission(access(), ctx);
    expect(p.handles('CREATE') && p.handles('UPDATE')).to.equal(true);
    expect(p.handles('DELETE') || p.handles('CONNECT')).to.equal(false);
    expect((p as { admit?: unknown }).admit).to.equal(undefined);
    const err = await p.validate(ctx, attrs({ resource: 'configmaps', kind: 'ConfigMap' })).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).to.equal('configmaps "x" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=0, limited: count/configmaps=0');
  });

  it('leaves alone subresources, cluster-scoped objects, ignored resources and updates whose cost cannot change', async () => {
    const a = access();
    const p = new ResourceQuotaAdmission(a, ctx);
    await p.validate(ctx, attrs({ resource: 'configmaps', subresource: 'status' }));
    await p.validate(ctx, attrs({ resource: 'namespaces', namespace: '' }));
    await p.validate(ctx, attrs({ resource: 'events' }));
    await p.validate(ctx, attrs({ group: vendorGroup('authorization'), resource: 'selfsubjectaccessreviews' }));
    expect(a.lookups, 'not even a cache lookup').to.equal(0);
    await p.validate(ctx, attrs({ operation: 'UPDATE', resource: 'configmaps', oldObject: { metadata: { name: 'x', resourceVersion: '1' } } }));
    const svc = { metadata: { name: 's', resourceVersion: '1' }, spec: { type: 'ClusterIP' } };
    const err = await p.validate(ctx, attrs({ operation: 'UPDATE', resource: 'services', object: svc, oldObject: svc })).then(() => null, (e: Error) => e);
    expect(err, 'an unchanged service costs nothing more').to.equal(null);
  });

  it('admits everything in a namespace without quotas with one cache lookup', async () => {
    const a = access();
    const p = new ResourceQuotaAdmission(a, ctx);
    await p.validate(ctx, attrs({ namespace: 'free', resource: 'configmaps' }));
    expect(a.lookups).to.equal(1);
  });
});
