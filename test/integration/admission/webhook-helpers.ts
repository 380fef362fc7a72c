/**
 * Shared steps of the admission webhook suites: configurations over ConfigMaps in the vendor
 * group, and waiting until a configuration is in effect (the plugins read it from an informer).
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { AdmissionWebhookServer } from '../../framework/admission-webhook.js';
import type { TestClient } from '../../framework/client.js';

export const ADMISSIONREGISTRATION = vendorGroup('admissionregistration');
export const VALIDATING_PATH = `/apis/${ADMISSIONREGISTRATION}/v1/validatingwebhookconfigurations`;
export const MUTATING_PATH = `/apis/${ADMISSIONREGISTRATION}/v1/mutatingwebhookconfigurations`;

/** The rule selecting ConfigMaps on `operations`. */
export function configMapRule(operations: string[] = ['CREATE']): Record<string, unknown> {
  return { operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] };
}

/** A webhook over ConfigMaps calling `url`, with `extra` fields. */
export function urlWebhook(name: string, url: string, caBundle: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    clientConfig: { url, caBundle },
    rules: [configMapRule()],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

/** Creates a configuration of `kind` named `name` holding `webhooks`. */
export async function createConfiguration(admin: TestClient, kind: 'Validating' | 'Mutating', name: string, webhooks: Array<Record<string, unknown>>): Promise<void> {
  const res = await admin.post(kind === 'Validating' ? VALIDATING_PATH : MUTATING_PATH, {
    apiVersion: `${ADMISSIONREGISTRATION}/v1`,
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks,
  });
  expect(res.status, res.text).to.equal(201);
}

/** Deletes the configuration of `kind` named `name`. */
export async function deleteConfiguration(admin: TestClient, kind: 'Validating' | 'Mutating', name: string): Promise<void> {
  const res = await admin.delete(`${kind === 'Validating' ? VALIDATING_PATH : MUTATING_PATH}/${name}`);
  expect(res.status, res.text).to.equal(200);
}

/** A ConfigMap named `name` with `labels`. */
export function configMap(name: string, labels: Record<string, string> = {}, data: Record<string, string> = { k: 'v' }): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data };
}

let probes = 0;

/**
 * Waits until the webhook at `path` of `hook` sees a dry-run ConfigMap create in `namespace`
 * (the configuration reached the plugin's informer); at most 5 s.
 */
export async function waitForWebhook(admin: TestClient, hook: AdmissionWebhookServer, path: string, namespace = 'default', labels: Record<string, string> = {}): Promise<void> {
  const before = hook.reviewsAt(path).length;
  for (let i = 0; i < 100; i++) {
    await admin.post(`/api/v1/namespaces/${namespace}/configmaps?dryRun=All`, configMap(`probe-${++probes}`, labels));
    if (hook.reviewsAt(path).length > before) return;
    await sleep(50);
  }
  throw new Error(`webhook ${path} not called within 5s`);
}

/** Waits until `cond` holds, polling every 25 ms for at most `ms`. */
export async function eventually(cond: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await sleep(25);
  }
  throw new Error(`${what}: not within ${ms} ms`);
}
