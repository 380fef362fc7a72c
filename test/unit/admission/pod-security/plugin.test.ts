import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL, WARN_LEVEL_LABEL, AUDIT_LEVEL_LABEL } from '../../../../lib/admission/plugins/pod-security/api.js';
import { type PodSecurityConfig, defaultPodSecurityConfig } from '../../../../lib/admission/plugins/pod-security/config.js';
import { DEFAULT_CHECKS, Evaluator } from '../../../../lib/admission/plugins/pod-security/evaluator.js';
import { PodSecurity } from '../../../../lib/admission/plugins/pod-security/plugin.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/core/v1/obj-access.js';
import { type RequestContext, internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const USER = { name: 'alice', groups: [] };
const RESTRICTED_PLAIN =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

const ns = (name: string, labels: Record<string, string> = {}): Obj => ({ metadata: { name, labels } });
const pod = (name: string, spec: Obj = {}, meta: Obj = {}): Obj => ({ metadata: { name, namespace: 'ns', ...meta }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });

interface Harness {
  plugin: PodSecurity;
  namespaces: Map<string, Obj>;
  pods: Obj[];
  lookups: number;
}

function harness(config: PodSecurityConfig = defaultPodSecurityConfig(), limits = { maxPods: 3000, timeoutMs: 1000 }): Harness {
  const h: Harness = { namespaces: new Map(), pods: [], lookups: 0, plugin: undefined as unknown as PodSecurity };
  h.plugin = new PodSecurity(
    config,
    new Evaluator(DEFAULT_CHECKS),
    {
      namespace: async (name) => {
        h.lookups++;
        return h.namespaces.get(name) ?? null;
      },
      listPods: (namespace) => h.pods.filter((p) => (p.metadata as Obj).namespace === namespace),
    },
    limits,
  );
  return h;
}

/** Runs `validate`; returns the context (warnings, audit annotations) and the rejection, if any. */
async function run(h: Harness, a: Partial<AdmissionAttributes>): Promise<{ ctx: RequestContext; error?: StatusError }> {
  const ctx = internalContext(a.user ?? USER);
  try {
    await h.plugin.validate(ctx, admissionAttrs(a.user ?? USER, a));
    return { ctx };
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return { ctx, error: err };
  }
}

const podCreate = (p: Obj, extra: Partial<AdmissionAttributes> = {}): Partial<AdmissionAttributes> => ({ resource: 'pods', kind: 'Pod', namespace: 'ns', name: (p.metadata as Obj).name as string, object: p, ...extra });

describe('PodSecurity admission plugin', () => {
  it('handles create and update only', () => {
    const { plugin } = harness();
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].map((op) => plugin.handles(op as AdmissionAttributes['operation']))).to.deep.equal([true, true, false, false]);
  });

  it('an unlabelled namespace under the default configuration: no evaluation, enforce-policy privileged:latest', async () => {
    const h = harness();
    h.namespaces.set('ns', ns('ns'));
    const { ctx, error } = await run(h, podCreate(pod('p', { hostPID: true, containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] })));
    expect(error).to.equal(undefined);
    expect(ctx.warnings).to.deep.equal([]);
    expect(ctx.auditAnnotations).to.deep.equal({ 'pod-security.orch.io/enforce-policy': 'privileged:latest' });
  });

  it('enforce rejects a pod with 403 and the upstream message; audit annotations are still recorded', async () => {
    const h = harness();
    h.namespaces.set('ns', ns('ns', { [ENFORCE_LEVEL_LABEL]: 'restricted', [AUDIT_LEVEL_LABEL]: 'baseline' }));
    const { ctx, error } = await run(h, podCreate(pod('x', { hostNetwork: true })));
    expect(error?.status.code).to.equal(403);
    expect(error?.status.reason).to.equal('Forbidden');
    expect(error?.status.message).to.equal(`pods "x" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork), ${RESTRICTED_PLAIN}`);
    expect(error?.status.details).to.deep.equal({ name: 'x', kind: 'pods' });
    expect(ctx.warnings).to.deep.equal([]);
    expect(ctx.auditAnnotations).to.deep.equal({
      'pod-security.orch.io/enforce-policy': 'restricted:latest',
      'pod-security.orch.io/audit-violations': 'would violate PodSecurity "baseline:latest": host namespaces (hostNetwork)',
    });
  });

  it('warn adds a Warning with the pinned version; a passing pod gets none', async () => {
    const h = harness();
    h.namespaces.set('ns', ns('ns', { [WARN_LEVEL_LABEL]: 'restricted', 'pod-security.orch.io/warn-version': 'v1.24' }));
    const { ctx, error } = await run(h, podCreate(pod('x')));
    expect(error).to.equal(undefined);
    expect(ctx.warnings).to.deep.equal([`would violate PodSecurity "restricted:v1.24": ${RESTRICTED_PLAIN}`]);
    expect(ctx.auditAnnotations).to.deep.equal({ 'pod-security.orch.io/enforce-policy': 'privileged:latest' });
  });

  it('workloads: warn and audit on the pod template, never enforce; subresources ignored', async () => {
    const h = harness();
    h.namespaces.set('ns', ns('ns', { [ENFORCE_LEVEL_LABEL]: 'restricted', [WARN_LEVEL_LABEL]: 'baseline' }));
    const template = { metadata: { labels: { app: 'a' } }, spec: { hostIPC: true, containers: [{ name: 'c', image: 'i' }] } };
    const deployment = { metadata: { name: 'd', namespace: 'ns' }, spec: { template } };
    const r = await run(h, { group: 'apps', resource: 'deployments', namespace: 'ns', name: 'd', object: deployment });
    expect(r.error).to.equal(undefined);
    expect(r.ctx.warnings).to.deep.equal(['would violate PodSecurity "baseline:latest": host namespaces (hostIPC)']);
    const cron = { metadata: { name: 'j' }, spec: { jobTemplate: { spec: { template } } } };
    expect((await run(h, { group: 'batch', resource: 'cronjobs', namespace: 'ns', name: 'j', object: cron })).ctx.warnings).to.have.length(1);
    expect((await run(h, { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'd', object: {} })).ctx.warnings).to.deep.equal([]);
    expect((await run(h, { group: 'apps', resource: 'controllerrevisions', namespace: 'ns', name: 'r', object: deployment })).ctx.warnings).to.deep.equal([]);
  });

  it('pod updates: only significant changes are evaluated; ignored subresources pass', async () => {
    const h = harness();
    h.namespaces.set('ns', ns('ns', { [ENFORCE_LEVEL_LABEL]: 'baseline' }));
    const old = pod('x', { hostPID: true });
    const relabelled = pod('x', { hostPID: true }, { labels: { a: 'b' } });
    expect((await run(h, podCreate(relabelled, { operation: 'UPDATE', oldObject: old }))).error).to.equal(undefined);
    const newImage = pod('x', { hostPID: true, containers: [{ name: 'c', image: 'j' }] });
    expect((await run(h, podCreate(newImage, { operation: 'UPDATE', oldObject: old }))).error?.status.message).to.equal('pods "x" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID)');
    const withEphemeral = pod('x', { ephemeralContainers: [{ name: 'e', image: 'i', securityContext: { privileged: true } }] });
    expect((await run(h, podCreate(withEphemeral, { operation: 'UPDATE', subresource: 'ephemeralcontainers', oldObject: pod('x') }))).error?.status.message).to.equal(
      'pods "x" is forbidden: violates PodSecurity "baseline:latest": privileged (container "e" must not set securityContext.privileged=true)',
    );
    expect((await run(h, podCreate(newImage, { operation: 'UPDATE', subresource: 'status', oldObject: old }))).error).to.equal(undefined);
  });

  it('exemptions: namespace, user and runtime class, with the exempt audit annotation', async () => {
    const config = defaultPodSecurityConfig();
    config.exemptions = { namespaces: new Set(['free']), usernames: new Set(['bob']), runtimeClasses: new Set(['kata']) };
    const h = harness(config);
    h.namespaces.set('ns', ns('ns', { [ENFORCE_LEVEL_LABEL]: 'restricted' }));
    h.namespaces.set('free', ns('free', { [ENFORCE_LEVEL_LABEL]: 'restricted' }));
    const a = await run(h, podCreate(pod('x'), { namespace: 'free' }));
    expect([a.error, a.ctx.auditAnnotations]).to.deep.equal([undefined, { 'pod-security.orch.io/exempt': 'namespace' }]);
    const b = await run(h, podCreate(pod('x'), { user: { name: 'bob', groups: [] } }));
    expect([b.error, b.ctx.auditAnnotations]).to.deep.equal([undefined, { 'pod-security.orch.io/exempt': 'user' }]);
    const c = await run(h, podCreate(pod('x', { runtimeClassName: 'kata' })));
    expect([c.error, c.ctx.auditAnnotations]).to.deep.equal([undefined, { 'pod-security.orch.io/exempt': 'runtimeClass' }]);
    expect((await run(h, podCreate(pod('x', { runtimeClassName: 'runc' })))).error?.status.code).to.equal(403);
  });

  it('configured defaults apply to unlabelled namespaces; invalid labels fail closed with an error annotation', async () => {
    const config = defaultPodSecurityConfig();
    config.defaults.enforce = { level: 'baseline', version: 'latest' };
    const h = harness(config);
    h.namespaces.set('ns', ns('ns'));
    expect((await run(h, podCreate(pod('x', { hostPID: true })))).error?.status.message).to.equal('pods "x" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID)');
    h.namespaces.set('ns', ns('ns', { [ENFORCE_LEVEL_LABEL]: 'bogus' }));
    const r = await run(h, podCreate(pod('x')));
    expect(r.error?.status.message).to.equal(`pods "x" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_PLAIN}`);
    expect(r.ctx.auditAnnotations['pod-security.orch.io/error']).to.equal(
      'Failed to parse policy: metadata.labels[pod-security.orch.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted',
    );
  });

  it('a pod in a namespace that cannot be found: 500 as upstream; a workload passes with an error annotation', async () => {
    const h = harness();
    const r = await run(h, podCreate(pod('x'), { namespace: 'gone' }));
    expect([r.error?.status.code, r.error?.status.message]).to.deep.equal([500, 'Internal error occurred: failed to lookup namespace "gone"']);
    const w = await run(h, { group: 'apps', resource: 'deployments', namespace: 'gone', name: 'd', object: { spec: { template: {} } } });
    expect(w.error).to.equal(undefined);
    expect(w.ctx.auditAnnotations['pod-security.orch.io/error']).to.equal('failed to lookup namespace "gone": namespaces "gone" not found');
  });
});

describe('PodSecurity on namespaces', () => {
  const nsAttrs = (obj: Obj, old?: Obj): Partial<AdmissionAttributes> => ({
    resource: 'namespaces',
    kind: 'Namespace',
    name: (obj.metadata as Obj).name as string,
    operation: old ? 'UPDATE' : 'CREATE',
    object: obj,
    oldObject: old ?? null,
  });

  it('rejects invalid labels on create with 422 Invalid; an update keeps already-invalid labels', async () => {
    const h = harness();
    const badLabels = { [ENFORCE_LEVEL_LABEL]: 'foo', [ENFORCE_VERSION_LABEL]: 'v1' };
    const bad = ns('ns', badLabels);
    const r = await run(h, nsAttrs(bad));
    expect(r.error?.status.code).to.equal(422);
    expect(r.error?.status.message).to.equal(
      'Namespace "ns" is invalid: [metadata.labels[pod-security.orch.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted, metadata.labels[pod-security.orch.io/enforce-version]: Invalid value: "v1": must be "latest" or "v1.x"]',
    );
    expect((await run(h, nsAttrs(ns('ns', { ...badLabels, other: 'x' }), bad))).error).to.equal(undefined);
    expect((await run(h, nsAttrs(ns('ns', { [ENFORCE_LEVEL_LABEL]: 'bar' }), bad))).error?.status.code).to.equal(422);
    expect((await run(h, nsAttrs(bad, ns('ns')))).error?.status.code).to.equal(422);
  });

  it('tightening enforce warns about existing pods, grouped by violations, first name and count', async () => {
    const h = harness();
    h.pods.push(pod('web-2', { hostPID: true }), pod('web-1', { hostPID: true }), pod('web-3', { hostPID: true }), pod('db', { hostNetwork: true, containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] }), pod('ok', {}));
    h.pods.push({ metadata: { name: 'elsewhere', namespace: 'other' }, spec: { hostPID: true } });
    const r = await run(h, nsAttrs(ns('ns', { [ENFORCE_LEVEL_LABEL]: 'baseline' }), ns('ns')));
    expect(r.error).to.equal(undefined);
    expect(r.ctx.warnings).to.deep.equal(['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"', 'db: host namespaces, privileged', 'web-1 (and 2 other pods): host namespaces']);
    expect((await run(h, nsAttrs(ns('ns', { [ENFORCE_LEVEL_LABEL]: 'baseline' }), ns('ns', { [ENFORCE_LEVEL_LABEL]: 'restricted' })))).ctx.warnings).to.deep.equal([]);
    expect((await run(h, nsAttrs(ns('ns', { [ENFORCE_LEVEL_LABEL]: 'baseline' }), ns('ns', { [ENFORCE_LEVEL_LABEL]: 'baseline' })))).ctx.warnings).to.deep.equal([]);
    expect((await run(h, nsAttrs(ns('ns', { [WARN_LEVEL_LABEL]: 'restricted' }), ns('ns')))).ctx.warnings).to.deep.equal([]);
    expect((await run(h, nsAttrs(ns('ns', { [ENFORCE_LEVEL_LABEL]: 'baseline' })))).ctx.warnings).to.deep.equal([]);
  });

  it('evaluates at most maxPods pods, one per controller first, and says so', async () => {
    const h = harness(defaultPodSecurityConfig(), { maxPods: 2, timeoutMs: 1000 });
    const owned = (name: string, uid: string) => pod(name, { hostPID: true }, { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid, controller: true }] });
    h.pods.push(owned('a-1', 'u1'), owned('a-2', 'u1'), owned('b-1', 'u2'));
    const r = await run(h, nsAttrs(ns('ns', { [ENFORCE_LEVEL_LABEL]: 'baseline' }), ns('ns')));
    expect(r.ctx.warnings).to.deep.equal([
      'new PodSecurity enforce level only checked against the first 2 of 3 existing pods',
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
      'a-1 (and 1 other pod): host namespaces',
    ]);
  });

  it('an exempt namespace is not evaluated; labels selecting a policy get the upstream warning', async () => {
    const config = defaultPodSecurityConfig();
    config.exemptions = { namespaces: new Set(['ns']), usernames: new Set(), runtimeClasses: new Set() };
    const h = harness(config);
    h.pods.push(pod('p', { hostPID: true }));
    const labels = { [ENFORCE_LEVEL_LABEL]: 'baseline', [WARN_LEVEL_LABEL]: 'restricted', 'pod-security.orch.io/warn-version': 'v1.29' };
    const expected = ['namespace "ns" is exempt from Pod Security, and the policy (enforce=baseline:latest, warn=restricted:v1.29) will be ignored'];
    expect((await run(h, nsAttrs(ns('ns', labels)))).ctx.warnings).to.deep.equal(expected);
    expect((await run(h, nsAttrs(ns('ns', labels), ns('ns')))).ctx.warnings).to.deep.equal(expected);
  });
});
