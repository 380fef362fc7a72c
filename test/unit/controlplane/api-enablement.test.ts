import { expect } from 'chai';
import { type KnownResource, resolveAPIEnablement } from '../../../lib/controlplane/api-enablement.js';
import { applyRuntimeConfig, EMPTY_RUNTIME_CONFIG } from '../../../lib/server/options/runtime-config.js';

const FC = 'flowcontrol.apiserver.orch.io';
const known: KnownResource[] = [
  { group: '', version: 'v1', resource: 'pods' },
  { group: '', version: 'v1', resource: 'configmaps' },
  { group: 'apps', version: 'v1', resource: 'deployments' },
  { group: 'batch', version: 'v1', resource: 'jobs' },
  { group: 'batch', version: 'v1', resource: 'cronjobs' },
  { group: FC, version: 'v1', resource: 'flowschemas' },
  { group: FC, version: 'v1', resource: 'prioritylevelconfigurations' },
  { group: FC, version: 'v1beta3', resource: 'flowschemas' },
  { group: FC, version: 'v1beta3', resource: 'prioritylevelconfigurations' },
  { group: 'storage.orch.io', version: 'v1beta1', resource: 'volumeattributesclasses' },
  { group: 'storage.orch.io', version: 'v1', resource: 'storageclasses' },
  { group: 'resource.orch.io', version: 'v1alpha2', resource: 'resourceclaims' },
];

/** The `group/version/resource` keys served under `runtimeConfig`. */
function served(runtimeConfig: string): string[] {
  const e = resolveAPIEnablement(applyRuntimeConfig(EMPTY_RUNTIME_CONFIG, runtimeConfig), known);
  return known.filter((r) => e.resourceEnabled(r.group, r.version, r.resource)).map((r) => `${r.group}/${r.version}/${r.resource}`);
}
const all = known.map((r) => `${r.group}/${r.version}/${r.resource}`);
const without = (...keys: string[]) => all.filter((k) => !keys.some((x) => k.startsWith(x)));
const DEFAULTS = without('storage.orch.io/v1beta1', 'resource.orch.io/v1alpha2');

describe('--runtime-config resolution (upstream resourceconfig.MergeAPIResourceConfigs)', () => {
  const cases: Array<[string, string, string[]]> = [
    ['defaults: GA on, flowcontrol v1beta3 on (legacy beta on by default), other betas and alphas off', '', DEFAULTS],
    ['<group>/<version>=false disables a version', `${FC}/v1beta3=false`, without(`${FC}/v1beta3`, 'storage.orch.io/v1beta1', 'resource.orch.io/v1alpha2')],
    ['a key alone means true', 'storage.orch.io/v1beta1', without('resource.orch.io/v1alpha2')],
    ['every ParseBool word counts', 'storage.orch.io/v1beta1=T,resource.orch.io/v1alpha2=1', all],
    ['api/beta=true enables every beta', 'api/beta=true', without('resource.orch.io/v1alpha2')],
    ['api/beta=false also drops the beta resources on by default', 'api/beta=false', without(`${FC}/v1beta3`, 'storage.orch.io/v1beta1', 'resource.orch.io/v1alpha2')],
    ['api/alpha=true enables every alpha', 'api/alpha=true', without('storage.orch.io/v1beta1')],
    ['api/all=true enables everything', 'api/all=true', all],
    ['a version key wins over api/all', 'api/all=true,storage.orch.io/v1beta1=false', without('storage.orch.io/v1beta1')],
    [
      'api/all=false with core re-enabled as v1 (and flowcontrol v1, which priority and fairness needs)',
      `api/all=false,v1=true,${FC}/v1=true`,
      ['/v1/pods', '/v1/configmaps', `${FC}/v1/flowschemas`, `${FC}/v1/prioritylevelconfigurations`],
    ],
    ['core as api/v1', `api/all=false,api/v1=true,${FC}/v1=true`, ['/v1/pods', '/v1/configmaps', `${FC}/v1/flowschemas`, `${FC}/v1/prioritylevelconfigurations`]],
    ['core as /v1', '/v1=false', without('/v1', 'storage.orch.io/v1beta1', 'resource.orch.io/v1alpha2')],
    ['<group>/<version>/<resource>=false disables one resource', 'batch/v1/cronjobs=false', DEFAULTS.filter((k) => k !== 'batch/v1/cronjobs')],
    ['a resource key wins over its version key', 'batch/v1=false,batch/v1/jobs=true', DEFAULTS.filter((k) => k !== 'batch/v1/cronjobs')],
    ['a resource key enables one resource of a version off by default', 'storage.orch.io/v1beta1/volumeattributesclasses=true', all.filter((k) => DEFAULTS.includes(k) || k === 'storage.orch.io/v1beta1/volumeattributesclasses')],
    ['a version key forgets the default resource settings of its version', `${FC}/v1beta3=true`, DEFAULTS],
    ['the later of two items for one key wins', 'apps/v1=false,apps/v1=true', DEFAULTS],
    ['api/ga=false with flowcontrol v1 kept', `api/ga=false,${FC}/v1=true`, [`${FC}/v1/flowschemas`, `${FC}/v1/prioritylevelconfigurations`, `${FC}/v1beta3/flowschemas`, `${FC}/v1beta3/prioritylevelconfigurations`]],
  ];
  for (const [name, config, want] of cases) {
    it(name, () => expect(served(config)).to.deep.equal(want));
  }

  const errors: Array<[string, string, string]> = [
    ['only api/all=false', 'api/all=false', 'invalid key with only api/all=false'],
    ['a key of one part other than v1', 'apps=true', 'runtime-config invalid key apps'],
    ['a key of four parts', 'apps/v1/deployments/scale=false', 'runtime-config invalid key apps/v1/deployments/scale'],
    ['unknown groups, in order', 'nope.io/v1=true,apps/v1=true,other/v2', 'unknown api groups nope.io,other'],
    ['a known group with an unknown version', 'apps/v1beta2=true', 'group version apps/v1beta2 that has not been registered'],
    ['an unknown core version', 'api/v2=true', 'group version v2 that has not been registered'],
    ['a bad value of a version key', 'apps/v1=yes', 'invalid value of apps/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    ['a matcher takes only true or false', 'api/beta=1', 'invalid value api/beta=1'],
    ['a matcher alone is not true', 'api/alpha', 'invalid value api/alpha='],
    ['a resource not lowercase', 'batch/v1/CronJobs=false', 'invalid key batch/v1/CronJobs: group/version/resource and resource is always lowercase plural, not "CronJobs"'],
    ['flowcontrol v1 off conflicts with priority and fairness', `${FC}/v1=false`, `--runtime-config=${FC}/v1=false conflicts with --enable-priority-and-fairness=true`],
    ['api/ga=false conflicts', 'api/ga=false,apps/v1=true', '--runtime-config=api/ga=false conflicts with --enable-priority-and-fairness=true'],
    ['api/all=false conflicts unless flowcontrol v1 or api/ga is on', 'api/all=false,v1=true', '--runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true'],
  ];
  for (const [name, config, message] of errors) {
    it(`refuses ${name}: ${message}`, () => {
      expect(() => resolveAPIEnablement(applyRuntimeConfig(EMPTY_RUNTIME_CONFIG, config), known)).to.throw(Error).with.property('message', message);
    });
  }

  it('api/ga=true before api/all=false keeps the GA versions (api/ga wins the precedence)', () => {
    expect(served('api/all=false,api/ga=true')).to.deep.equal(all.filter((k) => /\/v\d+\//.test(k)));
  });

  it('a resource the server does not know is not served', () => {
    const e = resolveAPIEnablement(EMPTY_RUNTIME_CONFIG, known);
    expect(e.resourceEnabled('nope.io', 'v1', 'things')).to.equal(false);
  });
});
