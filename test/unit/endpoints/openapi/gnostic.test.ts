import { expect } from 'chai';
import { GnosticDocument } from '../../../../lib/endpoints/openapi/gnostic-proto.js';
import { encodeGnosticMessage, toGnostic } from '../../../../lib/endpoints/openapi/gnostic.js';
import { ExtensionWriter } from '../../../../lib/endpoints/openapi/names.js';
import { buildSwagger } from '../../../../lib/endpoints/openapi/swagger.js';
import { servedInstaller } from './fixture.js';
import { gnosticToJSON } from './gnostic-json.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type M = any;

describe('openapi gnostic protobuf form (issue #6 item 2)', () => {
  const doc = buildSwagger(servedInstaller().groupVersions(), { title: 'Orch', version: 'v1.30.0' }, new ExtensionWriter(true));

  it('encodes in steps exactly the bytes of encoding the whole message at once', async () => {
    let pauses = 0;
    const message = await toGnostic(doc, async () => void pauses++);
    const stepped = await encodeGnosticMessage(message, async () => void pauses++);
    expect(pauses).to.be.above(10);
    expect(stepped.equals(Buffer.from(GnosticDocument.encode(message).finish()))).to.equal(true);
    expect(gnosticToJSON(stepped)).to.deep.equal(JSON.parse(JSON.stringify(doc)));
  });

  it('maps the Swagger shapes onto the gnostic messages (parameters by location, extensions and enums as YAML)', async () => {
    const m: M = GnosticDocument.toObject(GnosticDocument.decode(await encodeGnosticMessage(await toGnostic(doc))), { longs: Number });
    expect(m.swagger).to.equal('2.0');
    expect(m.securityDefinitions.additionalProperties[0]).to.deep.equal({ name: 'BearerToken', value: { apiKeySecurity: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } } });
    const item = m.paths.path.find((p: M) => p.name === '/api/v1/namespaces/{namespace}/pods/{name}').value;
    expect(item.parameters[0].parameter.nonBodyParameter.pathParameterSubSchema).to.include({ name: 'name', in: 'path', required: true, type: 'string' });
    expect(item.patch.parameters[0].parameter.bodyParameter).to.deep.include({ name: 'body', in: 'body', required: true, schema: { ref: '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(item.patch.parameters[4].parameter.nonBodyParameter.queryParameterSubSchema).to.include({ name: 'force', type: 'boolean' });
    expect(item.patch.vendorExtension.map((e: M) => [e.name, e.value.yaml])).to.deep.equal([
      ['x-orch-action', 'patch\n'],
      ['x-orch-group-version-kind', 'group: ""\nkind: Pod\nversion: v1\n'],
      ['x-kubernetes-group-version-kind', 'group: ""\nkind: Pod\nversion: v1\n'],
    ]);
    const condition = m.definitions.additionalProperties.find((d: M) => d.name === 'io.orch.apimachinery.pkg.apis.meta.v1.Condition').value;
    const status = condition.properties.additionalProperties.find((p: M) => p.name === 'status').value;
    expect(status.enum.map((e: M) => e.yaml)).to.deep.equal(['"True"\n', '"False"\n', 'Unknown\n']);
    expect(status.type).to.deep.equal({ value: ['string'] });
  });
});
