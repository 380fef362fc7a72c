import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import {
  flowSchema,
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  priorityLevelConfiguration,
  specsEqual,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from '../../../../../lib/apis/flowcontrol/v1/index.js';
import { APF_AUTOUPDATE_ANNOTATION, SYSTEM_NAMESPACE } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, validateCreate } from '../../kind-pipeline.js';

const names = (objects: { metadata: { name: string } }[]) => objects.map((o) => o.metadata.name);

describe('flowcontrol/v1 bootstrap configuration (upstream v1.30 apis/flowcontrol/bootstrap)', () => {
  it('names the mandatory and suggested objects in upstream order', () => {
    expect(names(mandatoryPriorityLevels())).to.deep.equal(['catch-all', 'exempt']);
    expect(names(mandatoryFlowSchemas())).to.deep.equal(['exempt', 'catch-all']);
    expect(names(suggestedPriorityLevels())).to.deep.equal(['system', 'node-high', 'leader-election', 'workload-high', 'workload-low', 'global-default']);
    expect(names(suggestedFlowSchemas())).to.deep.equal([
      'system-nodes',
      'system-node-high',
      'probes',
      'system-leader-election',
      'workload-leader-election',
      'endpoint-controller',
      'kube-controller-manager',
      'kube-scheduler',
      'kube-system-service-accounts',
      'service-accounts',
      'global-default',
    ]);
  });

  it('every object carries autoupdate "true", is already defaulted and validates clean', () => {
    const all = [...mandatoryPriorityLevels(), ...suggestedPriorityLevels(), ...mandatoryFlowSchemas(), ...suggestedFlowSchemas()];
    for (const o of all) {
      const kind = o.kind === 'FlowSchema' ? flowSchema : priorityLevelConfiguration;
      expect(o.metadata.annotations, o.metadata.name).to.deep.equal({ [APF_AUTOUPDATE_ANNOTATION]: 'true' });
      expect(o.apiVersion).to.equal(kind.apiVersion);
      const copy = structuredClone(o) as Obj;
      expect(decodeAndDefault(kind, copy), o.metadata.name).to.deep.equal({ unknownFields: [] });
      expect(copy, o.metadata.name).to.deep.equal(o);
      expect(validateCreate(kind, copy), o.metadata.name).to.deep.equal([]);
    }
  });

  it('the mandatory values: exempt (system:masters, precedence 1, no distinguisher) and catch-all (5 shares, Reject)', () => {
    const [catchAllPL, exemptPL] = mandatoryPriorityLevels();
    expect(catchAllPL!.spec).to.deep.equal({ type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 } });
    expect(exemptPL!.spec).to.deep.equal({ type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
    const [exemptFS, catchAllFS] = mandatoryFlowSchemas();
    expect(exemptFS!.spec).to.deep.equal({
      priorityLevelConfiguration: { name: 'exempt' },
      matchingPrecedence: 1,
      rules: [
        {
          subjects: [{ kind: 'Group', group: { name: 'system:masters' } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
          nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        },
      ],
    });
    expect(catchAllFS!.spec).to.include({ matchingPrecedence: 10000 });
    expect(catchAllFS!.spec.distinguisherMethod).to.deep.equal({ type: 'ByUser' });
  });

  it('suggested levels carry upstream shares, lendable percents and queues', () => {
    const summary = suggestedPriorityLevels().map((o) => {
      const l = o.spec.limited as Obj;
      const q = (l.limitResponse as Obj).queuing as Obj;
      return [o.metadata.name, l.nominalConcurrencyShares, l.lendablePercent, q.queues, q.handSize, q.queueLengthLimit];
    });
    expect(summary).to.deep.equal([
      ['system', 30, 33, 64, 6, 50],
      ['node-high', 40, 25, 64, 6, 50],
      ['leader-election', 10, 0, 16, 4, 50],
      ['workload-high', 40, 50, 128, 6, 50],
      ['workload-low', 100, 90, 128, 6, 50],
      ['global-default', 20, 50, 128, 6, 50],
    ]);
  });

  it('suggested schemas: precedence, level, distinguisher; system service accounts live in the system namespace', () => {
    const summary = suggestedFlowSchemas().map((o) => [o.metadata.name, (o.spec.priorityLevelConfiguration as Obj).name, o.spec.matchingPrecedence, (o.spec.distinguisherMethod as Obj | undefined)?.type]);
    expect(summary).to.deep.equal([
      ['system-nodes', 'system', 500, 'ByUser'],
      ['system-node-high', 'node-high', 400, 'ByUser'],
      ['probes', 'exempt', 2, undefined],
      ['system-leader-election', 'leader-election', 100, 'ByUser'],
      ['workload-leader-election', 'leader-election', 200, 'ByUser'],
      ['endpoint-controller', 'workload-high', 150, 'ByUser'],
      ['kube-controller-manager', 'workload-high', 800, 'ByNamespace'],
      ['kube-scheduler', 'workload-high', 800, 'ByNamespace'],
      ['kube-system-service-accounts', 'workload-high', 900, 'ByNamespace'],
      ['service-accounts', 'workload-low', 9000, 'ByUser'],
      ['global-default', 'global-default', 9900, 'ByUser'],
    ]);
    const ksa = suggestedFlowSchemas().find((o) => o.metadata.name === 'kube-system-service-accounts')!;
    expect(((ksa.spec.rules as Obj[])[0]!.subjects as Obj[])[0]).to.deep.equal({ kind: 'ServiceAccount', serviceAccount: { namespace: SYSTEM_NAMESPACE, name: '*' } });
  });
});

describe('flowcontrol/v1 semantic spec equality (upstream equality.Semantic.DeepEqual)', () => {
  it('absent non-pointer fields equal their zero values; empty lists equal absent ones', () => {
    expect(specsEqual({ rules: [{ resourceRules: [{ verbs: ['get'] }] }] }, { rules: [{ resourceRules: [{ verbs: ['get'], clusterScope: false, namespaces: [] }] }], matchingPrecedence: 0 })).to.equal(true);
    expect(specsEqual({ priorityLevelConfiguration: {} }, { priorityLevelConfiguration: { name: '' } })).to.equal(true);
  });

  it('pointer fields differ between absent and set, even to zero', () => {
    expect(specsEqual({ limited: { borrowingLimitPercent: 0 } }, { limited: {} })).to.equal(false);
    expect(specsEqual({ distinguisherMethod: {} }, {})).to.equal(false);
    expect(specsEqual({ distinguisherMethod: null }, {})).to.equal(true);
  });

  it('list order and values matter', () => {
    expect(specsEqual({ rules: [{ subjects: [{ kind: 'User' }, { kind: 'Group' }] }] }, { rules: [{ subjects: [{ kind: 'Group' }, { kind: 'User' }] }] })).to.equal(false);
  });
});
