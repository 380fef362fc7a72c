import { expect } from 'chai';
import { generateJobSelector, job } from '../../../../../lib/apis/batch/v1/index.js';
import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL } from '../../../../../lib/apis/batch/v1/job-selector.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const UID = '2b7e1a4c-0000-4000-8000-000000000001';
const minimal = (): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi', namespace: 'default' },
  spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl:5.34' }], restartPolicy: 'Never' } } },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const podSpec = (o: Obj): Obj => (spec(o).template as Obj).spec as Obj;
const templateLabels = (o: Obj): Obj => ((spec(o).template as Obj).metadata as Obj).labels as Obj;

/** What the registry does on create: decode and default, assign the uid, generate the selector. */
const created = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(job, o);
  (o.metadata as Obj).uid = UID;
  generateJobSelector(o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(job, created(mutate)));

describe('batch/v1 Job: definition (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(job).to.include({ group: 'batch', version: 'v1', kind: 'Job', resource: 'jobs', singular: 'job', namespaced: true, statusSubresource: true, nameRule: 'dns1123Subdomain' });
    expect(job.shortNames ?? []).to.deep.equal([]);
    expect(job.categories).to.deep.equal(['all']);
  });

  it('decodes a minimal job, applies exactly the upstream defaults and validates clean', () => {
    const j = minimal();
    expect(decodeAndDefault(job, j)).to.deep.equal({ unknownFields: [] });
    const { template, ...rest } = spec(j);
    expect(rest).to.deep.equal({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, podReplacementPolicy: 'TerminatingOrFailed' });
    expect((template as Obj).spec).to.deep.include({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 });
    expect(j.metadata).to.deep.equal({ name: 'pi', namespace: 'default' });
    (j.metadata as Obj).uid = UID;
    generateJobSelector(j);
    expect(validateCreate(job, j)).to.deep.equal([]);
  });

  it('defaults conditionally as SetDefaults_Job does', () => {
    const defaulted = (mutate: (o: Obj) => void): Obj => {
      const o = variant(minimal(), mutate);
      decodeAndDefault(job, o);
      return o;
    };
    expect(spec(defaulted((o) => (spec(o).parallelism = 3)))).to.deep.include({ parallelism: 3 }).and.not.have.property('completions');
    expect(spec(defaulted((o) => (spec(o).completions = 5)))).to.deep.include({ completions: 5, parallelism: 1 });
    expect(spec(defaulted((o) => Object.assign(spec(o), { completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1 })))).to.deep.include({ backoffLimit: 2147483647 });
    const withPolicy = defaulted((o) => (spec(o).podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] }));
    expect(spec(withPolicy).podReplacementPolicy).to.equal('Failed');
    expect(spec(withPolicy).podFailurePolicy).to.deep.equal({ rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] });
    const labelled = defaulted((o) => ((spec(o).template as Obj).metadata = { labels: { app: 'pi' } }));
    expect((labelled.metadata as Obj).labels).to.deep.equal({ app: 'pi' });
    const ownLabels = defaulted((o) => {
      (o.metadata as Obj).labels = { team: 'a' };
      (spec(o).template as Obj).metadata = { labels: { app: 'pi' } };
    });
    expect((ownLabels.metadata as Obj).labels).to.deep.equal({ team: 'a' });
  });

  it('generates the selector and template labels unless the selector is manual', () => {
    const j = created();
    expect(templateLabels(j)).to.deep.equal({ 'job-name': 'pi', [JOB_NAME_LABEL]: 'pi', 'controller-uid': UID, [CONTROLLER_UID_LABEL]: UID });
    expect(spec(j).selector).to.deep.equal({ matchLabels: { [CONTROLLER_UID_LABEL]: UID } });
    const manual = created((o) => Object.assign(spec(o), { manualSelector: true }));
    expect(spec(manual)).to.not.have.property('selector');
  });

  it('gives a Job without labels its generated template labels, as upstream decoding the stored Job', () => {
    expect((created().metadata as Obj).labels).to.deep.equal(templateLabels(created()));
    const own = created((o) => ((o.metadata as Obj).labels = { team: 'a' }));
    expect((own.metadata as Obj).labels).to.deep.equal({ team: 'a' });
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(job, fixture('job'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(job.schema, fixture('job'))).to.deep.equal([]);
  });
});

describe('batch/v1 Job: validation (upstream ValidateJob; 422 causes)', () => {
  const onExit = (onExitCodes: Obj): Obj => ({ rules: [{ action: 'FailJob', onExitCodes }] });
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the template restart policy is OnFailure or Never (Always is the pod default)', (o) => delete podSpec(o).restartPolicy, [
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]],
    ['only Never with a pod failure policy', (o) => {
      podSpec(o).restartPolicy = 'OnFailure';
      spec(o).podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] };
    }, ['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified']],
    ['the template is validated as a pod template', (o) => (podSpec(o).containers = []), ['spec.template.spec.containers: Required value']],
    ['parallelism is non-negative', (o) => (spec(o).parallelism = -1), ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0']],
    ['completions are non-negative', (o) => (spec(o).completions = -1), ['spec.completions: Invalid value: -1: must be greater than or equal to 0']],
    ['backoffLimit is non-negative', (o) => (spec(o).backoffLimit = -1), ['spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']],
    ['activeDeadlineSeconds is non-negative', (o) => (spec(o).activeDeadlineSeconds = -1), ['spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0']],
    ['ttlSecondsAfterFinished is non-negative', (o) => (spec(o).ttlSecondsAfterFinished = -1), ['spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0']],
    ['completion modes are NonIndexed or Indexed', (o) => (spec(o).completionMode = 'Sparse'), ['spec.completionMode: Unsupported value: "Sparse": supported values: "NonIndexed", "Indexed"']],
    ['Indexed jobs need completions', (o) => Object.assign(spec(o), { completionMode: 'Indexed', parallelism: 2 }), ['spec.completions: Required value: when completion mode is Indexed']],
    ['Indexed pod hostnames must be DNS labels', (o) => {
      (o.metadata as Obj).name = 'a'.repeat(62);
      Object.assign(spec(o), { completionMode: 'Indexed', completions: 10 });
    }, [`metadata.name: Invalid value: "${'a'.repeat(62)}": will not able to create pod with invalid DNS label: ${'a'.repeat(62)}-9`]],
    ['backoffLimitPerIndex needs Indexed', (o) => (spec(o).backoffLimitPerIndex = 1), ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode']],
    ['maxFailedIndexes needs backoffLimitPerIndex', (o) => Object.assign(spec(o), { completionMode: 'Indexed', maxFailedIndexes: 1 }), [
      'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
    ]],
    ['maxFailedIndexes is at most completions', (o) => Object.assign(spec(o), { completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, maxFailedIndexes: 3 }), [
      'spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions',
    ]],
    ['FailIndex needs backoffLimitPerIndex', (o) => (spec(o).podFailurePolicy = { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }] }), [
      'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
    ]],
    ['pod failure actions are the known ones', (o) => (spec(o).podFailurePolicy = { rules: [{ action: 'Retry', onExitCodes: { operator: 'In', values: [1] } }] }), [
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
    ]],
    ['exit code operators are In or NotIn', (o) => (spec(o).podFailurePolicy = onExit({ operator: 'Is', values: [1] })), [
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Is": supported values: "In", "NotIn"',
    ]],
    ['In excludes exit code 0, values are ordered and unique', (o) => (spec(o).podFailurePolicy = onExit({ operator: 'In', values: [0, 3, 3, 2] })), [
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,3,2]: must be ordered',
    ]],
    ['exit codes name a container of the template', (o) => (spec(o).podFailurePolicy = onExit({ containerName: 'other', operator: 'NotIn', values: [0] })), [
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "other": must be one of the container or initContainer names in the pod template',
    ]],
    ['a rule has exit codes or pod conditions', (o) => (spec(o).podFailurePolicy = { rules: [{ action: 'Ignore' }] }), [
      'spec.podFailurePolicy.rules[0]: Invalid value: "": specifying one of OnExitCodes and OnPodConditions is required',
    ]],
    ['pod condition statuses are True, False or Unknown', (o) => (spec(o).podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'Ready', status: 'Yes' }] }] }), [
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Yes": supported values: "False", "True", "Unknown"',
    ]],
    ['a pod failure policy allows only the Failed replacement policy', (o) => {
      spec(o).podReplacementPolicy = 'TerminatingOrFailed';
      spec(o).podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] };
    }, ['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"']],
    ['a success policy needs Indexed', (o) => (spec(o).successPolicy = { rules: [{ succeededCount: 1 }] }), [
      'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode',
    ]],
    ['success indexes are increasing and below completions', (o) => {
      Object.assign(spec(o), { completionMode: 'Indexed', completions: 5, successPolicy: { rules: [{ succeededIndexes: '3,1' }, { succeededIndexes: '0-7' }] } });
    }, [
      'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3,1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1',
      'spec.successPolicy.rules[1].succeededIndexes: Invalid value: "0-7": error parsing succeededIndexes: too large index: "7"',
    ]],
    ['a manual selector is required', (o) => Object.assign(spec(o), { manualSelector: true }), [
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
    ]],
    ['a manual selector must match the template labels', (o) => {
      Object.assign(spec(o), { manualSelector: true, selector: { matchLabels: { app: 'pi' } } });
      (spec(o).template as Obj).metadata = { labels: { app: 'other' } };
    }, ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`']],
    ['a generated selector keeps its labels', (o) => {
      (spec(o).template as Obj).metadata = { labels: { 'job-name': 'other' } };
    }, ['spec.template.metadata.labels[job-name]: Invalid value: {"job-name":"other","' + JOB_NAME_LABEL + '":"pi","controller-uid":"' + UID + '","' + CONTROLLER_UID_LABEL + '":"' + UID + '"}: must be \'pi\'']],
    ['names are DNS subdomains', (o) => ((o.metadata as Obj).name = 'Pi'), [
      "metadata.name: Invalid value: \"Pi\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  it('requires the uid behind a generated selector', () => {
    const j = created();
    delete (j.metadata as Obj).uid;
    expect(messages(validateCreate(job, j))).to.include('metadata.uid: Required value');
  });
});

describe('batch/v1 Job: updates (upstream ValidateJobUpdate)', () => {
  const stored = (mutate: (o: Obj) => void = () => {}): Obj => {
    const o = created(mutate);
    (o.metadata as Obj).resourceVersion = '1';
    return o;
  };

  it('allows parallelism, suspend, activeDeadlineSeconds and backoffLimit changes', () => {
    const old = stored();
    const next = variant(old, (o) => Object.assign(spec(o), { parallelism: 4, suspend: true, activeDeadlineSeconds: 60, backoffLimit: 2 }));
    expect(messages(validateUpdate(job, next, old))).to.deep.equal([]);
  });

  it('keeps the selector, completions and completion mode immutable', () => {
    const old = stored();
    const next = variant(old, (o) => {
      ((spec(o).selector as Obj).matchLabels as Obj).extra = 'x';
      templateLabels(o).extra = 'x';
      spec(o).completions = 3;
      spec(o).completionMode = 'Indexed';
    });
    const errs = messages(validateUpdate(job, next, old));
    expect(errs).to.include('spec.completions: Invalid value: 3: field is immutable');
    expect(errs).to.include('spec.completionMode: Invalid value: "Indexed": field is immutable');
    expect(errs.some((e) => e.startsWith('spec.selector: Invalid value: {"matchLabels":') && e.endsWith(': field is immutable'))).to.equal(true);
    expect(errs.some((e) => e.startsWith('spec.template: Invalid value: ') && e.endsWith(': field is immutable'))).to.equal(true);
  });

  it('keeps the template immutable', () => {
    const old = stored();
    const next = variant(old, (o) => ((podSpec(o).containers as Obj[])[0]!.image = 'perl:5.36'));
    const errs = messages(validateUpdate(job, next, old));
    expect(errs).to.have.length(1);
    expect(errs[0]).to.match(/^spec\.template: Invalid value: \{.*"image":"perl:5\.36".*\}: field is immutable$/);
  });

  it('lets a suspended job that never started change its scheduling directives', () => {
    const old = stored((o) => (spec(o).suspend = true));
    const next = variant(old, (o) => {
      podSpec(o).nodeSelector = { zone: 'a' };
      podSpec(o).tolerations = [{ key: 'gpu', operator: 'Exists' }];
      templateLabels(o).queue = 'batch';
    });
    expect(messages(validateUpdate(job, next, old))).to.deep.equal([]);
    const started = variant(old, (o) => (o.status = { startTime: '2024-05-01T00:00:00Z' }));
    const nextStarted = variant(next, (o) => (o.status = { startTime: '2024-05-01T00:00:00Z' }));
    expect(messages(validateUpdate(job, nextStarted, started))).to.have.length(1);
  });

  it('scales Indexed completions only together with parallelism', () => {
    const old = stored((o) => Object.assign(spec(o), { completionMode: 'Indexed', completions: 2, parallelism: 2 }));
    const ok = variant(old, (o) => Object.assign(spec(o), { completions: 4, parallelism: 4 }));
    expect(messages(validateUpdate(job, ok, old))).to.deep.equal([]);
    const bad = variant(old, (o) => Object.assign(spec(o), { completions: 4 }));
    expect(messages(validateUpdate(job, bad, old))).to.deep.equal(['spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism']);
  });

  it('keeps the pod failure policy immutable', () => {
    const old = stored((o) => (spec(o).podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] }));
    const next = variant(old, (o) => (spec(o).podFailurePolicy = { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] }));
    expect(messages(validateUpdate(job, next, old))).to.deep.equal([
      'spec.podFailurePolicy: Invalid value: {"rules":[{"action":"FailJob","onPodConditions":[{"type":"DisruptionTarget","status":"True"}]}]}: field is immutable',
    ]);
  });
});

describe('batch/v1 Job: status writes', () => {
  const withStatus = (status: Obj): Obj => variant(created(), (o) => (o.status = status));
  const cases: [string, Obj, string[]][] = [
    ['a plausible status is accepted', { active: 1, ready: 1, succeeded: 2, failed: 0, terminating: 0, uncountedTerminatedPods: { succeeded: ['a'], failed: ['b'] } }, []],
    ['counts are non-negative', { active: -1, terminating: -2 }, [
      'status.active: Invalid value: -1: must be greater than or equal to 0',
      'status.terminating: Invalid value: -2: must be greater than or equal to 0',
    ]],
    ['uncounted pod UIDs are non-empty and unique', { uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } }, [
      'status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty',
      'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"',
    ]],
  ];
  for (const [name, status, expected] of cases) it(name, () => expect(messages(validateStatus(job, withStatus(status), withStatus({})))).to.deep.equal(expected));
});
