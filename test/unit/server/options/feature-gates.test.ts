import { expect } from 'chai';
import {
  applyFeatureGates,
  defaultFeatureGateFlags,
  defaultFeatureGates,
  FEATURE_GATES,
  type FeatureGateFlags,
  type FeatureTable,
  knownFeatures,
  resolveFeatureGates,
} from '../../../../lib/server/options/feature-gates.js';
import { FlagError, parseServerFlags } from '../../../../lib/server/options/flags.js';

/** Applies each value in turn (with `table`'s gates) from nothing set. */
function apply(values: string[], table: FeatureTable = FEATURE_GATES): FeatureGateFlags {
  return values.reduce((flags, v) => applyFeatureGates(flags, v, table), defaultFeatureGateFlags());
}

/** A table with every stage, for the rules the real table has no gate of (DEPRECATED, a locked false). */
const TABLE: FeatureTable = {
  AllAlpha: { stage: 'ALPHA', default: false },
  AllBeta: { stage: 'BETA', default: false },
  Alpha1: { stage: 'ALPHA', default: false },
  Alpha2: { stage: 'ALPHA', default: true },
  Beta1: { stage: 'BETA', default: true },
  Beta2: { stage: 'BETA', default: false },
  Stable: { stage: 'GA', default: true, lockToDefault: true },
  StableOpen: { stage: 'GA', default: true },
  Old: { stage: 'DEPRECATED', default: false },
  OldLocked: { stage: 'DEPRECATED', default: false, lockToDefault: true },
};

describe('feature gates (spec 001 § Deprecation rules, rule 7; upstream v1.30 component-base featuregate)', () => {
  describe('the table: upstream v1.30 values', () => {
    const expected: Array<[string, string, boolean, boolean]> = [
      ['AdmissionWebhookMatchConditions', 'GA', true, true],
      ['AggregatedDiscoveryEndpoint', 'GA', true, true],
      ['APIListChunking', 'GA', true, true],
      ['APIPriorityAndFairness', 'GA', true, true],
      ['APIResponseCompression', 'BETA', true, false],
      ['APIServerIdentity', 'BETA', true, false],
      ['ConsistentListFromCache', 'ALPHA', false, false],
      ['CRDValidationRatcheting', 'BETA', true, false],
      ['CustomResourceFieldSelectors', 'ALPHA', false, false],
      ['CustomResourceValidationExpressions', 'GA', true, true],
      ['RemainingItemCount', 'GA', true, true],
      ['ServerSideApply', 'GA', true, true],
      ['ServerSideFieldValidation', 'GA', true, true],
      ['StorageVersionMigrator', 'ALPHA', false, false],
      ['StructuredAuthenticationConfiguration', 'BETA', true, false],
      ['StructuredAuthorizationConfiguration', 'BETA', true, false],
      ['ValidatingAdmissionPolicy', 'GA', true, true],
      ['WatchList', 'ALPHA', false, false],
      ['ZeroLimitedNominalConcurrencyShares', 'GA', true, true],
      ['AllAlpha', 'ALPHA', false, false],
      ['AllBeta', 'BETA', false, false],
    ];
    it('lists exactly these gates', () => {
      expect(Object.keys(FEATURE_GATES)).to.have.members(expected.map((e) => e[0]));
    });
    for (const [name, stage, def, locked] of expected) {
      it(`${name}: ${stage}, default ${def}${locked ? ', locked' : ''}`, () => {
        const spec = (FEATURE_GATES as FeatureTable)[name]!;
        expect({ stage: spec.stage, default: spec.default, locked: spec.lockToDefault === true }).to.deep.equal({ stage, default: def, locked });
      });
    }
    it('starts every gate at its default, none set, no warnings', () => {
      const flags = defaultFeatureGateFlags();
      expect(flags.set).to.deep.equal({});
      expect(flags.warnings).to.deep.equal([]);
      for (const [name, spec] of Object.entries(FEATURE_GATES)) expect(flags.gates[name as keyof typeof FEATURE_GATES], name).to.equal(spec.default);
    });
    it('resolves a partial map over the defaults (the control plane configuration)', () => {
      const gates = resolveFeatureGates({ CustomResourceFieldSelectors: true, CRDValidationRatcheting: false });
      expect(gates).to.deep.equal({ ...defaultFeatureGates(), CustomResourceFieldSelectors: true, CRDValidationRatcheting: false });
    });
  });

  describe('setting gates', () => {
    const refused: Array<[string, string, string]> = [
      ['a locked gate to its non-default value', 'Stable=false', 'cannot set feature gate Stable to false, feature is locked to true'],
      ['a locked deprecated gate', 'OldLocked=true', 'cannot set feature gate OldLocked to true, feature is locked to false'],
      ['an unknown gate', 'Beta1=false,Nope=true', 'unrecognized feature gate: Nope'],
      ['a value without a bool', 'Beta1', 'missing bool value for Beta1'],
      ['a bad bool', 'Beta1=on', 'invalid value of Beta1=on, err: strconv.ParseBool: parsing "on": invalid syntax'],
    ];
    for (const [title, value, message] of refused) {
      it(`refuses ${title}: ${value}`, () => {
        expect(() => apply([value], TABLE)).to.throw(Error, message).with.property('message', message);
      });
    }

    const accepted: Array<[string, string[], Record<string, boolean>, string[]]> = [
      ['a locked gate to its default, with the GA warning', ['Stable=true'], {}, ['Setting GA feature gate Stable=true. It will be removed in a future release.']],
      ['an unlocked GA gate', ['StableOpen=false'], { StableOpen: false }, ['Setting GA feature gate StableOpen=false. It will be removed in a future release.']],
      ['a deprecated gate', ['Old=true'], { Old: true }, ['Setting deprecated feature gate Old=true. It will be removed in a future release.']],
      ['a deprecated gate to its default: still warns', ['Old=false'], {}, ['Setting deprecated feature gate Old=false. It will be removed in a future release.']],
      ['alpha and beta gates: no warning', ['Alpha1=true,Beta1=false'], { Alpha1: true, Beta1: false }, []],
      ['warnings in order, across values', ['Old=true', 'Stable=true,Beta2=true'], { Old: true, Beta2: true }, [
        'Setting deprecated feature gate Old=true. It will be removed in a future release.',
        'Setting GA feature gate Stable=true. It will be removed in a future release.',
      ]],
      ['AllAlpha=true: every alpha gate', ['AllAlpha=true'], { AllAlpha: true, Alpha1: true }, []],
      ['AllAlpha=false: every alpha gate off', ['AllAlpha=false'], { Alpha2: false }, []],
      ['AllAlpha with an explicit gate after it', ['AllAlpha=true,Alpha2=false'], { AllAlpha: true, Alpha1: true, Alpha2: false }, []],
      ['AllAlpha with an explicit gate before it', ['Alpha1=false,AllAlpha=true'], { AllAlpha: true, Alpha1: false, Alpha2: true }, []],
      ['AllAlpha after a gate set by an earlier value', ['Alpha2=false', 'AllAlpha=true'], { AllAlpha: true, Alpha1: true, Alpha2: false }, []],
      ['AllBeta=false: every beta gate off', ['AllBeta=false'], { Beta1: false, Beta2: false }, []],
      ['AllBeta=true leaves alpha, GA and deprecated gates', ['AllBeta=true,Beta1=false'], { AllBeta: true, Beta1: false, Beta2: true }, []],
      ['the last value of a repeated name', ['Alpha1=true,Alpha1=false'], { Alpha1: false }, []],
    ];
    for (const [title, values, changed, warnings] of accepted) {
      it(`accepts ${title}: ${values.join(' ')}`, () => {
        const flags = apply(values, TABLE);
        const defaults = Object.fromEntries(Object.entries(TABLE).map(([n, s]) => [n, s.default]));
        expect(flags.gates).to.deep.equal({ ...defaults, ...changed });
        expect(flags.warnings).to.deep.equal(warnings);
      });
    }

    it('leaves the state unchanged when a value is refused', () => {
      const before = apply(['Alpha1=true'], TABLE);
      expect(() => applyFeatureGates(before, 'Beta1=false,Stable=false', TABLE)).to.throw();
      expect((before.gates as Record<string, boolean>).Alpha1).to.equal(true);
      expect(before.set).to.deep.equal({ Alpha1: true });
    });

    it('AllAlpha and AllBeta on the real table: WatchList, CustomResourceFieldSelectors on; APIResponseCompression off', () => {
      const { gates } = apply(['AllAlpha=true,AllBeta=false,CRDValidationRatcheting=true']);
      expect(gates).to.include({ WatchList: true, CustomResourceFieldSelectors: true, ConsistentListFromCache: true, APIResponseCompression: false, CRDValidationRatcheting: true, StructuredAuthenticationConfiguration: false, ServerSideApply: true });
    });
  });

  describe('the command line', () => {
    const errors: Array<[string, string]> = [
      ['--feature-gates=ServerSideApply=false', 'invalid argument "ServerSideApply=false" for "--feature-gates" flag: cannot set feature gate ServerSideApply to false, feature is locked to true'],
      ['--feature-gates=ValidatingAdmissionPolicy=false', 'invalid argument "ValidatingAdmissionPolicy=false" for "--feature-gates" flag: cannot set feature gate ValidatingAdmissionPolicy to false, feature is locked to true'],
      ['--feature-gates=KMSv2=true', 'invalid argument "KMSv2=true" for "--feature-gates" flag: unrecognized feature gate: KMSv2'],
    ];
    for (const [arg, message] of errors) {
      it(`refuses ${arg} at start`, () => {
        expect(() => parseServerFlags([arg])).to.throw(FlagError).with.property('message', message);
      });
    }

    it('returns the warnings of GA gates set, for the command to log', () => {
      const o = parseServerFlags(['--feature-gates=APIListChunking=true', '--feature-gates=CustomResourceFieldSelectors=true']);
      expect(o.featureGates.warnings).to.deep.equal(['Setting GA feature gate APIListChunking=true. It will be removed in a future release.']);
      expect(o.featureGates.gates.CustomResourceFieldSelectors).to.equal(true);
    });
  });

  describe('KnownFeatures (the --help list)', () => {
    it('lists alpha and beta gates with stage and default, sorted; not GA nor deprecated ones', () => {
      expect(knownFeatures(TABLE)).to.deep.equal([
        'AllAlpha=true|false (ALPHA - default=false)',
        'AllBeta=true|false (BETA - default=false)',
        'Alpha1=true|false (ALPHA - default=false)',
        'Alpha2=true|false (ALPHA - default=true)',
        'Beta1=true|false (BETA - default=true)',
        'Beta2=true|false (BETA - default=false)',
      ]);
    });
  });
});
