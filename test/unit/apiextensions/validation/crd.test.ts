/**
 * CustomResourceDefinition validation on create (upstream v1.30 apiextensions
 * `ValidateCustomResourceDefinition`): messages, paths of upstream's internal form, order, and
 * the calls of the schema and JSONPath hooks.
 */
import { expect } from 'chai';
import { invalid } from '../../../../lib/apimachinery/field-errors.js';
import type { CustomResourceDefinition } from '../../../../lib/apiextensions/types.js';
import { validateCustomResourceDefinition } from '../../../../lib/apiextensions/validation/crd.js';
import { crd, messages, recordingHooks, schema } from './fixtures.js';

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const NIL_VERSION = (name: string, storage: boolean, served = true) =>
  `apiextensions.CustomResourceDefinitionVersion{Name:"${name}", Served:${served}, Storage:${storage}, Deprecated:false, DeprecationWarning:(*string)(nil), ` +
  'Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), ' +
  'AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), SelectableFields:[]apiextensions.SelectableField(nil)}';

const validate = (c: CustomResourceDefinition) => messages(validateCustomResourceDefinition(c, recordingHooks()));
const twoVersions = (c: CustomResourceDefinition) => {
  c.spec.versions = [
    { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema() } },
    { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
  ];
};

const cases: { name: string; change: (c: CustomResourceDefinition) => void; want: string[] }[] = [
  { name: 'a valid definition', change: () => undefined, want: [] },
  {
    name: 'a name other than <plural>.<group>',
    change: (c) => (c.metadata.name = 'gadgets.example.com'),
    want: ['metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group'],
  },
  {
    name: 'a name that is no DNS subdomain, then the plural rule',
    change: (c) => (c.metadata.name = 'Widgets.example.com'),
    want: [`metadata.name: Invalid value: "Widgets.example.com": ${DNS1123}`, 'metadata.name: Invalid value: "Widgets.example.com": must be spec.names.plural+"."+spec.group'],
  },
  {
    name: 'a group without a dot',
    change: (c) => {
      c.spec.group = 'example';
      c.metadata.name = 'widgets.example';
    },
    want: ['spec.group: Invalid value: "example": should be a domain with at least one dot'],
  },
  {
    name: 'a missing group',
    change: (c) => {
      c.spec.group = '';
      c.metadata.name = 'widgets.';
    },
    want: [`metadata.name: Invalid value: "widgets.": ${DNS1123}`, 'spec.group: Required value'],
  },
  { name: 'an unknown scope', change: (c) => (c.spec.scope = 'Global'), want: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'] },
  { name: 'a missing scope', change: (c) => (c.spec.scope = ''), want: ['spec.scope: Required value'] },
  {
    name: 'a version without schema',
    change: (c) => delete c.spec.versions[0]!.schema,
    want: ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required'],
  },
  {
    name: 'no storage version (and so no stored version)',
    change: (c) => {
      c.spec.versions[0]!.storage = false;
      delete c.spec.versions[0]!.schema;
      c.status = {};
    },
    want: [
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
      `spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${NIL_VERSION('v1', false)}}: must have exactly one version marked as storage version`,
      'status.storedVersions: Invalid value: []string(nil): must have at least one stored version',
    ],
  },
  {
    name: 'duplicate version names',
    change: (c) => {
      c.spec.versions = [
        { name: 'v1', served: true, storage: true },
        { name: 'v1', served: true, storage: false },
      ];
    },
    want: [
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
      'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
      `spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${NIL_VERSION('v1', true)}, ${NIL_VERSION('v1', false)}}: must contain unique version names`,
    ],
  },
  {
    name: 'a version name that is no DNS-1035 label (also reported as spec.version)',
    change: (c) => {
      c.spec.versions[0]!.name = 'V1';
      c.status = { storedVersions: ['V1'] };
    },
    want: [`spec.versions[0].name: Invalid value: "V1": ${DNS1035}`, `spec.version: Invalid value: "V1": ${DNS1035}`],
  },
  {
    name: 'missing names',
    change: (c) => {
      c.spec.names = { plural: '', kind: '' };
      c.metadata.name = '.example.com';
    },
    want: [
      `metadata.name: Invalid value: ".example.com": ${DNS1123}`,
      'spec.names.plural: Required value',
      'spec.names.singular: Required value',
      'spec.names.kind: Required value',
      'spec.names.listKind: Required value',
    ],
  },
  {
    name: 'invalid names, kind equal to listKind',
    change: (c) => {
      c.spec.names = { plural: 'widgets', singular: 'Widget', kind: 'Wid_get', listKind: 'Wid_get', shortNames: ['w', 'W'], categories: ['all', 'my_cat'] };
    },
    want: [
      `spec.names.singular: Invalid value: "Widget": ${DNS1035}`,
      `spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.listKind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.shortNames[1]: Invalid value: "W": ${DNS1035}`,
      'spec.names.listKind: Invalid value: "Wid_get": kind and listKind may not be the same',
      `spec.names.categories[1]: Invalid value: "my_cat": ${DNS1035}`,
    ],
  },
  {
    name: 'a deprecation warning on a version that is not deprecated',
    change: (c) => (c.spec.versions[0]!.deprecationWarning = 'old'),
    want: ['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions'],
  },
  {
    name: 'a deprecation warning too long, with a non-printable character',
    change: (c) => {
      c.spec.versions[0]!.deprecated = true;
      c.spec.versions[0]!.deprecationWarning = `é\t${'x'.repeat(256)}`;
    },
    want: [
      `spec.versions[0].deprecationWarning: Invalid value: "é\\t${'x'.repeat(256)}": must be <= 256 characters long`,
      `spec.versions[0].deprecationWarning: Invalid value: "é\\t${'x'.repeat(256)}": must only contain printable UTF-8 characters; non-printable character found at index 2`,
    ],
  },
  {
    name: 'an empty deprecation warning',
    change: (c) => {
      c.spec.versions[0]!.deprecated = true;
      c.spec.versions[0]!.deprecationWarning = '';
    },
    want: ['spec.versions[0].deprecationWarning: Invalid value: "": must not be an empty string'],
  },
  {
    name: 'scale paths outside .spec / .status (single version: top-level paths)',
    change: (c) => (c.spec.versions[0]!.subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: '.metadata.x' } }),
    want: [
      'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.x": should be a json path under either .spec or .status',
    ],
  },
  {
    name: 'missing scale paths',
    change: (c) => (c.spec.versions[0]!.subresources = { scale: { specReplicasPath: '', statusReplicasPath: '' } }),
    want: ['spec.subresources.scale.specReplicasPath: Required value', 'spec.subresources.scale.statusReplicasPath: Required value'],
  },
  {
    name: 'per-version subresources when they differ',
    change: (c) => {
      twoVersions(c);
      c.spec.versions[1]!.subresources = { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.spec.replicas' } };
    },
    want: ['spec.versions[1].subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status'],
  },
  {
    name: 'printer columns: name, type, format, jsonPath',
    change: (c) => {
      c.spec.versions[0]!.additionalPrinterColumns = [
        { name: '', type: '', jsonPath: '' },
        { name: 'Age', type: 'time', format: 'duration', jsonPath: 'metadata' },
      ];
    },
    want: [
      'spec.additionalPrinterColumns[0].name: Required value',
      'spec.additionalPrinterColumns[0].type: Required value: must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].JSONPath: Required value',
      'spec.additionalPrinterColumns[1].type: Invalid value: "time": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[1].format: Invalid value: "duration": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "metadata": must be a simple json path starting with .',
    ],
  },
  {
    name: 'conversion: unknown strategy',
    change: (c) => (c.spec.conversion = { strategy: 'Magic' }),
    want: ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"'],
  },
  {
    name: 'conversion: Webhook without client configuration nor review versions',
    change: (c) => (c.spec.conversion = { strategy: 'Webhook' }),
    want: ['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook', 'spec.conversion.conversionReviewVersions: Required value'],
  },
  {
    name: 'conversion: Webhook with both url and service, unknown review versions',
    change: (c) =>
      (c.spec.conversion = {
        strategy: 'Webhook',
        webhook: { clientConfig: { url: 'https://a.example.com', service: { namespace: 'ns', name: 'svc' } }, conversionReviewVersions: ['v2', 'v2', 'V3'] },
      }),
    want: [
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      `spec.conversion.conversionReviewVersions[2]: Invalid value: "V3": ${DNS1035}`,
      'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2", "V3"}: must include at least one of v1, v1beta1',
    ],
  },
  {
    name: 'conversion: Webhook with an http url',
    change: (c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://a.example.com/convert' }, conversionReviewVersions: ['v1'] } }),
    want: ["spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"],
  },
  {
    name: 'conversion: None with a webhook',
    change: (c) => (c.spec.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://a.example.com' }, conversionReviewVersions: ['v1'] } }),
    want: [
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ],
  },
  {
    name: 'preserveUnknownFields: true, with defaults and a webhook',
    change: (c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.spec!.properties!.color!.default = 'red';
      c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a.example.com' }, conversionReviewVersions: ['v1'] } };
    },
    want: [
      'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
      'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-orch-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ],
  },
  {
    name: 'stored versions not in spec.versions, storage version missing',
    change: (c) => (c.status = { storedVersions: ['v0', 'v1beta1'] }),
    want: [
      'status.storedVersions: Invalid value: []string{"v0", "v1beta1"}: must have the storage version v1',
      'status.storedVersions[0]: Invalid value: "v0": must appear in spec.versions',
      'status.storedVersions[1]: Invalid value: "v1beta1": must appear in spec.versions',
    ],
  },
  {
    name: 'accepted names are checked, not required',
    change: (c) => (c.status = { storedVersions: ['v1'], acceptedNames: { plural: 'Widgets', kind: '' } }),
    want: [`status.acceptedNames.plural: Invalid value: "Widgets": ${DNS1035}`],
  },
  {
    name: 'selectable fields: unknown field, wrong type, duplicate, empty, no leading dot',
    change: (c) =>
      (c.spec.versions[0]!.selectableFields = [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.nope' }, { jsonPath: '.spec.tags' }, { jsonPath: ".spec['color']" }, { jsonPath: '' }, { jsonPath: 'spec' }]),
    want: [
      'spec.selectableFields[1].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[2].jsonPath: Invalid value: ".spec.tags": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[3].jsonPath: Duplicate value: ".spec[\'color\']"',
      'spec.selectableFields[4].jsonPath: Required value',
      'spec.selectableFields[5].jsonPath: Invalid value: "spec": is an invalid path: expected [ or . but got: spec',
    ],
  },
];

describe('validateCustomResourceDefinition (upstream apiextensions validation)', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const c = crd();
      tc.change(c);
      expect(validate(c)).to.deep.equal(tc.want);
    });
  }

  it('hands a schema shared by every version to the schema hook at spec.validation.openAPIV3Schema', () => {
    const c = crd();
    c.spec.versions.push({ name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: schema() } });
    c.spec.versions[0]!.subresources = { status: {} };
    const hooks = recordingHooks();
    validateCustomResourceDefinition(c, hooks);
    expect(hooks.calls).to.have.length(1);
    expect(hooks.calls[0]).to.deep.include({ hook: 'schema', path: 'spec.validation.openAPIV3Schema', ctx: { statusEnabled: true, isUpdate: false } });
  });

  it('hands per-version schemas to the hook at their version paths, with that version’s status subresource', () => {
    const c = crd();
    twoVersions(c);
    c.spec.versions[1]!.subresources = { status: {} };
    const hooks = recordingHooks({ schema: (p) => [invalid(p.child('type'), 'x', 'from the hook')] });
    const errs = messages(validateCustomResourceDefinition(c, hooks));
    expect(hooks.calls.map((x) => [x.path, x.hook === 'schema' && x.ctx.statusEnabled])).to.deep.equal([
      ['spec.versions[0].schema.openAPIV3Schema', false],
      ['spec.versions[1].schema.openAPIV3Schema', true],
    ]);
    expect(errs).to.deep.equal([
      'spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "x": from the hook',
      'spec.versions[1].schema.openAPIV3Schema.type: Invalid value: "x": from the hook',
    ]);
  });

  it('hands simple printer-column paths to the JSONPath hook, and reports what it finds', () => {
    const c = crd();
    c.spec.versions[0]!.additionalPrinterColumns = [
      { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      { name: 'Bad', type: 'string', jsonPath: 'x' },
    ];
    const hooks = recordingHooks({ jsonPath: (p) => [invalid(p, '.spec.color', 'bad path')] });
    expect(messages(validateCustomResourceDefinition(c, hooks))).to.deep.equal([
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: ".spec.color": bad path',
      'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "x": must be a simple json path starting with .',
    ]);
    expect(hooks.calls).to.deep.include({ hook: 'jsonPath', path: 'spec.additionalPrinterColumns[0].JSONPath', value: '.spec.color' });
    expect(hooks.calls.filter((x) => x.hook === 'jsonPath')).to.have.length(1);
  });

  it('never throws on malformed input', () => {
    const bad = { metadata: null, spec: { versions: [null, 3, { name: 7 }], names: 'x', conversion: { webhook: null } }, status: { storedVersions: 'v1' } };
    expect(() => validateCustomResourceDefinition(bad as unknown as CustomResourceDefinition, recordingHooks())).not.to.throw();
  });
});
