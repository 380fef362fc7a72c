import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { OpenAPIService, computeETag, serverRelativeURL } from '../../../../lib/endpoints/openapi/service.js';
import type { Store } from '../../../../lib/registry/generic/store.js';
import { servedInstaller, widgetKind } from './fixture.js';
import { gnosticToJSON } from './gnostic-json.js';

const widget = widgetKind(true);
const widgetEntry = { kind: widget, store: { strategy: { returnDeletedObject: () => false } } as unknown as Store, subresources: new Map<string, Store>(), selectableFields: new Set<string>() };

describe('openapi service: cached documents, v3 index and hashes, protobuf form (issue #6 items 1, 2)', () => {
  it('indexes every served group version with a server-relative URL carrying the upper-case hex SHA-512 of its document', async () => {
    const v3 = await new OpenAPIService(servedInstaller(), 'v1.30.0').v3();
    const index = JSON.parse(v3.index.body.toString());
    expect(Object.keys(index)).to.deep.equal(['paths']);
    expect(Object.keys(index.paths)).to.deep.equal([
      'api/v1',
      'apis/admissionregistration.k8s.io/v1',
      'apis/admissionregistration.orch.io/v1',
      'apis/apiextensions.k8s.io/v1',
      'apis/apiextensions.orch.io/v1',
      'apis/apiregistration.k8s.io/v1',
      'apis/apiregistration.orch.io/v1',
      'apis/apps/v1',
      'apis/authentication.k8s.io/v1',
      'apis/authentication.orch.io/v1',
      'apis/authorization.k8s.io/v1',
      'apis/authorization.orch.io/v1',
      'apis/autoscaling/v1',
      'apis/autoscaling/v2',
      'apis/batch/v1',
      'apis/certificates.k8s.io/v1',
      'apis/certificates.orch.io/v1',
      'apis/coordination.k8s.io/v1',
      'apis/coordination.orch.io/v1',
      'apis/discovery.k8s.io/v1',
      'apis/discovery.orch.io/v1',
      'apis/events.k8s.io/v1',
      'apis/events.orch.io/v1',
      'apis/flowcontrol.apiserver.k8s.io/v1',
      'apis/flowcontrol.apiserver.k8s.io/v1beta3',
      'apis/flowcontrol.apiserver.orch.io/v1',
      'apis/flowcontrol.apiserver.orch.io/v1beta3',
      'apis/networking.k8s.io/v1',
      'apis/networking.orch.io/v1',
      'apis/node.k8s.io/v1',
      'apis/node.orch.io/v1',
      'apis/policy/v1',
      'apis/rbac.authorization.k8s.io/v1',
      'apis/rbac.authorization.orch.io/v1',
      'apis/scheduling.k8s.io/v1',
      'apis/scheduling.orch.io/v1',
      'apis/storage.k8s.io/v1',
      'apis/storage.orch.io/v1',
    ]);
    for (const [path, entry] of Object.entries(index.paths as Record<string, { serverRelativeURL: string }>)) {
      const doc = v3.documents.get(path)!;
      const hash = createHash('sha512').update(doc.body).digest('hex').toUpperCase();
      expect(hash).to.match(/^[0-9A-F]{128}$/);
      expect(doc.etag).to.equal(hash);
      expect(entry).to.deep.equal({ serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` });
      expect(JSON.parse(doc.body.toString()).openapi).to.equal('3.0.0');
      expect(gunzipSync(doc.gzip).equals(doc.body)).to.equal(true);
    }
    expect(v3.index.etag).to.equal(computeETag(v3.index.body));
    expect(serverRelativeURL('apis/apps/v1', 'AB')).to.equal('/openapi/v3/apis/apps/v1?hash=AB');
  });

  it('produces the same bytes and hashes on every build (stable content, stable hashes)', async () => {
    const a = await new OpenAPIService(servedInstaller(), 'v1.30.0').v3();
    const b = await new OpenAPIService(servedInstaller(), 'v1.30.0').v3();
    expect(a.index.body.equals(b.index.body)).to.equal(true);
    const s1 = await new OpenAPIService(servedInstaller(), 'v1.30.0').swagger();
    const s2 = await new OpenAPIService(servedInstaller(), 'v1.30.0').swagger();
    expect(s1.json.etag).to.equal(s2.json.etag);
    expect(s1.protobuf.body.equals(s2.protobuf.body)).to.equal(true);
  });

  it('builds once and serves the cached buffers until invalidated', async () => {
    const svc = new OpenAPIService(servedInstaller(), 'v1.30.0');
    const first = await svc.swagger();
    expect(await svc.swagger()).to.equal(first);
    expect(await svc.swaggerJSONBody()).to.equal(first.json);
    const v3 = await svc.v3();
    expect(await svc.v3()).to.equal(v3);
    svc.invalidate();
    const again = await svc.swagger();
    expect(again).to.not.equal(first);
    expect(again.json.etag).to.equal(first.json.etag);
  });

  it('rebuilds when the installer serves other kinds (no explicit invalidation needed)', async () => {
    const installer = servedInstaller();
    const svc = new OpenAPIService(installer, 'v1.30.0');
    const before = await svc.v3();
    const swaggerBefore = await svc.swagger();
    installer.install(widgetEntry);
    const after = await svc.v3();
    expect([...after.documents.keys()]).to.include('apis/example.orch.io/v1');
    const paths = (d: typeof before) => JSON.parse(d.documents.get('api/v1')!.body.toString()).paths;
    expect(paths(after)).to.deep.equal(paths(before));
    const swagger = JSON.parse((await svc.swagger()).json.body.toString());
    expect(swagger.definitions['io.orch.example.v1.WidgetSpec']).to.deep.equal({ type: 'object', properties: { size: { type: 'string' } } });
    expect(swagger.paths).to.have.property('/apis/example.orch.io/v1/namespaces/{namespace}/widgets/{name}');
    expect((await svc.swagger()).json.etag).to.not.equal(swaggerBefore.json.etag);
  });

  it('does not cache a failed build: the next request builds again', async () => {
    const installer = servedInstaller();
    let calls = 0;
    const flaky = {
      upstreamAliases: true,
      groupVersions: () => {
        calls++;
        if (calls === 2) throw new Error('boom');
        return installer.groupVersions();
      },
    };
    const svc = new OpenAPIService(flaky, 'v1.30.0');
    let failed: unknown;
    await svc.swagger().catch((err: unknown) => (failed = err));
    expect(failed).to.be.an('error');
    expect(JSON.parse((await svc.swagger()).json.body.toString()).swagger).to.equal('2.0');
  });

  it('encodes the protobuf form as gnostic openapi.v2.Document bytes without magic, decoding back to the JSON form', async () => {
    const { json, protobuf } = await new OpenAPIService(servedInstaller(), 'v1.30.0').swagger();
    expect([...protobuf.body.subarray(0, 5)]).to.deep.equal([0x0a, 0x03, 0x32, 0x2e, 0x30]);
    expect(protobuf.etag).to.equal(json.etag);
    expect(json.etag).to.equal(computeETag(json.body));
    expect(gnosticToJSON(protobuf.body)).to.deep.equal(JSON.parse(json.body.toString()));
  });
});
