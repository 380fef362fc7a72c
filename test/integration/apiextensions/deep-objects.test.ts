/**
 * Deeply nested custom objects (a schema that keeps unknown fields lets a client nest as deep as
 * it likes): an object at the server's depth limit is written, read, patched and applied; a
 * deeper body, or a JSON patch that would nest the object deeper, is a 400/422 that changes
 * nothing. Before the limit, 4,000 levels answered 500 (managed fields ran out of stack).
 */
import { expect } from 'chai';
import { MAX_OBJECT_DEPTH } from '../../../lib/apimachinery/serializers/nesting.js';
import { schemaExtension } from '../../../lib/apis/vendor.js';
import { createCRD, singleVersionCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = 'deep.example.com';
const THINGS = `/apis/${GROUP}/v1/namespaces/default/things`;

const crd = singleVersionCRD(GROUP, 'things', 'Thing', { type: 'object', [schemaExtension('preserve-unknown-fields')]: true });

/** `{"k":{"k":…1…}}`, `levels` objects deep. */
const nested = (key: string, levels: number): string => `${`{"${key}":`.repeat(levels)}1${'}'.repeat(levels)}`;

/** A Thing named `name` whose spec is `levels` objects deep (the object itself then nests levels + 1). */
const thing = (name: string, levels: number): string => `{"apiVersion":"${GROUP}/v1","kind":"Thing","metadata":{"name":"${name}"},"spec":${nested('a', levels)}}`;

describe('deeply nested custom objects: the server\'s depth limit', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;
  const deepest = MAX_OBJECT_DEPTH - 1;

  before(async () => {
    await createCRD(admin(), crd);
  });

  it('creates, reads, merge-patches and applies an object at the limit', async () => {
    const created = await admin().request('POST', THINGS, { raw: thing('at-limit', deepest), contentType: 'application/json' });
    expect(created.status, created.text.slice(0, 300)).to.equal(201);
    const got = await admin().get(`${THINGS}/at-limit`);
    expect(got.status).to.equal(200);
    expect(JSON.stringify(got.body.spec)).to.equal(nested('a', deepest));
    expect((await admin().get(`${THINGS}/at-limit`, { headers: { Accept: 'application/yaml' } })).status).to.equal(200);
    const merged = await admin().request('PATCH', `${THINGS}/at-limit`, { raw: `{"spec":${nested('b', deepest - 1)}}`, contentType: 'application/merge-patch+json' });
    expect(merged.status, merged.text.slice(0, 300)).to.equal(200);
    expect(Object.keys(merged.body.spec)).to.deep.equal(['a', 'b']);
    const applied = await admin().request('PATCH', `${THINGS}/at-limit?fieldManager=deep&force=true`, { raw: thing('at-limit', deepest), contentType: 'application/apply-patch+yaml' });
    expect(applied.status, applied.text.slice(0, 300)).to.equal(200);
    expect((await admin().delete(`${THINGS}/at-limit`)).status).to.equal(200);
  });

  it('answers 400 for a body one level deeper, in JSON or YAML, and writes nothing', async () => {
    const json = await admin().request('POST', THINGS, { raw: thing('too-deep', deepest + 1), contentType: 'application/json' });
    expect(json.status).to.equal(400);
    expect(json.body.message).to.match(/exceeded max depth/);
    const applied = await admin().request('PATCH', `${THINGS}/too-deep?fieldManager=deep`, { raw: thing('too-deep', deepest + 1), contentType: 'application/apply-patch+yaml' });
    expect(applied.status).to.equal(400);
    expect(applied.body.message).to.match(/exceeded max depth/);
    const yaml = await admin().request('POST', THINGS, {
      raw: `apiVersion: ${GROUP}/v1\nkind: Thing\nmetadata:\n  name: too-deep\nspec: ${'['.repeat(deepest + 1)}1${']'.repeat(deepest + 1)}\n`,
      contentType: 'application/yaml',
    });
    expect(yaml.status).to.equal(400);
    expect(yaml.body.message).to.include(`yaml: exceeded max depth of ${MAX_OBJECT_DEPTH}`);
    expect((await admin().get(`${THINGS}/too-deep`)).status).to.equal(404);
  });

  it('answers 422 for a JSON patch that would nest the object past the limit, and keeps the object as it was', async () => {
    const half = Math.floor(MAX_OBJECT_DEPTH / 2);
    expect((await admin().request('POST', THINGS, { raw: thing('grows', half), contentType: 'application/json' })).status).to.equal(201);
    // `path` names the innermost object of the spec, at depth half + 1: half + 1 levels put there
    // would nest the object MAX_OBJECT_DEPTH + 1 deep.
    const path = `/spec${'/a'.repeat(half - 1)}`;
    const grow = await admin().request('PATCH', `${THINGS}/grows`, { raw: `[{"op":"replace","path":"${path}","value":${nested('b', half + 1)}}]`, contentType: 'application/json-patch+json' });
    expect(grow.status, grow.text.slice(0, 300)).to.equal(422);
    expect(grow.body.message).to.include(`deeper than ${MAX_OBJECT_DEPTH} levels`);
    const got = await admin().get(`${THINGS}/grows`);
    expect(JSON.stringify(got.body.spec)).to.equal(nested('a', half));
    expect((await admin().get('/healthz')).status).to.equal(200);
  });
});
