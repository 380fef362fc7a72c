/**
 * Helpers of custom resource tests (issue #14): create a CustomResourceDefinition through the API
 * and wait until it is Established and its resource is in discovery.
 */
import { vendorGroup } from '../../lib/apis/vendor.js';
import type { TestClient } from './client.js';

/** The API group of CustomResourceDefinitions (`apiextensions.<vendor>`). */
export const APIEXTENSIONS_GROUP = vendorGroup('apiextensions');
/** The collection path of CustomResourceDefinitions. */
export const CRDS = `/apis/${APIEXTENSIONS_GROUP}/v1/customresourcedefinitions`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** True when the CRD `crd` (an object read from the API) has condition `type` True. */
export function hasCondition(crd: Json, type: string): boolean {
  return ((crd?.status?.conditions ?? []) as Json[]).some((c) => c.type === type && c.status === 'True');
}

/**
 * Polls until the CRD `name` is Established and `/apis/<group>/<version>` lists its plural for
 * every served version. Resolves with the CRD and the milliseconds it took from the call.
 * @throws Error after `timeoutMs` (default 10 s).
 */
export async function waitEstablished(client: TestClient, name: string, timeoutMs = 10_000): Promise<{ crd: Json; ms: number }> {
  const start = Date.now();
  for (;;) {
    const res = await client.get(`${CRDS}/${name}`);
    if (res.status === 200 && hasCondition(res.body, 'Established')) {
      const crd = res.body;
      const served = (crd.spec.versions as Json[]).filter((v) => v.served);
      let all = true;
      for (const v of served) {
        const d = await client.get(`/apis/${crd.spec.group}/${v.name}`);
        if (d.status !== 200 || !(d.body.resources as Json[]).some((r) => r.name === crd.spec.names.plural)) all = false;
      }
      if (all) return { crd, ms: Date.now() - start };
    }
    if (Date.now() - start > timeoutMs) throw new Error(`CRD ${name} not established within ${timeoutMs}ms: ${res.status} ${JSON.stringify(res.body?.status ?? res.body)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A namespaced CustomResourceDefinition `<plural>.<group>` of kind `kind` with one served and
 * stored version `v1` whose schema is `openAPIV3Schema`.
 */
export function singleVersionCRD(group: string, plural: string, kind: string, openAPIV3Schema: Json): Json {
  return {
    apiVersion: `${APIEXTENSIONS_GROUP}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: { group, scope: 'Namespaced', names: { plural, kind }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }] },
  };
}

/**
 * Creates `crd` (201 expected) and waits until it is served (waitEstablished).
 * @throws Error when the create is refused (with the Status text) or the CRD is not established in time.
 */
export async function createCRD(client: TestClient, crd: Json, timeoutMs = 10_000): Promise<Json> {
  const res = await client.post(CRDS, crd);
  if (res.status !== 201) throw new Error(`creating CRD ${crd.metadata?.name}: ${res.status} ${res.text}`);
  return (await waitEstablished(client, crd.metadata.name, timeoutMs)).crd;
}

/** Deletes the CRD `name` and waits until it is gone (its instances deleted by the server). */
export async function deleteCRD(client: TestClient, name: string, timeoutMs = 15_000): Promise<void> {
  const res = await client.delete(`${CRDS}/${name}`);
  if (res.status !== 200 && res.status !== 202 && res.status !== 404) throw new Error(`deleting CRD ${name}: ${res.status} ${res.text}`);
  const start = Date.now();
  while ((await client.get(`${CRDS}/${name}`)).status !== 404) {
    if (Date.now() - start > timeoutMs) throw new Error(`CRD ${name} not gone within ${timeoutMs}ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
