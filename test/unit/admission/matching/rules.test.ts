import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { equivalentResources } from '../../../../lib/admission/matching/equivalents.js';
import { type AdmissionRule, anyRuleMatches, matchRules, ruleMatches } from '../../../../lib/admission/matching/rules.js';
import type { ServedResource } from '../../../../lib/admission/plugin-deps.js';
import { horizontalPodAutoscalerV1Conversion } from '../../../../lib/apis/autoscaling/v1/index.js';
import { horizontalPodAutoscaler } from '../../../../lib/apis/autoscaling/v2/horizontal-pod-autoscaler.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import { admissionAttrs } from '../attrs.js';

const USER = { name: 'u', groups: [] };
const AUTOSCALING = horizontalPodAutoscaler.group;

const pods = (a: Partial<AdmissionAttributes> = {}) =>
  admissionAttrs(USER, { resource: 'pods', kind: 'Pod', namespace: 'ns', name: 'p', ...a });

const rule = (r: Partial<AdmissionRule> = {}): AdmissionRule => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], ...r });
const target = (a: AdmissionAttributes) => ({ group: a.requestGroup, version: a.requestVersion, resource: a.resource, subresource: a.subresource });

const SERVED: ServedResource[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, subresources: [], definition: configMap },
  { group: AUTOSCALING, version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, subresources: ['status'], definition: horizontalPodAutoscaler },
  {
    group: AUTOSCALING,
    version: 'v1',
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    subresources: ['status'],
    definition: horizontalPodAutoscalerV1Conversion.servedKind,
    conversion: horizontalPodAutoscalerV1Conversion,
  },
];
const EQUIVALENTS = equivalentResources(SERVED);

const hpa = (a: Partial<AdmissionAttributes> = {}) =>
  admissionAttrs(USER, { group: AUTOSCALING, version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespace: 'ns', name: 'h', ...a });

describe('admission rule matching (spec 001 § Admission control)', () => {
  describe('ruleMatches', () => {
    const cases: Array<[string, Partial<AdmissionRule>, Partial<AdmissionAttributes>, boolean]> = [
      ['wildcards match everything', {}, {}, true],
      ['an operation not listed', { operations: ['UPDATE'] }, {}, false],
      ['no operations at all', { operations: [] }, {}, false],
      ['the core group by ""', { apiGroups: [''] }, {}, true],
      ['another group', { apiGroups: ['apps'] }, {}, false],
      ['another version', { apiVersions: ['v2'] }, {}, false],
      ['`pods` is the main resource only', { resources: ['pods'] }, { subresource: 'status' }, false],
      ['`pods/status` selects the subresource', { resources: ['pods/status'] }, { subresource: 'status' }, true],
      ['`pods/*` selects the main resource', { resources: ['pods/*'] }, {}, true],
      ['`pods/*` selects every subresource', { resources: ['pods/*'] }, { subresource: 'exec' }, true],
      ['`*` does not select subresources', { resources: ['*'] }, { subresource: 'status' }, false],
      ['`*/status` selects any status', { resources: ['*/status'] }, { subresource: 'status' }, true],
      ['`*/*` selects everything', { resources: ['*/*'] }, { subresource: 'binding' }, true],
      ['Namespaced scope: a namespaced resource', { scope: 'Namespaced' }, {}, true],
      ['Cluster scope: not a namespaced resource', { scope: 'Cluster' }, {}, false],
      ['Cluster scope: a Namespace', { scope: 'Cluster' }, { resource: 'namespaces', namespace: 'ns', namespaced: false }, true],
      ['Namespaced scope: not a Namespace', { scope: 'Namespaced' }, { resource: 'namespaces', namespace: 'ns', namespaced: false }, false],
      ['Cluster scope: a cluster-scoped resource', { scope: 'Cluster' }, { resource: 'nodes', namespace: '', namespaced: false }, true],
      ['an unknown scope', { scope: 'Weird' }, {}, false],
      ['resourceNames listing the name', { resourceNames: ['p'] }, {}, true],
      ['resourceNames not listing it', { resourceNames: ['q'] }, {}, false],
      ['resourceNames on a create without name', { resourceNames: ['p'] }, { name: '' }, false],
    ];
    for (const [what, r, a, want] of cases) {
      it(`${what} → ${want}`, () => {
        const attrs = pods(a);
        expect(ruleMatches(rule(r), attrs, target(attrs))).to.equal(want);
      });
    }

    it('compares groups in the vendor spelling, so an upstream spelling in a rule matches', () => {
      const attrs = hpa({ group: vendorGroup('rbac.authorization'), requestGroup: vendorGroup('rbac.authorization') });
      expect(ruleMatches(rule({ apiGroups: ['rbac.authorization.k8s.io'] }), attrs, target(attrs))).to.equal(true);
    });
  });

  describe('matchRules', () => {
    it('matches the addressed version first, with no conversion for the storage version', () => {
      const m = matchRules([rule({ apiVersions: ['v2'] })], hpa(), undefined, EQUIVALENTS)!;
      expect(m).to.include({ group: AUTOSCALING, version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', exact: true });
      expect(m.served).to.equal(undefined);
    });

    it('with Equivalent, matches another served version and carries its conversion', () => {
      const m = matchRules([rule({ apiVersions: ['v1'] })], hpa(), 'Equivalent', EQUIVALENTS)!;
      expect(m).to.include({ version: 'v1', exact: false });
      expect(m.served?.conversion).to.equal(horizontalPodAutoscalerV1Conversion);
    });

    it('with Exact, does not look at other versions', () => {
      expect(matchRules([rule({ apiVersions: ['v1'] })], hpa(), 'Exact', EQUIVALENTS)).to.equal(null);
    });

    it('a request addressed to a served version carries its conversion (the objects are in the storage version)', () => {
      const m = matchRules([rule({ apiVersions: ['v1'] })], hpa({ requestVersion: 'v1' }), 'Exact', EQUIVALENTS)!;
      expect(m).to.include({ version: 'v1', exact: true });
      expect(m.served?.conversion).to.equal(horizontalPodAutoscalerV1Conversion);
    });

    it('does not convert objects of a subresource with a kind of its own', () => {
      const m = matchRules([rule({ apiVersions: ['v1'], resources: ['horizontalpodautoscalers/scale'] })], hpa({ subresource: 'scale', kind: 'Scale', requestKind: 'Scale' }), 'Equivalent', EQUIVALENTS)!;
      expect(m).to.include({ version: 'v1', kind: 'Scale' });
      expect(m.served).to.equal(undefined);
    });

    it('anyRuleMatches: false for no rules, true when a rule matches in any equivalent version', () => {
      expect(anyRuleMatches(undefined, hpa(), undefined, EQUIVALENTS)).to.equal(false);
      expect(anyRuleMatches([], hpa(), undefined, EQUIVALENTS)).to.equal(false);
      expect(anyRuleMatches([rule({ apiVersions: ['v1'] })], hpa(), undefined, EQUIVALENTS)).to.equal(true);
    });
  });

  describe('equivalentResources', () => {
    it('lists every served version of the stored resource, storage first, and nothing for others', () => {
      expect(EQUIVALENTS.equivalents(hpa()).map((r) => r.version)).to.deep.equal(['v2', 'v1']);
      expect(EQUIVALENTS.equivalents(pods()).length).to.equal(0);
    });
  });
});
