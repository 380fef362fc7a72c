import { expect } from 'chai';
import { typeCheckPolicy, typesToCheck } from '../../../../lib/admission/plugins/validating-admission-policy/type-check.js';
import { policy, SERVED } from './fixture.js';

const rules = (...resources: Array<[string, string, string]>) => ({
  resourceRules: resources.map(([g, v, r]) => ({ apiGroups: [g], apiVersions: [v], operations: ['CREATE', 'UPDATE'], resources: [r] })),
});
const DEPLOYMENTS = rules(['apps', 'v1', 'deployments']);
/** A compile error of upstream's shape for `field` in `expression` (the column as lib/cel reports it). */
const undefinedField = (kind: string, expression: string, field: string) =>
  new RegExp(`^${kind.replace(/[/.]/g, '\\$&')}: ERROR: <input>:1:\\d+: undefined field '${field}'\\n \\| ${expression.replace(/[.()|[\]]/g, '\\$&')}\\n \\| \\.*\\^\\n$`);

describe('ValidatingAdmissionPolicy type checking (spec 001 § Admission control)', () => {
  it('an undefined field of the matched kind: a warning at the expression, in upstream format', () => {
    const warnings = typeCheckPolicy(policy('p', { matchConstraints: DEPLOYMENTS, validations: [{ expression: 'object.replicas > 1' }] }), SERVED);
    expect(warnings.map((w) => w.fieldRef)).to.deep.equal(['spec.validations[0].expression']);
    expect(warnings[0]!.warning).to.match(undefinedField('apps/v1, Kind=Deployment', 'object.replicas > 1', 'replicas'));
  });

  it('well-typed expressions give no warning; a type confusion does', () => {
    const p = policy('p', {
      matchConstraints: DEPLOYMENTS,
      validations: [
        { expression: 'object.spec.replicas <= 5 && object.metadata.name.startsWith("a")' },
        { expression: "object.spec.replicas == 'five'" },
      ],
    });
    const warnings = typeCheckPolicy(p, SERVED);
    expect(warnings.map((w) => w.fieldRef)).to.deep.equal(['spec.validations[1].expression']);
    expect(warnings[0]!.warning).to.match(/^apps\/v1, Kind=Deployment: ERROR: <input>:1:\d+: .*overload.*int.*string.*\n \| object\.spec\.replicas == 'five'\n \| \.*\^\n$/);
  });

  it('every matched kind is checked, sorted by group, version and kind; the message expression too', () => {
    const p = policy('p', {
      matchConstraints: rules(['apps', 'v1', 'deployments'], ['', 'v1', 'configmaps']),
      validations: [{ expression: 'true', messageExpression: 'object.nothing' }],
    });
    const [w, ...rest] = typeCheckPolicy(p, SERVED);
    expect(rest).to.deep.equal([]);
    expect(w!.fieldRef).to.equal('spec.validations[0].messageExpression');
    const [configMaps, deployments] = w!.warning.split(/\n(?=apps)/);
    expect(configMaps).to.match(undefinedField('/v1, Kind=ConfigMap', 'object.nothing', 'nothing'));
    expect(deployments).to.match(undefinedField('apps/v1, Kind=Deployment', 'object.nothing', 'nothing'));
  });

  it('variables and params are typed', () => {
    const p = policy('p', {
      matchConstraints: DEPLOYMENTS,
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
      validations: [{ expression: "variables.replicas == 'x'" }, { expression: "params.data.max == '1'" }, { expression: 'params.nothing' }],
    });
    expect(typeCheckPolicy(p, SERVED).map((w) => w.fieldRef)).to.deep.equal(['spec.validations[0].expression', 'spec.validations[2].expression']);
  });

  it('wildcard groups or versions, wildcard and subresource entries name no kind to check', () => {
    const wild = { resourceRules: [{ apiGroups: ['*'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'] }, { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['*', 'deployments/status'] }] };
    expect(typesToCheck(policy('p', { matchConstraints: wild }), SERVED)).to.deep.equal([]);
    expect(typeCheckPolicy(policy('p', { matchConstraints: wild, validations: [{ expression: 'object.nothing' }] }), SERVED)).to.deep.equal([]);
  });
});
