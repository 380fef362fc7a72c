import { expect } from 'chai';
import { applyRuntimeConfig, EMPTY_RUNTIME_CONFIG, runtimeConfigString } from '../../../../lib/server/options/runtime-config.js';

const parse = (...values: string[]) => values.reduce(applyRuntimeConfig, EMPTY_RUNTIME_CONFIG);

describe('--runtime-config parsing (upstream cliflag.ConfigurationMap)', () => {
  const cases: Array<[string, string[], Array<[string, string]>]> = [
    ['key=value items', ['api/all=false,v1=true'], [['api/all', 'false'], ['v1', 'true']]],
    ['a key alone has the empty value', ['batch/v2alpha1'], [['batch/v2alpha1', '']]],
    ['blanks around keys and values are trimmed, empty items skipped', [' apps/v1 = false ,, ,x/v1=true'], [['apps/v1', 'false'], ['x/v1', 'true']]],
    ['only the first = splits', ['a/v1=b=c'], [['a/v1', 'b=c']]],
    ['a later item overrides an earlier one', ['apps/v1=false,apps/v1=true'], [['apps/v1', 'true']]],
    ['a later occurrence of the flag overrides and adds', ['apps/v1=false,batch/v1=false', 'apps/v1'], [['apps/v1', ''], ['batch/v1', 'false']]],
    ['the empty value sets nothing', [''], []],
  ];
  for (const [name, values, want] of cases) {
    it(name, () => expect([...parse(...values)]).to.deep.equal(want));
  }

  it('does not change the map it starts from', () => {
    const first = parse('apps/v1=false');
    applyRuntimeConfig(first, 'apps/v1=true');
    expect(first.get('apps/v1')).to.equal('false');
  });

  it('String() sorts by key: k=v joined by commas', () => {
    expect(runtimeConfigString(parse('z/v1=false,api/all,a/v1=true'))).to.equal('a/v1=true,api/all=,z/v1=false');
  });
});
