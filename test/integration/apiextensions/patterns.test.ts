/**
 * Custom resources' `pattern`s, matched with RE2 as upstream matches them with Go's regexp. With
 * JavaScript's engine, a value of 40 characters against a common pattern such as
 * `^([a-z0-9]+-?)*[a-z0-9]$` would backtrack for hours with the event loop held; RE2 syntax that
 * JavaScript refuses, such as `(?i)`, made the definition invalid here while upstream accepts it.
 */
import { expect } from 'chai';
import { createCRD, singleVersionCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = 'patterns.example.com';
const WIDGETS = `/apis/${GROUP}/v1/namespaces/default/widgets`;
const NAME_PATTERN = '^([a-z0-9]+-?)*[a-z0-9]$';

describe('custom resources: pattern (RE2)', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;
  const widget = (name: string, spec: Record<string, string>) => ({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name }, spec });

  before(async () => {
    await createCRD(admin(), singleVersionCRD(GROUP, 'widgets', 'Widget', {
      type: 'object',
      properties: { spec: { type: 'object', properties: { slug: { type: 'string', pattern: NAME_PATTERN }, code: { type: 'string', pattern: '(?i)^abc$' } } } },
    }));
  });

  it('refuses at once a value that would make a backtracking engine run for hours', async () => {
    const res = await admin().post(WIDGETS, widget('slow', { slug: `${'a'.repeat(40)}!` }));
    expect(res.status, res.text.slice(0, 300)).to.equal(422);
    expect(res.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: `Invalid value: "${'a'.repeat(40)}!": spec.slug in body should match '${NAME_PATTERN}'`, field: 'spec.slug' }]);
    expect((await admin().get(`${WIDGETS}/slow`)).status).to.equal(404);
  });

  it('accepts values that match, RE2 flags included', async () => {
    const res = await admin().post(WIDGETS, widget('ok', { slug: 'a-b-c1', code: 'AbC' }));
    expect(res.status, res.text.slice(0, 300)).to.equal(201);
    const bad = await admin().post(WIDGETS, widget('bad', { code: 'abcd' }));
    expect(bad.status).to.equal(422);
  });
});
