import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APISERVER_CONFIG_GROUP, UPSTREAM_DOMAIN } from '../../../../lib/apis/vendor.js';
import { decodeAuthorizationConfiguration, loadAuthorizationConfiguration } from '../../../../lib/authorization/config/configuration.js';
import { covers } from '../../../conformance/covers.js';

const API_VERSION = `${APISERVER_CONFIG_GROUP}/v1beta1`;

describe('authorization/config: AuthorizationConfiguration (spec 001 § Authorization, § Limits)', () => {
  let dir: string;
  let kubeconfig: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'authz-config-'));
    kubeconfig = path.join(dir, 'webhook.kubeconfig');
    await writeFile(kubeconfig, 'apiVersion: v1\nkind: Config\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** A webhook entry with every required field. */
  const webhook = (over: Record<string, unknown> = {}) => ({
    type: 'Webhook',
    name: 'w',
    webhook: {
      timeout: '3s',
      subjectAccessReviewVersion: 'v1',
      matchConditionSubjectAccessReviewVersion: 'v1',
      failurePolicy: 'NoOpinion',
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
      ...over,
    },
  });
  const doc = (authorizers: unknown[]) => JSON.stringify({ apiVersion: API_VERSION, kind: 'AuthorizationConfiguration', authorizers });

  it(`defaults authorizedTTL to 5m0s and unauthorizedTTL to 30s${covers('001 § Limits › Authorization webhook cache')}`, async () => {
    const { config } = await loadAuthorizationConfiguration(doc([webhook(), { type: 'Node', name: 'node' }, { type: 'RBAC', name: 'rbac' }]));
    expect(config.authorizers.map((a) => a.type)).to.deep.equal(['Webhook', 'Node', 'RBAC']);
    expect(config.authorizers[0]!.webhook).to.include({ authorizedTTLMs: 300_000, unauthorizedTTLMs: 30_000, timeoutMs: 3000 });
  });

  it('reads YAML and the upstream spelling of the group', async () => {
    const yaml = `apiVersion: apiserver.config.${UPSTREAM_DOMAIN}/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n`;
    expect((await loadAuthorizationConfiguration(yaml)).config.authorizers).to.deep.equal([{ type: 'RBAC', name: 'rbac' }]);
  });

  it('accepts `KubeConfig` as spec 001 names the connection type', async () => {
    await loadAuthorizationConfiguration(doc([webhook({ connectionInfo: { type: 'KubeConfig', kubeConfigFile: kubeconfig } })]));
  });

  it('compiles match conditions once', async () => {
    const { matchConditions } = await loadAuthorizationConfiguration(doc([webhook({ matchConditions: [{ expression: "request.user != 'x'" }] })]));
    expect(matchConditions.get(0)!.programs).to.have.length(1);
  });

  // One row per rule of upstream ValidateAuthorizationConfiguration and kube-apiserver's checks.
  const rejected: Array<[string, () => unknown[] | string, string]> = [
    ['no authorizers', () => [], 'authorizers: Required value: at least one authorization mode must be defined'],
    ['no type', () => [{ name: 'x' }], 'authorizers[0].type: Required value'],
    ['an unknown type', () => [{ type: 'Foo', name: 'x' }], 'authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"'],
    ['RBAC twice', () => [{ type: 'RBAC', name: 'rbac' }, { type: 'RBAC', name: 'rbac2' }], 'authorizers[1].type: Duplicate value: "RBAC"'],
    ['no name', () => [{ ...webhook(), name: '' }], 'authorizers[0].name: Required value'],
    ['the same name twice', () => [webhook(), webhook()], 'authorizers[1].name: Duplicate value: "w"'],
    ['a name that is not a DNS subdomain', () => [{ ...webhook(), name: 'Bad_Name' }], 'authorizers[0].name: Invalid value: "Bad_Name": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of'],
    ['a Webhook without webhook', () => [{ type: 'Webhook', name: 'w' }], 'authorizers[0].webhook: Required value: required when type=Webhook'],
    ['webhook on another type', () => [{ type: 'RBAC', name: 'rbac', webhook: webhook().webhook }], 'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook'],
    ['no timeout', () => [webhook({ timeout: undefined })], 'authorizers[0].timeout: Required value'],
    ['a timeout over 30s', () => [webhook({ timeout: '31s' })], 'authorizers[0].timeout: Invalid value: "31s": must be > 0s and <= 30s'],
    ['a negative authorizedTTL', () => [webhook({ authorizedTTL: '-1s' })], 'authorizers[0].authorizedTTL: Invalid value: "-1s": must be > 0s'],
    ['a negative unauthorizedTTL', () => [webhook({ unauthorizedTTL: '-1m' })], 'authorizers[0].unauthorizedTTL: Invalid value: "-1m0s": must be > 0s'],
    ['no subjectAccessReviewVersion', () => [webhook({ subjectAccessReviewVersion: undefined })], 'authorizers[0].subjectAccessReviewVersion: Required value'],
    ['subjectAccessReviewVersion v2', () => [webhook({ subjectAccessReviewVersion: 'v2' })], 'authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"'],
    [
      'match conditions without matchConditionSubjectAccessReviewVersion',
      () => [webhook({ matchConditionSubjectAccessReviewVersion: undefined, matchConditions: [{ expression: 'true' }] })],
      'authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
    ],
    ['matchConditionSubjectAccessReviewVersion v1beta1', () => [webhook({ matchConditionSubjectAccessReviewVersion: 'v1beta1' })], 'authorizers[0].matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"'],
    ['no failurePolicy', () => [webhook({ failurePolicy: undefined })], 'authorizers[0].failurePolicy: Required value'],
    ['failurePolicy Allow', () => [webhook({ failurePolicy: 'Allow' })], 'authorizers[0].failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny"'],
    ['no connectionInfo type', () => [webhook({ connectionInfo: {} })], 'authorizers[0].connectionInfo.type: Required value'],
    ['an unknown connectionInfo type', () => [webhook({ connectionInfo: { type: 'Other' } })], 'authorizers[0].connectionInfo.type: Unsupported value: "Other": supported values: "InClusterConfig", "KubeConfigFile"'],
    [
      'InClusterConfig with a kubeConfigFile',
      () => [webhook({ connectionInfo: { type: 'InClusterConfig', kubeConfigFile: kubeconfig } })],
      `authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "${'<k>'}": can only be set when type=KubeConfigFile`,
    ],
    ['KubeConfigFile without a file', () => [webhook({ connectionInfo: { type: 'KubeConfigFile' } })], 'authorizers[0].connectionInfo.kubeConfigFile: Required value'],
    ['a relative kubeConfigFile', () => [webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: 'rel.kubeconfig' } })], 'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "rel.kubeconfig": must be an absolute path'],
    [
      'a missing kubeConfigFile',
      () => [webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/nonexistent/w.kubeconfig' } })],
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "/nonexistent/w.kubeconfig": error loading file: stat /nonexistent/w.kubeconfig: no such file or directory',
    ],
    ['a directory as kubeConfigFile', () => [webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '<dir>' } })], 'must be a regular file'],
    ['65 match conditions', () => [webhook({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ expression: `request.user != 'u${i}'` })) })], 'authorizers[0].matchConditions: Too many: 65: must have at most 64 items'],
    ['an empty match condition', () => [webhook({ matchConditions: [{ expression: ' ' }] })], 'authorizers[0].matchConditions[0].expression: Required value'],
    ['a duplicate match condition', () => [webhook({ matchConditions: [{ expression: 'true' }, { expression: 'true' }] })], 'authorizers[0].matchConditions[1].expression: Duplicate value: "true"'],
    ['a match condition that is not bool', () => [webhook({ matchConditions: [{ expression: 'request.user' }] })], 'authorizers[0].matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool'],
    ['a match condition that does not compile', () => [webhook({ matchConditions: [{ expression: 'request.nope == 1' }] })], 'authorizers[0].matchConditions[0].expression: Invalid value: "request.nope == 1": compilation failed:'],
    ['InClusterConfig, which the API server does not allow', () => [webhook({ connectionInfo: { type: 'InClusterConfig' } })], 'authorizers[0].connectionInfo.type: Unsupported value: "InClusterConfig": supported values: "KubeConfigFile"'],
    ['a Node authorizer not named node', () => [{ type: 'Node', name: 'nodes' }], 'expected name node for authorizer Node instead of nodes'],
    ['errors aggregated', () => [{ type: 'Node', name: 'x' }, { type: 'RBAC', name: 'y' }], '[expected name node for authorizer Node instead of x, expected name rbac for authorizer RBAC instead of y]'],
    ['a syntax error', () => '{"apiVersion":', 'failed to load AuthorizationConfiguration from file: unexpected end of JSON input'],
    ['an unknown field', () => JSON.stringify({ apiVersion: API_VERSION, kind: 'AuthorizationConfiguration', authorizers: [{ type: 'RBAC', name: 'rbac', foo: 1 }] }), 'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].foo"'],
    ['a wrong kind', () => JSON.stringify({ apiVersion: API_VERSION, kind: 'AuthenticationConfiguration' }), 'failed to load AuthorizationConfiguration from file: no kind "AuthenticationConfiguration" is registered for version'],
    ['a bad duration', () => [webhook({ timeout: '3' })], 'failed to load AuthorizationConfiguration from file: time: missing unit in duration "3"'],
  ];
  /** The spec 001 rows some cases cover. */
  const specRows: Record<string, string[]> = {
    'a timeout over 30s': ['001 § Limits › Authorization webhook timeout'],
    '65 match conditions': ['001 § Limits › Authorization match conditions'],
  };
  for (const [title, make, message] of rejected) {
    const rows = specRows[title];
    it(`rejects ${title}${rows ? covers(...rows) : ''}`, async () => {
      const made = make();
      let data = typeof made === 'string' ? made : doc(made);
      data = data.replaceAll('<dir>', dir);
      let err: Error | undefined;
      await loadAuthorizationConfiguration(data).catch((e: Error) => (err = e));
      expect(err, 'an error').to.be.instanceOf(Error);
      expect(err!.message).to.include(message.replace('<k>', kubeconfig));
    });
  }

  it('on reload, every non-Webhook type of the first file must stay (missing required types)', async () => {
    let err: Error | undefined;
    await loadAuthorizationConfiguration(doc([webhook()]), new Set(['RBAC', 'Node'])).catch((e: Error) => (err = e));
    expect(err?.message).to.equal('missing required types: [Node RBAC]');
  });

  it('decodes an empty document as an error', () => {
    expect(() => decodeAuthorizationConfiguration('')).to.throw('empty config data');
  });
});
