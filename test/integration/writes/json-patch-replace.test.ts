/**
 * A JSON patch's `replace` as upstream applies it (evanphx/json-patch v4): a key the object lacks
 * is set, so `kubectl patch --type=json` with a replace of a new label succeeds as it does against
 * upstream; a missing parent still answers 422 and changes nothing. An array index is read as that
 * library reads it (negative from the end, `01`), a copy from a missing key writes null, and a
 * test of a missing key for null passes.
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

  it('reads array indices, copies from a missing key and tests a missing key for null as upstream; an index out of range is 422 and changes nothing', async () => {
    await server().admin.post(CONFIGMAPS, { metadata: { name: 'indices', finalizers: ['example.com/a', 'example.com/b'] }, data: { k: 'v' } });
    const patch = (ops: unknown[]) => server().admin.request('PATCH', `${CONFIGMAPS}/indices`, { raw: JSON.stringify(ops), contentType: JSON_PATCH });
    const ok = await patch([
      { op: 'test', path: '/metadata/finalizers/-1', value: 'example.com/b' },
      { op: 'replace', path: '/metadata/finalizers/-1', value: 'example.com/c' },
      { op: 'copy', from: '/metadata/finalizers/00', path: '/metadata/finalizers/-1' },
      { op: 'test', path: '/data/absent', value: null },
      { op: 'copy', from: '/data/absent', path: '/metadata/labels' },
    ]);
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body.metadata.finalizers).to.deep.equal(['example.com/a', 'example.com/c', 'example.com/a']);
    expect(ok.body.metadata.labels).to.equal(undefined);
    const refused = await patch([{ op: 'replace', path: '/metadata/finalizers/-4', value: 'example.com/d' }]);
    expect(refused.status).to.equal(422);
    const now = (await server().admin.get(`${CONFIGMAPS}/indices`)).body;
    expect(now.metadata.resourceVersion).to.equal(ok.body.metadata.resourceVersion);
  });
});
