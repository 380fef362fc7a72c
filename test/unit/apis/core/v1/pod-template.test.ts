import { expect } from 'chai';
import { podTemplate } from '../../../../../lib/apis/core/v1/pod-template-kind.js';
import { podTemplateSpec } from '../../../../../lib/apis/core/v1/workloads.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name: 'web', namespace: 'default' },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
});
const templateSpec = (o: Obj): Obj => (o.template as Obj).spec as Obj;
const errorsOf = (mutate: (o: Obj) => void): string[] => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(podTemplate, o);
  return messages(validateCreate(podTemplate, o));
};

describe('core/v1 PodTemplate: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: namespaced, no short name, no status', () => {
    expect(podTemplate).to.include({
      group: '',
      version: 'v1',
      kind: 'PodTemplate',
      resource: 'podtemplates',
      singular: 'podtemplate',
      namespaced: true,
      statusSubresource: false,
      nameRule: 'dns1123Subdomain',
    });
    expect(podTemplate.shortNames).to.deep.equal([]);
    expect(podTemplate.categories).to.deep.equal([]);
  });

  it('holds the shared PodTemplateSpec at field 2', () => {
    const fields = podTemplate.schema.fields as Record<string, { proto: number; schema: unknown }>;
    expect(fields.template!.proto).to.equal(2);
    expect(fields.template!.schema).to.equal(podTemplateSpec);
  });

  it('decodes a minimal template, applies the pod defaults to its spec and validates clean', () => {
    const pt = minimal();
    expect(decodeAndDefault(podTemplate, pt)).to.deep.equal({ unknownFields: [] });
    expect(templateSpec(pt)).to.deep.include({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30 });
    expect((templateSpec(pt).containers as Obj[])[0]).to.deep.include({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
    expect(validateCreate(podTemplate, pt)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    const complete = (): Obj => ({ apiVersion: 'v1', ...fixture('pod-template') });
    expect(decodeAndDefault(podTemplate, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(podTemplate.schema, complete())).to.deep.equal([]);
  });
});

describe('core/v1 PodTemplate: validation (upstream ValidatePodTemplate; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the template needs containers', (o) => (templateSpec(o).containers = []), ['template.spec.containers: Required value']],
    ['template labels are valid', (o) => (((o.template as Obj).metadata as Obj).labels = { 'bad key!': 'x' }), [
      "template.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
    ['any restart policy is allowed (unlike workload templates)', (o) => (templateSpec(o).restartPolicy = 'Never'), []],
    ['ephemeral containers are not allowed', (o) => (templateSpec(o).ephemeralContainers = [{ name: 'debug', image: 'busybox' }]), [
      'template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  it('validates the new template on update', () => {
    const old = variant(minimal(), (o) => ((o.metadata as Obj).resourceVersion = '1'));
    decodeAndDefault(podTemplate, old);
    expect(messages(validateUpdate(podTemplate, variant(old, (o) => ((templateSpec(o).containers as Obj[])[0]!.image = 'nginx:1.26')), old))).to.deep.equal([]);
    expect(messages(validateUpdate(podTemplate, variant(old, (o) => (templateSpec(o).containers = [])), old))).to.deep.equal(['template.spec.containers: Required value']);
  });
});
