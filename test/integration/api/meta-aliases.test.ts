/**
 * Table and metadata-only answers under the meta group's upstream alias and in v1beta1, protobuf
 * metadata-only answers, and the `--upstream-aliases` gate of the upstream spellings (issue #9;
 * spec 000 § Table representation, § Content negotiation and encoding, § Protobuf envelope).
 */
import { expect } from 'chai';
import { STATUS_KIND, decodeProtobuf, decodeWatchEvent, encodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import { configMap } from '../../../lib/apis/core/v1/config-map.js';
import { deleteOptions } from '../../../lib/apis/meta/v1/types.js';
import { metaProtobufKind } from '../../../lib/apis/meta/v1/partial-object-metadata.js';
import { type TestServer, useTestServer } from '../../framework/test-server.js';
import { firstFrame } from '../../framework/protobuf-watch.js';

const NS = '/api/v1/namespaces/default';
const CMS = `${NS}/configmaps`;
const PB = 'application/vnd.orch.protobuf';
const UPSTREAM_PB = 'application/vnd.kubernetes.protobuf';
/** What kubectl get sends. */
const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
/** What client-go's metadata client sends for a list, and for a watch. */
const METADATA_LIST = `${UPSTREAM_PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`;
const METADATA_WATCH = `${UPSTREAM_PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`;

const as = (mediaType: string, kind: string, group: string, version: string) => `${mediaType};as=${kind};g=${group};v=${version}`;
const resolve = (apiVersion: string, kind: string) => metaProtobufKind(apiVersion, kind)?.schema ?? (apiVersion === 'v1' && kind === 'ConfigMap' ? configMap.schema : undefined);
const cmKind = { apiVersion: 'v1', kind: 'ConfigMap', schema: configMap.schema };

async function seed(server: () => TestServer): Promise<void> {
  await server().admin.post(`${NS}/pods`, { metadata: { name: 'web-1' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  await server().admin.post(CMS, { metadata: { name: 'cfg', labels: { app: 'a' } }, data: { a: '1' } });
}


describe('meta group aliases and metadata-only protobuf (issue #9)', () => {
  describe('with --upstream-aliases (the default)', () => {
    const server = useTestServer();
    before(() => seed(server));

    it('answers kubectl\'s Table request in meta.k8s.io/v1, rows\' PartialObjectMetadata included', async () => {
      const res = await server().admin.get(`${NS}/pods`, { headers: { Accept: KUBECTL_TABLE } });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.body).to.include({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
      expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.include.members(['Name', 'Ready', 'Status']);
      expect(res.body.rows[0].cells[0]).to.equal('web-1');
      expect(res.body.rows[0].object).to.deep.include({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
    });

    it('answers Tables in v1beta1 of either spelling of the meta group, for a get and a list', async () => {
      for (const group of ['meta.k8s.io', 'meta.orch.io']) {
        const one = await server().admin.get(`${CMS}/cfg`, { headers: { Accept: as('application/json', 'Table', group, 'v1beta1') } });
        expect(one.body).to.include({ kind: 'Table', apiVersion: `${group}/v1beta1` });
        expect(one.body.rows[0].object.apiVersion).to.equal(`${group}/v1beta1`);
        const list = await server().admin.get(CMS, { headers: { Accept: as('application/json', 'Table', group, 'v1beta1') } });
        expect(list.body).to.include({ kind: 'Table', apiVersion: `${group}/v1beta1` });
        expect(list.body.rows.map((r: { cells: unknown[] }) => r.cells[0])).to.include('cfg');
      }
    });

    it('answers YAML Tables under the alias', async () => {
      for (const version of ['v1', 'v1beta1']) {
        const res = await server().admin.get(CMS, { headers: { Accept: as('application/yaml', 'Table', 'meta.k8s.io', version) } });
        expect(res.headers['content-type']).to.equal('application/yaml');
        // Keys sorted at every level, sequences at their key's indentation (go-yaml v2).
        expect(res.text).to.match(new RegExp(`^apiVersion: meta.k8s.io/${version}\\ncolumnDefinitions:\\n- `));
        expect(res.text).to.include('\nkind: Table\n');
        expect(res.text).to.include(`\n  object:\n    apiVersion: meta.k8s.io/${version}\n    kind: PartialObjectMetadata\n    metadata:\n`);
      }
    });

    it('offers no protobuf Table, as upstream (JSON and YAML only): falls back, or 406 alone', async () => {
      for (const pb of [PB, UPSTREAM_PB]) {
        const fallback = await server().admin.get(CMS, { headers: { Accept: `${as(pb, 'Table', 'meta.k8s.io', 'v1')},application/json` } });
        expect(fallback.headers['content-type']).to.equal('application/json');
        expect(fallback.body.kind).to.equal('ConfigMapList');
        const alone = await server().admin.get(CMS, { headers: { Accept: as(pb, 'Table', 'meta.orch.io', 'v1') } });
        expect(alone.status).to.equal(406);
      }
    });

    it('answers the metadata client\'s list in protobuf under the upstream name, in meta.k8s.io/v1', async () => {
      const res = await server().admin.get(CMS, { headers: { Accept: METADATA_LIST } });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal(UPSTREAM_PB);
      const decoded = decodeProtobuf(res.bytes, resolve);
      expect(decoded).to.include({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' });
      expect((decoded.object.metadata as { resourceVersion: string }).resourceVersion).to.match(/^\d+$/);
      const item = (decoded.object.items as { metadata: Record<string, unknown> }[]).find((i) => i.metadata.name === 'cfg')!;
      expect(item.metadata).to.deep.include({ namespace: 'default', labels: { app: 'a' } });
      expect(item).to.not.have.property('data');
    });

    it('answers PartialObjectMetadataList in JSON under the alias and in protobuf of both spellings and versions', async () => {
      const json = await server().admin.get(CMS, { headers: { Accept: as('application/json', 'PartialObjectMetadataList', 'meta.k8s.io', 'v1') } });
      expect(json.body).to.include({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' });
      expect(json.body.items[0]).to.deep.include({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
      for (const pb of [PB, UPSTREAM_PB]) {
        for (const version of ['v1', 'v1beta1']) {
          const res = await server().admin.get(CMS, { headers: { Accept: as(pb, 'PartialObjectMetadataList', 'meta.k8s.io', version) } });
          expect(res.headers['content-type']).to.equal(pb);
          const decoded = decodeProtobuf(res.bytes, resolve);
          expect(decoded).to.include({ apiVersion: `meta.k8s.io/${version}`, kind: 'PartialObjectMetadataList' });
          expect((decoded.object.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).to.include('cfg');
        }
      }
    });

    it('answers a get as PartialObjectMetadata in protobuf and YAML', async () => {
      const pb = await server().admin.get(`${CMS}/cfg`, { headers: { Accept: as(PB, 'PartialObjectMetadata', 'meta.k8s.io', 'v1beta1') } });
      const decoded = decodeProtobuf(pb.bytes, resolve);
      expect(decoded).to.include({ apiVersion: 'meta.k8s.io/v1beta1', kind: 'PartialObjectMetadata' });
      expect(decoded.object.metadata).to.deep.include({ name: 'cfg', labels: { app: 'a' } });
      const yaml = await server().admin.get(`${CMS}/cfg`, { headers: { Accept: as('application/yaml', 'PartialObjectMetadata', 'meta.k8s.io', 'v1') } });
      expect(yaml.text).to.match(/^apiVersion: meta.k8s.io\/v1\nkind: PartialObjectMetadata\nmetadata:\n/);
    });

    it('watches as Tables in meta.k8s.io/v1', async () => {
      const w = await server().admin.watch(`${CMS}?watch=1&resourceVersion=0`, { headers: { Accept: as('application/json', 'Table', 'meta.k8s.io', 'v1') } });
      const first = await w.next();
      expect(first.object).to.include({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
      expect(first.object.columnDefinitions.length).to.be.greaterThan(0);
      await server().admin.post(CMS, { metadata: { name: 'cfg-w' } });
      const later = await w.until((e) => e.object.rows?.[0]?.cells?.[0] === 'cfg-w');
      expect(later.object).to.include({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', columnDefinitions: null });
      expect(later.object.rows[0].object.apiVersion).to.equal('meta.k8s.io/v1');
      w.close();
    });

    it('watches as PartialObjectMetadata in protobuf frames (the metadata informer\'s request)', async () => {
      const { contentType, frame } = await firstFrame(server().admin, `${CMS}?watch=1&fieldSelector=metadata.name%3Dcfg&resourceVersion=0`, METADATA_WATCH);
      expect(contentType).to.equal(`${UPSTREAM_PB};stream=watch`);
      const ev = decodeWatchEvent(frame, resolve);
      expect(ev).to.include({ type: 'ADDED', apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata' });
      expect(ev.object.metadata).to.deep.include({ name: 'cfg' });
      expect(ev.object).to.not.have.property('data');
    });

    it('keeps the vendor spelling: Tables and metadata only in meta.orch.io/v1', async () => {
      const table = await server().admin.get(CMS, { headers: { Accept: as('application/json', 'Table', 'meta.orch.io', 'v1') } });
      expect(table.body).to.include({ kind: 'Table', apiVersion: 'meta.orch.io/v1' });
      expect(table.body.rows[0].object.apiVersion).to.equal('meta.orch.io/v1');
      const pb = await server().admin.get(CMS, { headers: { Accept: as(PB, 'PartialObjectMetadataList', 'meta.orch.io', 'v1') } });
      expect(decodeProtobuf(pb.bytes, resolve)).to.include({ apiVersion: 'meta.orch.io/v1', kind: 'PartialObjectMetadataList' });
    });
  });

  describe('without --upstream-aliases', () => {
    const server = useTestServer({ upstreamAliases: false });
    before(() => seed(server));

    it('skips a meta.k8s.io Table entry: falls back to the plain object, or 406 without a fallback', async () => {
      const fallback = await server().admin.get(CMS, { headers: { Accept: KUBECTL_TABLE } });
      expect(fallback.status).to.equal(200);
      expect(fallback.body.kind).to.equal('ConfigMapList');
      const alone = await server().admin.get(CMS, { headers: { Accept: as('application/json', 'Table', 'meta.k8s.io', 'v1') } });
      expect(alone.status).to.equal(406);
      expect(alone.body).to.include({ reason: 'NotAcceptable' });
      const metadata = await server().admin.get(CMS, { headers: { Accept: METADATA_LIST } });
      expect(metadata.headers['content-type']).to.equal('application/json');
      expect(metadata.body.kind).to.equal('ConfigMapList');
    });

    it('refuses the upstream protobuf name: 406 in Accept, 415 as a request Content-Type', async () => {
      const get = await server().admin.get(`${CMS}/cfg`, { headers: { Accept: UPSTREAM_PB } });
      expect(get.status).to.equal(406);
      expect(get.headers['content-type']).to.equal('application/json');
      expect(get.body.reason).to.equal('NotAcceptable');
      const fallback = await server().admin.get(`${CMS}/cfg`, { headers: { Accept: `${UPSTREAM_PB},application/json` } });
      expect(fallback.headers['content-type']).to.equal('application/json');
      const body = encodeProtobuf({ metadata: { name: 'pb-up' } }, cmKind);
      const post = await server().admin.request('POST', CMS, { raw: body, contentType: UPSTREAM_PB });
      expect(post.status).to.equal(415);
      expect(post.body).to.include({
        reason: 'UnsupportedMediaType',
        message: `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PB}`,
      });
      const put = await server().admin.request('PUT', `${CMS}/cfg`, { raw: body, contentType: UPSTREAM_PB });
      expect(put.status).to.equal(415);
      const options = encodeProtobuf({ gracePeriodSeconds: 0 }, { apiVersion: 'v1', kind: 'DeleteOptions', schema: deleteOptions });
      const del = await server().admin.request('DELETE', `${CMS}/cfg`, { raw: options, contentType: UPSTREAM_PB });
      expect(del.status).to.equal(415);
      expect((await server().admin.get(`${CMS}/cfg`)).status, 'not deleted').to.equal(200);
    });

    it('serves the vendor spellings as before', async () => {
      for (const version of ['v1', 'v1beta1']) {
        const table = await server().admin.get(CMS, { headers: { Accept: as('application/json', 'Table', 'meta.orch.io', version) } });
        expect(table.body).to.include({ kind: 'Table', apiVersion: `meta.orch.io/${version}` });
      }
      const pb = await server().admin.get(CMS, { headers: { Accept: as(PB, 'PartialObjectMetadataList', 'meta.orch.io', 'v1') } });
      expect(pb.headers['content-type']).to.equal(PB);
      expect(decodeProtobuf(pb.bytes, resolve)).to.include({ apiVersion: 'meta.orch.io/v1', kind: 'PartialObjectMetadataList' });
      const post = await server().admin.request('POST', CMS, { raw: encodeProtobuf({ metadata: { name: 'pb-ours' } }, cmKind), contentType: PB, headers: { Accept: PB } });
      expect(post.status).to.equal(201);
      expect(decodeProtobuf(post.bytes, resolve).object.metadata).to.deep.include({ name: 'pb-ours' });
      const missing = await server().admin.get(`${CMS}/absent`, { headers: { Accept: PB } });
      expect(decodeProtobuf(missing.bytes, () => undefined).kind).to.equal(STATUS_KIND.kind);
    });
  });
});
