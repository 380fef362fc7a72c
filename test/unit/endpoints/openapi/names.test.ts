import { expect } from 'chai';
import { ExtensionWriter, definitionName, groupVersionPrefix, operationIdInfix, operationTag, toValidOperationID, v3DocumentPath } from '../../../../lib/endpoints/openapi/names.js';

describe('openapi names (issue #6 item 1)', () => {
  it('prefixes definition ids with the vendor domain reversed, as upstream io.k8s.', () => {
    expect(definitionName('api.core.v1.Pod')).to.equal('io.orch.api.core.v1.Pod');
    expect(definitionName('apimachinery.pkg.apis.meta.v1.ObjectMeta')).to.equal('io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  });

  it('builds operation ids as upstream ToValidOperationID', () => {
    const cases: [string, boolean, string][] = [
      ['core', true, 'Core'],
      ['v1', true, 'V1'],
      ['rbac.authorization', true, 'RbacAuthorization'],
      ['rbac.authorization', false, 'rbacAuthorization'],
      ['flow-control_x/y', true, 'FlowControl_xY'],
      ['1abc', true, 'Abc'],
    ];
    for (const [s, cap, want] of cases) expect(toValidOperationID(s, cap), s).to.equal(want);
  });

  it('drops the vendor group suffix from operation ids and tags; the core group is "core"', () => {
    expect(operationIdInfix('', 'v1')).to.equal('CoreV1');
    expect(operationIdInfix('apps', 'v1')).to.equal('AppsV1');
    expect(operationIdInfix('rbac.authorization.orch.io', 'v1')).to.equal('RbacAuthorizationV1');
    expect(operationIdInfix('coordination.orch.io', 'v1')).to.equal('CoordinationV1');
    expect(operationTag('', 'v1')).to.equal('core_v1');
    expect(operationTag('rbac.authorization.orch.io', 'v1')).to.equal('rbacAuthorization_v1');
  });

  it('names group-version prefixes and v3 document paths', () => {
    expect(groupVersionPrefix('', 'v1')).to.equal('/api/v1');
    expect(groupVersionPrefix('apps', 'v1')).to.equal('/apis/apps/v1');
    expect(v3DocumentPath('', 'v1')).to.equal('api/v1');
    expect(v3DocumentPath('coordination.orch.io', 'v1')).to.equal('apis/coordination.orch.io/v1');
  });

  it('names an upstream alias group by its whole name, so its ids and tags never take the vendor ones (issue #9)', () => {
    expect(operationIdInfix('rbac.authorization.k8s.io', 'v1')).to.equal('RbacAuthorizationK8sIoV1');
    expect(operationTag('rbac.authorization.k8s.io', 'v1')).to.equal('rbacAuthorizationK8sIo_v1');
    expect(operationIdInfix('coordination.k8s.io', 'v1')).to.equal('CoordinationK8sIoV1');
    expect(operationIdInfix('coordination.k8s.io', 'v1')).to.not.equal(operationIdInfix('coordination.orch.io', 'v1'));
  });

  const write = (upstreamNames: boolean) => {
    const ext = new ExtensionWriter(upstreamNames);
    const o: Record<string, unknown> = {};
    ext.set(o, 'list-type', 'set');
    ext.set(o, 'patch-strategy', 'merge');
    ext.set(o, 'patch-merge-key', 'name');
    ext.gvk(o, [{ group: '', kind: 'Pod', version: 'v1' }]);
    ext.action(o, 'get');
    return o;
  };

  it('writes vendor extensions, and with the upstream aliases on the upstream name of the stock-client ones', () => {
    expect(write(true)).to.deep.equal({
      'x-orch-list-type': 'set',
      'x-orch-patch-strategy': 'merge',
      'x-kubernetes-patch-strategy': 'merge',
      'x-orch-patch-merge-key': 'name',
      'x-kubernetes-patch-merge-key': 'name',
      'x-orch-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
      'x-orch-action': 'get',
    });
  });

  it('writes only the vendor names with the upstream aliases off (issue #9)', () => {
    expect(write(false)).to.deep.equal({
      'x-orch-list-type': 'set',
      'x-orch-patch-strategy': 'merge',
      'x-orch-patch-merge-key': 'name',
      'x-orch-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
      'x-orch-action': 'get',
    });
  });
});
