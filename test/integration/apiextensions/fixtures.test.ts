/**
 * Real-world-shaped CustomResourceDefinitions (issue #14, quality bar "Fixtures"): the files in
 * test/fixtures/crds mirror the structure of widely used kinds — a certificate issuer (deep
 * nesting, alternatives chosen by CEL rules, durations, enums), a pipeline stage (an embedded
 * resource that keeps unknown fields, int-or-string, defaults at several depths), a gateway
 * (26 CEL rules, map-keyed and set lists, atomic maps), a monitoring rule group (two versions,
 * printer columns, status and scale, cluster scope) and an access policy (preserved unknown
 * fields, nullable, patterns, formats, bounds). Each definition must be accepted and become
 * Established; each valid sample is created and read back with defaults applied and unknown
 * fields pruned; each invalid sample is refused with 422 and upstream v1.30's exact message.
 * The `refused-*` files are definitions upstream refuses, one per validation family.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { META_GROUP } from '../../../lib/apis/vendor.js';
import { FIXTURES, REFUSED } from '../../fixtures/crds/expectations.js';
import { CRDS, createCRD, hasCondition } from '../../framework/crd.js';
import type { TestClient } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const DIR = new URL('../../fixtures/crds/', import.meta.url);
const NAMESPACE = 'default';

/** The documents of a fixture file (and of its sibling `*.samples.yaml`, when there is one). */
function loadDocuments(file: string): Obj[] {
  const files = [file, file.replace(/\.yaml$/, '.samples.yaml')].filter((f) => readdirSync(DIR).includes(f));
  const docs: Obj[] = [];
  for (const f of files) {
    for (const doc of parseAllDocuments(readFileSync(new URL(f, DIR), 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${f}: ${doc.errors[0]!.message}`);
      const value = doc.toJS() as Obj | null;
      if (value !== null) docs.push(value);
    }
  }
  return docs;
}

/** Upstream's message of a 422 Invalid: `<Kind>.<group> "<name>" is invalid: <error>` or `[<e1>, <e2>]`. */
const invalidMessage = (kind: string, group: string, name: string, errors: string[]): string =>
  `${kind}.${group} "${name}" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;

/** The collection path of the custom objects of `crd` in `version`. */
function collection(crd: Obj, version: string): string {
  const ns = crd.spec.scope === 'Namespaced' ? `/namespaces/${NAMESPACE}` : '';
  return `/apis/${crd.spec.group}/${version}${ns}/${crd.spec.names.plural}`;
}

const versionOf = (apiVersion: string): string => apiVersion.split('/')[1]!;

/** Creates `sample` through its own apiVersion; resolves with the response. */
function createSample(client: TestClient, crd: Obj, sample: Obj) {
  return client.post(collection(crd, versionOf(sample.apiVersion as string)), sample);
}

describe('apiextensions fixtures: real-world-shaped CustomResourceDefinitions load and validate (issue #14)', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;

  for (const fx of FIXTURES) {
    const docs = loadDocuments(fx.file);
    const crd = docs[0]!;
    const samples = docs.slice(1);
    const { kind } = crd.spec.names as { kind: string };
    const group = crd.spec.group as string;

    describe(fx.file, () => {
      it('has an expectation for every sample and a sample for every expectation', () => {
        expect(crd.kind).to.equal('CustomResourceDefinition');
        const names = samples.map((s) => s.metadata.name as string);
        expect(names).to.have.members([...Object.keys(fx.valid), ...Object.keys(fx.invalid)]);
        for (const s of samples) expect(s.kind, s.metadata.name).to.equal(kind);
      });

      it(`the definition ${crd.metadata.name} is accepted (201) and becomes Established`, async () => {
        const established = await createCRD(admin(), crd);
        expect(hasCondition(established, 'NamesAccepted')).to.equal(true);
        expect(established.status.acceptedNames).to.include({ kind, plural: crd.spec.names.plural });
      });

      for (const [name, spec] of Object.entries(fx.valid)) {
        it(`valid sample ${name} is created and read back with defaults applied and unknown fields pruned`, async () => {
          const sample = samples.find((s) => s.metadata.name === name)!;
          const created = await createSample(admin(), crd, sample);
          expect(created.status, created.text).to.equal(201);
          expect(created.body.apiVersion).to.equal(sample.apiVersion);
          expect(created.body.spec).to.deep.equal(spec);
          const storageVersion = (crd.spec.versions as Obj[]).find((v) => v.storage)!.name as string;
          const read = await admin().get(`${collection(crd, storageVersion)}/${name}`);
          expect(read.status, read.text).to.equal(200);
          expect(read.body.apiVersion).to.equal(`${group}/${storageVersion}`);
          expect(read.body.spec).to.deep.equal(spec);
        });
      }

      for (const [name, expected] of Object.entries(fx.invalid)) {
        it(`invalid sample ${name} is refused with 422 and upstream's message`, async () => {
          const sample = samples.find((s) => s.metadata.name === name)!;
          const res = await createSample(admin(), crd, sample);
          expect(res.status, res.text).to.equal(422);
          expect(res.body.reason).to.equal('Invalid');
          expect(res.body.details).to.include({ name, group, kind });
          expect(res.body.message).to.equal(invalidMessage(kind, group, name, typeof expected === 'string' ? [expected] : expected));
        });
      }
    });
  }

  describe('transition rules of traffic-gateways.yaml on update', () => {
    const GATEWAYS = '/apis/routing.example.net/v1/namespaces/default/trafficgateways';
    const update = async (change: (spec: Obj) => void) => {
      const current = await admin().get(`${GATEWAYS}/edge`);
      expect(current.status, current.text).to.equal(200);
      change(current.body.spec as Obj);
      return admin().put(`${GATEWAYS}/edge`, current.body);
    };

    it('refuses changing the immutable className (a rule on oldSelf)', async () => {
      const res = await update((spec) => {
        spec.className = 'internal';
      });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal(invalidMessage('TrafficGateway', 'routing.example.net', 'edge', ['spec.className: Invalid value: "string": className is immutable']));
    });

    it('refuses downgrading a Premium gateway (a rule with optionalOldSelf)', async () => {
      const res = await update((spec) => {
        spec.gatewayTier = 'Standard';
      });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal(invalidMessage('TrafficGateway', 'routing.example.net', 'edge', ['spec.gatewayTier: Invalid value: "string": a Premium gateway cannot be downgraded']));
    });

    it('refuses an update that repeats a listener name (a list-map duplicate key)', async () => {
      const res = await update((spec) => {
        spec.listeners.push({ name: 'https', port: 8443, protocol: 'TLS', tls: { mode: 'Passthrough' } });
      });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal(invalidMessage('TrafficGateway', 'routing.example.net', 'edge', ['spec.listeners[2]: Duplicate value: map[string]interface {}{"name":"https"}']));
    });

    it('accepts an update that keeps className and tier', async () => {
      const res = await update((spec) => {
        spec.infrastructure.labels.tier = 'core';
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.spec.infrastructure.labels).to.deep.equal({ tier: 'core' });
      expect(res.body.spec.className).to.equal('internet');
    });
  });

  describe('versions, subresources and columns of evaluation-groups.yaml', () => {
    const V1 = '/apis/alerting.example.net/v1/evaluationgroups';
    const V1ALPHA1 = '/apis/alerting.example.net/v1alpha1/evaluationgroups';

    it('warns on every request through the deprecated v1alpha1 and serves the object in both versions', async () => {
      const res = await admin().get(`${V1ALPHA1}/api-latency`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.apiVersion).to.equal('alerting.example.net/v1alpha1');
      expect(String(res.headers.warning)).to.equal('299 - "alerting.example.net/v1alpha1 EvaluationGroup is deprecated; use alerting.example.net/v1"');
      const v1 = await admin().get(`${V1}/api-latency`);
      expect(v1.headers.warning).to.equal(undefined);
      expect(v1.body.spec).to.deep.equal(res.body.spec);
    });

    it('drops the status given on create (status subresource)', async () => {
      const res = await admin().get(`${V1}/api-latency`);
      expect(res.body.status).to.equal(undefined);
    });

    it('serves the scale subresource from the spec and status replica paths', async () => {
      const res = await admin().get(`${V1}/api-latency/scale`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ kind: 'Scale', apiVersion: 'autoscaling/v1' });
      expect(res.body.spec).to.deep.equal({ replicas: 2 });
      expect(res.body.status).to.deep.equal({ replicas: 0 });
      const status = await admin().put(`${V1}/api-latency/status`, {
        ...(await admin().get(`${V1}/api-latency`)).body,
        status: { activeEvaluators: 2, selector: 'app=evaluator', lastEvaluation: '2026-01-01T00:00:00Z' },
      });
      expect(status.status, status.text).to.equal(200);
      const scaled = await admin().get(`${V1}/api-latency/scale`);
      expect(scaled.body.status).to.deep.equal({ replicas: 2, selector: 'app=evaluator' });
    });

    it('prints the additional columns, the Groups column at priority 1', async () => {
      const res = await admin().get(`${V1}/node-health`, { headers: { Accept: `application/json;as=Table;v=v1;g=${META_GROUP}` } });
      expect(res.status, res.text).to.equal(200);
      const columns = (res.body.columnDefinitions as Obj[]).map((c) => ({ name: c.name, type: c.type, format: c.format, priority: c.priority }));
      expect(columns).to.deep.equal([
        { name: 'Name', type: 'string', format: 'name', priority: 0 },
        { name: 'Evaluators', type: 'integer', format: '', priority: 0 },
        { name: 'Interval', type: 'string', format: '', priority: 0 },
        { name: 'Groups', type: 'string', format: '', priority: 1 },
        { name: 'Evaluated', type: 'date', format: '', priority: 0 },
        { name: 'Age', type: 'date', format: '', priority: 0 },
      ]);
      expect(res.body.columnDefinitions[2].description).to.equal('How often the expressions are evaluated.');
      expect(res.body.columnDefinitions[1].description).to.equal('Custom resource definition column (in JSONPath format): .spec.evaluators');
      const cells = res.body.rows[0].cells as unknown[];
      expect(cells.slice(0, 5)).to.deep.equal(['node-health', 1, '2m', 'nodes', null]);
      expect(cells[5]).to.be.a('string');
    });
  });

  describe('definitions upstream refuses', () => {
    for (const [file, errors] of Object.entries(REFUSED)) {
      it(`${file} is refused with 422 and upstream's message`, async () => {
        const docs = loadDocuments(file);
        expect(docs).to.have.length(1);
        const crd = docs[0]!;
        const res = await admin().post(CRDS, crd);
        expect(res.status, res.text).to.equal(422);
        expect(res.body.reason).to.equal('Invalid');
        expect(res.body.message).to.equal(invalidMessage('CustomResourceDefinition', crd.apiVersion.split('/')[0], crd.metadata.name, errors));
        expect((await admin().get(`${CRDS}/${crd.metadata.name}`)).status).to.equal(404);
      });
    }
  });
});
