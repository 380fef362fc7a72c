/**
 * JSON → protobuf → JSON for every built-in kind, its list, and Status: lossless for the
 * fixtures of test/fixtures/kinds/ (each sets every field), except the values Go's JSON encoder
 * itself omits and protobuf cannot carry, listed one by one below.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { newInvalid } from '../../../../../lib/apimachinery/errors.js';
import { FieldPath, invalid, required } from '../../../../../lib/apimachinery/field-errors.js';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC, STATUS_KIND } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import type { KindDefinition, Obj } from '../../../../../lib/apis/define.js';
import { ALL_KINDS, fixtureName, resolveKind } from './kinds.js';
import { servedResources } from '../../../../../lib/controlplane/resources.js';
import type { StorageInterface } from '../../../../../lib/storage/interface.js';

/**
 * Fixture values that do not come back, by fixture: an empty string in an omitempty field (Go
 * writers always send non-pointer strings, so the decoder drops `""` as Go's JSON encoder does)
 * and an empty list in an omitempty field (protobuf has no empty repeated field; Go omits it).
 */
const GO_OMITTED: Record<string, string[]> = {
  event: ['related.namespace'],
  role: ['rules[0].nonResourceURLs'],
  'role-binding': ['subjects[0].apiGroup', 'subjects[1].apiGroup'],
  'cluster-role-binding': ['subjects[0].apiGroup', 'subjects[0].namespace'],
};

function readFixture(name: string): Obj {
  return JSON.parse(readFileSync(new URL(`../../../../fixtures/kinds/${name}.json`, import.meta.url), 'utf8')) as Obj;
}

/** Paths (`a.b[0].c`) where `after` differs from `before`, with the value before. */
function differences(before: unknown, after: unknown, path = '', out: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((v, i) => differences(v, after[i], `${path}[${i}]`, out));
  } else if (isObject(before) && isObject(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) differences(before[k], after[k], path ? `${path}.${k}` : k, out);
  } else if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.set(path, before);
  }
  return out;
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function roundTrip(obj: Obj, apiVersion: string, kind: string, def: KindDefinition): Obj {
  const schema = kind === def.listKind ? def.listSchema : def.schema;
  const encoded = encodeProtobuf(obj, { apiVersion, kind, schema });
  expect(encoded.subarray(0, 4).equals(PROTOBUF_MAGIC), 'starts with the magic').to.equal(true);
  const decoded = decodeProtobuf(encoded, resolveKind);
  expect(decoded.apiVersion).to.equal(apiVersion);
  expect(decoded.kind).to.equal(kind);
  return decoded.object;
}

/** A ConfigMap with every field set (there is no fixture file for it). */
function configMapFixture(): Obj {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: readFixture('pod').metadata,
    data: { 'app.properties': 'a=1\n', empty: '' },
    binaryData: { 'blob.bin': Buffer.from([0, 255, 1]).toString('base64'), none: '' },
    immutable: false,
  };
}

function fixtureOf(def: KindDefinition): Obj {
  // Fixtures of vendor groups leave apiVersion out (it spells the vendor word).
  return def.kind === 'ConfigMap' ? configMapFixture() : { apiVersion: def.apiVersion, ...readFixture(fixtureName(def)) };
}

describe('protobuf round trip of every built-in kind (JSON → protobuf → JSON)', () => {
  it('covers every stored kind the server serves', () => {
    const catalogue = new Set(ALL_KINDS.map((k) => `${k.apiVersion} ${k.kind}`));
    const served = servedResources(() => ({}) as StorageInterface, '/registry').map((r) => `${r.store.strategy.kind.apiVersion} ${r.store.strategy.kind.kind}`);
    expect(served.filter((k) => !catalogue.has(k)), 'served kinds without a protobuf fixture').to.deep.equal([]);
  });

  for (const def of ALL_KINDS) {
    const name = fixtureName(def);

    describe(def.kind, () => {
      it('the object comes back equal (except the Go-omitted values listed)', () => {
        const fixture = fixtureOf(def);
        const back = roundTrip(fixture, def.apiVersion, def.kind, def);
        const diff = differences(fixture, back);
        expect([...diff.keys()]).to.deep.equal(GO_OMITTED[name] ?? []);
        for (const [path, before] of diff) expect(JSON.stringify(before), path).to.be.oneOf(['""', '[]']);
      });

      it(`a ${def.listKind} with list metadata comes back equal (items without type meta, as on the wire)`, () => {
        const { apiVersion: _a, kind: _k, ...item } = fixtureOf(def);
        const list = {
          apiVersion: def.apiVersion,
          kind: def.listKind,
          metadata: { selfLink: '/l', resourceVersion: '42', continue: 'next', remainingItemCount: 7 },
          items: [item, item],
        };
        const back = roundTrip(list, def.apiVersion, def.listKind, def);
        const omitted = (GO_OMITTED[name] ?? []).flatMap((p) => [`items[0].${p}`, `items[1].${p}`]);
        expect([...differences(list, back).keys()]).to.have.members(omitted);
      });

      it(`an empty ${def.listKind} keeps metadata: {}; its items come back null, as Go decodes a list without items`, () => {
        const list = { apiVersion: def.apiVersion, kind: def.listKind, metadata: {}, items: [] };
        expect(roundTrip(list, def.apiVersion, def.listKind, def)).to.deep.equal({ ...list, items: null });
      });
    });
  }

  describe('Status', () => {
    it('an Invalid error with causes and every details field comes back equal', () => {
      const status = newInvalid({ group: 'apps', kind: 'Deployment' }, 'web', [
        required(FieldPath.of('spec').child('selector'), ''),
        invalid(FieldPath.of('metadata').child('name'), 'Web', 'must be lowercase'),
      ]).status;
      const full = { ...status, details: { ...status.details, uid: 'u-1', retryAfterSeconds: 3 } };
      const back = decodeProtobuf(encodeProtobuf(full, STATUS_KIND), resolveKind);
      expect(back).to.deep.equal({ apiVersion: 'v1', kind: 'Status', object: full });
    });

    it('a Success status with list metadata comes back equal', () => {
      const ok = { kind: 'Status', apiVersion: 'v1', metadata: { resourceVersion: '9' }, status: 'Success', code: 200 };
      expect(decodeProtobuf(encodeProtobuf(ok, STATUS_KIND), resolveKind).object).to.deep.equal(ok);
    });
  });
});
