import { expect } from 'chai';
import { APISERVICE_AUTOMANAGED_LABEL, upstreamAlias, vendorGroup } from '../../../../lib/apis/vendor.js';
import { desiredAPIServices } from '../../../../lib/controllers/apiservice-registration/controller.js';
import { apiServicePriority } from '../../../../lib/apis/apiregistration/v1/priorities.js';

describe('controllers/apiservice-registration: the APIServices of the served group versions (upstream kube-apiserver autoregistration)', () => {
  it('names each <version>.<group> (v1. for core), local, with the upstream v1.30 priorities and the onstart label', () => {
    const desired = desiredAPIServices([
      { group: '', version: 'v1' },
      { group: 'apps', version: 'v1' },
      { group: vendorGroup('rbac.authorization'), version: 'v1' },
    ]);
    expect(desired).to.deep.equal([
      { metadata: { name: 'v1.', labels: { [APISERVICE_AUTOMANAGED_LABEL]: 'onstart' } }, spec: { service: null, group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 } },
      { metadata: { name: 'v1.apps', labels: { [APISERVICE_AUTOMANAGED_LABEL]: 'onstart' } }, spec: { service: null, group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 } },
      {
        metadata: { name: `v1.${vendorGroup('rbac.authorization')}`, labels: { [APISERVICE_AUTOMANAGED_LABEL]: 'onstart' } },
        spec: { service: null, group: vendorGroup('rbac.authorization'), version: 'v1', groupPriorityMinimum: 17000, versionPriority: 15 },
      },
    ]);
  });

  it('skips upstream aliases, group versions without a priority (the API registration group itself, custom groups) and repeats', () => {
    const desired = desiredAPIServices([
      { group: 'apps', version: 'v1' },
      { group: 'apps', version: 'v1' },
      { group: upstreamAlias(vendorGroup('rbac.authorization'))!, version: 'v1', aliasOf: vendorGroup('rbac.authorization') },
      { group: vendorGroup('apiregistration'), version: 'v1' },
      { group: 'stable.example.com', version: 'v1' },
    ]);
    expect(desired.map((d) => (d.metadata as { name: string }).name)).to.deep.equal(['v1.apps']);
  });

  it('keeps the upstream v1.30 table for the served groups', () => {
    const rows: [string, string, number, number][] = [
      ['batch', 'v1', 17400, 15],
      ['autoscaling', 'v2', 17500, 30],
      ['policy', 'v1', 17100, 15],
      [vendorGroup('events'), 'v1', 17750, 15],
      [vendorGroup('authentication'), 'v1', 17700, 15],
      [vendorGroup('authorization'), 'v1', 17600, 15],
      [vendorGroup('certificates'), 'v1', 17300, 15],
      [vendorGroup('networking'), 'v1', 17200, 15],
      [vendorGroup('storage'), 'v1', 16800, 15],
      [vendorGroup('admissionregistration'), 'v1', 16700, 15],
      [vendorGroup('apiextensions'), 'v1', 16700, 15],
      [vendorGroup('scheduling'), 'v1', 16600, 15],
      [vendorGroup('coordination'), 'v1', 16500, 15],
      [vendorGroup('node'), 'v1', 16300, 15],
      [vendorGroup('discovery'), 'v1', 16200, 15],
      [vendorGroup('flowcontrol.apiserver'), 'v1', 16100, 21],
      [vendorGroup('flowcontrol.apiserver'), 'v1beta3', 16100, 18],
    ];
    for (const [group, version, g, v] of rows) expect(apiServicePriority(group, version), `${version}.${group}`).to.deep.equal({ group: g, version: v });
  });
});
