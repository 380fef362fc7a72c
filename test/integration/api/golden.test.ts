/**
 * Golden wire bytes (issue #23): every served resource answers a create and a get (a create-only
 * one, issue #10: a create; a read-only one: a get) with exactly the JSON text upstream v1.30 writes for the same request
 * — field order, zero values, defaults, managed fields — once the uid, resourceVersion and
 * timestamps are normalised. Plus the bytes of a Status, a list and a watch event line. The cases
 * live in test/fixtures/golden.
 */
import { expect } from 'chai';
import { createOnlyResources, readOnlyResources, servedResources } from '../../../lib/controlplane/resources.js';
import { UnionAuthenticator } from '../../../lib/authentication/union.js';
import { UnionAuthorizer, UnionRuleResolver } from '../../../lib/authorization/union.js';
import type { StorageInterface } from '../../../lib/storage/interface.js';
import { authenticationGoldens } from '../../fixtures/golden/authentication.js';
import { authorizationGoldens } from '../../fixtures/golden/authorization.js';
import { coreGoldens } from '../../fixtures/golden/core.js';
import { coreStorageGoldens } from '../../fixtures/golden/core-storage.js';
import { flowcontrolGoldens } from '../../fixtures/golden/flowcontrol.js';
import { networkingGoldens } from '../../fixtures/golden/networking.js';
import { otherGoldens } from '../../fixtures/golden/others.js';
import { policyGoldens } from '../../fixtures/golden/policy.js';
import { storageGoldens } from '../../fixtures/golden/storage.js';
import { certificatesGoldens } from '../../fixtures/golden/certificates.js';
import { workloadGoldens } from '../../fixtures/golden/workloads.js';
import { admissionGoldens } from '../../fixtures/golden/admission.js';
import { componentStatusGoldens } from '../../fixtures/golden/component-status.js';
import { autoscalingGoldens } from '../../fixtures/golden/autoscaling.js';
import { eventsGoldens } from '../../fixtures/golden/events.js';
import { apiextensionsGoldens } from '../../fixtures/golden/apiextensions.js';
import { alphaGoldens } from '../../fixtures/golden/alpha.js';
import { alphaResourceGoldens } from '../../fixtures/golden/alpha-resource.js';
import type { GoldenCase } from '../../fixtures/golden/types.js';
import { useTestServer } from '../../framework/test-server.js';

const allGoldens: GoldenCase[] = [...coreGoldens, ...coreStorageGoldens, ...otherGoldens, ...workloadGoldens, ...authenticationGoldens, ...authorizationGoldens, ...flowcontrolGoldens, ...networkingGoldens, ...policyGoldens, ...storageGoldens, ...certificatesGoldens, ...admissionGoldens, ...componentStatusGoldens, ...autoscalingGoldens, ...eventsGoldens, ...apiextensionsGoldens, ...alphaGoldens, ...alphaResourceGoldens];

/** An RFC 3339 timestamp (seconds or fractional, Z or an offset). */
const RFC3339 = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)/g;

/**
 * The response text normalised on its raw bytes: every uid (the `uid` properties and, where an
 * object's uid is copied into a value such as the Job's controller-uid labels, those copies) by
 * `<uid>`, every resourceVersion by `<rv>`, every RFC 3339 timestamp by `<time>`.
 */
function normalise(text: string): string {
  let out = text;
  const uids = new Set([...out.matchAll(/"uid":"([^"]+)"/g)].map((m) => m[1]!));
  for (const uid of uids) out = out.split(uid).join('<uid>');
  return out.replace(/"resourceVersion":"[^"]*"/g, '"resourceVersion":"<rv>"').replace(RFC3339, '<time>');
}

/** A whole response body: one JSON line ended by the newline Go's json.Encoder writes, normalised. */
function wire(text: string): string {
  expect(text.endsWith('\n') && text.indexOf('\n') === text.length - 1, `one line ended by a newline: ${JSON.stringify(text.slice(-40))}`).to.equal(true);
  return normalise(text.slice(0, -1));
}

/** The collection path of a case (`/api/v1/…` or `/apis/<group>/<version>/…`). */
function collectionPath(c: GoldenCase): string {
  const root = c.group === '' ? `/api/${c.version}` : `/apis/${c.group}/${c.version}`;
  return c.namespace ? `${root}/namespaces/${c.namespace}/${c.resource}` : `${root}/${c.resource}`;
}

function nameOf(c: GoldenCase): string {
  return String((c.body.metadata as Record<string, unknown> | undefined)?.name ?? '');
}

describe('golden wire bytes (issue #23)', () => {
  // Without the CRD controllers, whose status writes would race the GET of a CRD; with the alpha
  // versions, whose resources are served only when enabled (issue #15), storageversionmigrations
  // also needing their feature gate.
  // Priority and fairness off: its config consumer writes FlowSchema status (Dangling) at a time
  // of its own, which would race the GET of the FlowSchema case.
  const server = useTestServer({
    crdControllers: false,
    runtimeConfig: 'api/alpha=true',
    featureGates: { StorageVersionMigrator: true },
    flowControl: { enablePriorityAndFairness: false, maxRequestsInFlight: 400, maxMutatingRequestsInFlight: 200 },
  });

  describe('create and get of every served resource', () => {
    for (const c of allGoldens) {
      const label = `${c.resource}${c.group ? `.${c.group}` : ''} ${nameOf(c)}`;
      it(`${label}: ${c.createOnly ? 'POST answers' : c.readOnly ? 'GET answers' : 'POST and GET answer'} upstream's bytes`, async () => {
        const path = collectionPath(c);
        if (c.readOnly) {
          const got = await server().admin.get(`${path}/${nameOf(c)}`);
          expect(got.status, got.text).to.equal(200);
          expect(wire(got.text), 'GET').to.equal(c.expected);
          return;
        }
        const created = await server().admin.post(`${path}?fieldManager=golden`, c.body, { headers: c.headers ?? {} });
        expect(created.status, created.text).to.equal(201);
        expect(wire(created.text), 'POST').to.equal(c.expected);
        if (c.createOnly) return;
        const name = String(created.body?.metadata?.name ?? nameOf(c));
        const got = await server().admin.get(`${path}/${name}`);
        expect(got.status, got.text).to.equal(200);
        expect(wire(got.text), 'GET').to.equal(c.expected);
      });
    }
  });

  it('has a golden case for every served resource', () => {
    const served = [
      ...servedResources(() => ({}) as StorageInterface, '/registry').flatMap((r) => [r.store.strategy.kind, ...(r.versions ?? []).map((v) => v.conversion.servedKind)]),
      ...createOnlyResources(new UnionAuthenticator([], { anonymous: false }), { authorizer: new UnionAuthorizer([]), ruleResolver: new UnionRuleResolver([]) }).map((c) => c.kind),
      ...readOnlyResources(async () => 0).map((l) => l.kind),
    ].map((k) => `${k.resource}.${k.group}`);
    const covered = new Set(allGoldens.map((c) => `${c.resource}.${c.group}`));
    expect(served.filter((r) => !covered.has(r)), 'served resources without a golden case').to.deep.equal([]);
  });

  describe('Status, list and watch event', () => {
    const NS = 'golden-wire';
    const CMS = `/api/v1/namespaces/${NS}/configmaps`;
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } };
    const storedX = JSON.stringify({
      metadata: {
        name: 'x',
        namespace: NS,
        uid: '<uid>',
        resourceVersion: '<rv>',
        creationTimestamp: '<time>',
        managedFields: [
          { manager: 'golden', operation: 'Update', apiVersion: 'v1', time: '<time>', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } },
        ],
      },
      data: { a: '1' },
    }).slice(1, -1);

    before(async () => {
      const ns = await server().admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      expect(ns.status, ns.text).to.equal(201);
      const cm = await server().admin.post(`${CMS}?fieldManager=golden`, configMap);
      expect(cm.status, cm.text).to.equal(201);
    });

    it('a second create answers the AlreadyExists Status', async () => {
      const res = await server().admin.post(`${CMS}?fieldManager=golden`, configMap);
      expect(res.status).to.equal(409);
      expect(wire(res.text)).to.equal(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"x\\" already exists","reason":"AlreadyExists","details":{"name":"x","kind":"configmaps"},"code":409}',
      );
    });

    // Our documented choice (README § Where we differ): list items keep their kind and apiVersion,
    // as the spec's "list of objects of that kind" reads; upstream leaves them out for built-in kinds.
    it('a list answers the ConfigMapList in upstream order, its items with kind and apiVersion', async () => {
      const res = await server().admin.get(CMS);
      expect(res.status).to.equal(200);
      expect(wire(res.text)).to.equal(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"<rv>"},"items":[{"kind":"ConfigMap","apiVersion":"v1",${storedX}}]}`);
    });

    it('a watch writes one event a line: type, then the object with kind and apiVersion', async () => {
      const stream = await server().admin.rawStream(`${CMS}?watch=true`);
      try {
        expect(stream.status).to.equal(200);
        const line = await new Promise<string>((resolve, reject) => {
          let buf = '';
          const timer = setTimeout(() => reject(new Error(`no watch line within 10s: ${buf}`)), 10_000);
          stream.body.on('data', (chunk: Buffer) => {
            buf += chunk.toString('utf8');
            const i = buf.indexOf('\n');
            if (i >= 0) {
              clearTimeout(timer);
              resolve(buf.slice(0, i));
            }
          });
          stream.body.on('error', reject);
        });
        expect(normalise(line)).to.equal(`{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1",${storedX}}}`);
      } finally {
        stream.close();
      }
    });
  });
});
