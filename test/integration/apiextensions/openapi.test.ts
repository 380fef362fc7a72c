/**
 * OpenAPI of custom resources (issue #14 item 2): a CRD's group version gets its v3 document and
 * its definitions join /openapi/v2 without a restart; the v3 documents of the built-in group
 * versions are not rebuilt (same ETag), and the document goes with the CRD.
 */
import { expect } from 'chai';
import { schemaExtension, vendorGroup } from '../../../lib/apis/vendor.js';
import { createCRD, deleteCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = 'docs.example.com';
const DOC = `apis/${GROUP}/v1`;

const crd = {
  apiVersion: `${vendorGroup('apiextensions')}/v1`,
  kind: 'CustomResourceDefinition',
  metadata: { name: `manuals.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Cluster',
    names: { plural: 'manuals', kind: 'Manual' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', description: 'A manual.', properties: { spec: { type: 'object', properties: { pages: { type: 'integer', description: 'How many pages.' } } } } } },
      },
    ],
  },
};

describe('OpenAPI of custom resources (issue #14)', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;
  const index = async (): Promise<Record<string, { serverRelativeURL: string }>> => (await admin().get('/openapi/v3')).body.paths;

  it('publishes the CRD in v3 and v2 without rebuilding the built-in documents, and drops it with the CRD', async () => {
    const before = await index();
    expect(before).to.not.have.property(DOC);
    await createCRD(admin(), crd);
    let after = await index();
    for (let i = 0; i < 100 && !after[DOC]; i++) after = await index();
    expect(after[DOC]?.serverRelativeURL).to.be.a('string');
    expect(after['api/v1']).to.deep.equal(before['api/v1']);
    expect(after[`apis/${vendorGroup('apiextensions')}/v1`]).to.deep.equal(before[`apis/${vendorGroup('apiextensions')}/v1`]);

    const doc = (await admin().get(`/openapi/v3/${DOC}`)).body;
    expect(Object.keys(doc.paths)).to.include(`/apis/${GROUP}/v1/manuals/{name}`);
    const schemas = Object.values(doc.components.schemas) as Array<Record<string, unknown>>;
    const manual = schemas.find((s) => JSON.stringify(s[schemaExtension('group-version-kind')] ?? []).includes('"kind":"Manual"'));
    expect(manual?.description).to.equal('A manual.');

    const v2 = (await admin().get('/openapi/v2')).body;
    expect(Object.keys(v2.paths)).to.include(`/apis/${GROUP}/v1/manuals`);

    await deleteCRD(admin(), `manuals.${GROUP}`);
    let gone = await index();
    for (let i = 0; i < 100 && gone[DOC]; i++) gone = await index();
    expect(gone).to.not.have.property(DOC);
    expect(gone['api/v1']).to.deep.equal(before['api/v1']);
  });
});
