import { expect } from 'chai';
import { cronJob } from '../../../../../lib/apis/batch/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'report', namespace: 'default' },
  spec: {
    schedule: '*/5 * * * *',
    jobTemplate: { spec: { template: { spec: { containers: [{ name: 'report', image: 'busybox:1.36' }], restartPolicy: 'OnFailure' } } } },
  },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const jobSpec = (o: Obj): Obj => (spec(o).jobTemplate as Obj).spec as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(cronJob, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(cronJob, defaulted(mutate)));

describe('batch/v1 CronJob: definition (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(cronJob).to.include({
      group: 'batch',
      version: 'v1',
      kind: 'CronJob',
      resource: 'cronjobs',
      singular: 'cronjob',
      namespaced: true,
      statusSubresource: true,
      nameRule: 'dns1123Subdomain',
    });
    expect(cronJob.shortNames).to.deep.equal(['cj']);
    expect(cronJob.categories).to.deep.equal(['all']);
  });

  it('decodes a minimal cron job, applies exactly the upstream defaults and validates clean', () => {
    const c = minimal();
    expect(decodeAndDefault(cronJob, c)).to.deep.equal({ unknownFields: [] });
    const { jobTemplate, ...rest } = spec(c);
    expect(rest).to.deep.equal({ schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    const js = (jobTemplate as Obj).spec as Obj;
    expect(Object.keys(js), 'the job template spec gets no Job defaults').to.deep.equal(['template']);
    expect((js.template as Obj).spec).to.deep.include({ restartPolicy: 'OnFailure', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 });
    expect(validateCreate(cronJob, c)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(cronJob, fixture('cron-job'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(cronJob.schema, fixture('cron-job'))).to.deep.equal([]);
  });
});

describe('batch/v1 CronJob: validation (upstream ValidateCronJobCreate; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the schedule is required', (o) => delete spec(o).schedule, ['spec.schedule: Required value']],
    ['the schedule must parse', (o) => (spec(o).schedule = '* * * *'), ['spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]']],
    ['schedule descriptors are accepted', (o) => (spec(o).schedule = '@hourly'), []],
    ['@every intervals are accepted', (o) => (spec(o).schedule = '@every 90m'), []],
    ['TZ in the schedule is rejected in favour of timeZone', (o) => (spec(o).schedule = 'TZ=UTC 0 * * * *'), [
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]],
    ['an explicit time zone is accepted', (o) => (spec(o).timeZone = 'Europe/Berlin'), []],
    ['the time zone is known', (o) => (spec(o).timeZone = 'Europe/Atlantis'), ['spec.timeZone: Invalid value: "Europe/Atlantis": unknown time zone Europe/Atlantis']],
    ['the time zone is not Local', (o) => (spec(o).timeZone = 'Local'), [
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ]],
    ['the time zone is not empty', (o) => (spec(o).timeZone = ''), ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string']],
    ['time zone names are path-safe', (o) => (spec(o).timeZone = '../etc/passwd'), ['spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd']],
    ['the concurrency policy is Allow, Forbid or Replace', (o) => (spec(o).concurrencyPolicy = 'Queue'), [
      'spec.concurrencyPolicy: Unsupported value: "Queue": supported values: "Allow", "Forbid", "Replace"',
    ]],
    ['startingDeadlineSeconds is non-negative', (o) => (spec(o).startingDeadlineSeconds = -1), ['spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0']],
    ['history limits are non-negative', (o) => Object.assign(spec(o), { successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -1 }), [
      'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ]],
    ['the job template is required', (o) => delete spec(o).jobTemplate, [
      'spec.jobTemplate: Required value',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]],
    ['the job template restarts on failure or never', (o) => (((jobSpec(o).template as Obj).spec as Obj).restartPolicy = 'Always'), [
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]],
    ['the job template counts are non-negative', (o) => (jobSpec(o).parallelism = -1), ['spec.jobTemplate.spec.parallelism: Invalid value: -1: must be greater than or equal to 0']],
    ['the job template has no selector', (o) => (jobSpec(o).selector = { matchLabels: { a: 'b' } }), [
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
    ]],
    ['the job template has no manual selector', (o) => (jobSpec(o).manualSelector = true), ['spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"']],
    ['names are at most 52 characters', (o) => ((o.metadata as Obj).name = 'r'.repeat(53)), [`metadata.name: Invalid value: "${'r'.repeat(53)}": must be no more than 52 characters`]],
    ['a 52-character name is fine', (o) => ((o.metadata as Obj).name = 'r'.repeat(52)), []],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  it('validates updates like creates', () => {
    const old = variant(defaulted(), (o) => ((o.metadata as Obj).resourceVersion = '1'));
    expect(messages(validateUpdate(cronJob, variant(old, (o) => (spec(o).schedule = '@daily')), old))).to.deep.equal([]);
    expect(messages(validateUpdate(cronJob, variant(old, (o) => (spec(o).schedule = 'never')), old))).to.deep.equal([
      'spec.schedule: Invalid value: "never": expected exactly 5 fields, found 1: [never]',
    ]);
  });
});
