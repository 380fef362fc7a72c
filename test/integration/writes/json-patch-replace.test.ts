/**
 * A JSON patch's `replace` as upstream applies it (evanphx/json-patch v4): a key the object lacks
 * is set, so `kubectl patch --type=json` with a replace of a new label succeeds as it does against
 * upstream; a missing parent still answers 422 and changes nothing.
 */
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const JSON_PATCH = 'application/json-patch+json';

describe('JSON patch replace of a missing key (upstream evanphx/json-patch v4)', () => {
  const server = useTestServer();

  it('sets a label the object lacks; a replace under a missing parent is 422 and changes nothing', async () => {
    const created = (await server().admin.post(CONFIGMAPS, { metadata: { name: 'replace-missing', labels: { a: '1' } }, data: { k: 'v' } })).body;
    const patch = (ops: unknown[]) => server().admin.request('PATCH', `${CONFIGMAPS}/replace-missing`, { raw: JSON.stringify(ops), contentType: JSON_PATCH });
    const ok = await patch([{ op: 'replace', path: '/metadata/labels/b', value: '2' }]);
    expect(ok.status).to.equal(200);
    expect(ok.body.metadata.labels).to.deep.equal({ a: '1', b: '2' });
    const refused = await patch([{ op: 'replace', path: '/metadata/annotations/x', value: 'y' }]);
    expect(refused.status).to.equal(422);
    expect(refused.body).to.deep.include({ reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
    const now = (await server().admin.get(`${CONFIGMAPS}/replace-missing`)).body;
    expect(now.metadata.resourceVersion).to.equal(ok.body.metadata.resourceVersion);
    expect(now.metadata.annotations).to.equal(undefined);
    expect(Number(now.metadata.resourceVersion)).to.be.above(Number(created.metadata.resourceVersion));
  });
});
