import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APISERVER_CONFIG_GROUP, vendorGroup } from '../../../../lib/apis/vendor.js';
import { ABACAuthorizer } from '../../../../lib/authorization/abac/authorizer.js';
import { parsePolicies } from '../../../../lib/authorization/abac/policy.js';
import { AlwaysDenyAuthorizer } from '../../../../lib/authorization/always/authorizer.js';
import { loadAuthorizationConfiguration } from '../../../../lib/authorization/config/configuration.js';
import { type BuiltAuthorizer, ReloadableAuthorizer } from '../../../../lib/authorization/config/reloadable.js';
import { covers } from '../../../conformance/covers.js';

const doc = (types: string[]) =>
  JSON.stringify({ apiVersion: `${APISERVER_CONFIG_GROUP}/v1beta1`, kind: 'AuthorizationConfiguration', authorizers: types.map((t) => ({ type: t, name: t.toLowerCase() })) });

describe('authorization/config: reload of the configuration file (spec 001 § Authorization, § Limits)', () => {
  let dir: string;
  let file: string;
  let chain: ReloadableAuthorizer;
  const statuses: string[] = [];
  const errors: string[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'authz-reload-'));
    file = path.join(dir, 'authz.json');
    const data = doc(['AlwaysDeny', 'ABAC']);
    await writeFile(file, data);
    const abac = new ABACAuthorizer(parsePolicies(JSON.stringify({ apiVersion: `${vendorGroup('abac.authorization')}/v1beta1`, kind: 'Policy', spec: { user: 'u', nonResourcePath: '*' } }), 'p'));
    const deny = new AlwaysDenyAuthorizer();
    const nonWebhook = new Map<string, BuiltAuthorizer>([
      ['ABAC', { authorizer: abac, ruleResolver: abac }],
      ['AlwaysDeny', { authorizer: deny, ruleResolver: deny }],
    ]);
    statuses.length = 0;
    errors.length = 0;
    chain = await ReloadableAuthorizer.create({
      path: file,
      initialData: data,
      initial: await loadAuthorizationConfiguration(data),
      nonWebhook,
      log: { info: () => undefined, error: (obj) => errors.push(String((obj as { err: Error }).err.message)) },
      onReload: (s) => statuses.push(s),
      pollIntervalMs: 100,
    });
  });
  afterEach(async () => {
    chain.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves the first file's chain", async () => {
    expect(chain.types).to.deep.equal(['AlwaysDeny', 'ABAC']);
    const r = await chain.authorize({ user: { name: 'u', groups: [] }, verb: 'get', isResourceRequest: false, path: '/x', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' });
    expect(r.decision).to.equal('Allow');
  });

  it('a changed file swaps the chain and reports success', async () => {
    await writeFile(file, doc(['ABAC', 'AlwaysDeny']));
    await chain.check();
    expect(chain.types).to.deep.equal(['ABAC', 'AlwaysDeny']);
    expect(statuses).to.deep.equal(['success']);
  });

  it(`is read again on its interval (and on change) once started${covers('001 § Limits › Authorization file reload')}`, async () => {
    chain.start();
    expect(statuses, 'the start counts as a successful load').to.deep.equal(['success']);
    await writeFile(file, doc(['ABAC', 'AlwaysDeny']));
    const end = Date.now() + 3000;
    while (statuses.length === 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(statuses).to.deep.equal(['success', 'success']);
    expect(chain.types).to.deep.equal(['ABAC', 'AlwaysDeny']);
  });

  it('a file that drops a type of the first one is a failure; the chain in effect stays', async () => {
    await writeFile(file, doc(['ABAC']));
    await chain.check();
    expect(statuses).to.deep.equal(['failure']);
    expect(errors).to.deep.equal(['missing required types: [AlwaysDeny]']);
    expect(chain.types).to.deep.equal(['AlwaysDeny', 'ABAC']);
    await chain.check();
    expect(statuses, 'the same bad content is not reported twice').to.deep.equal(['failure']);
  });

  it('a reformatted file with the same configuration changes nothing and reports nothing', async () => {
    await writeFile(file, `${JSON.stringify(JSON.parse(doc(['AlwaysDeny', 'ABAC'])), null, 2)}\n`);
    await chain.check();
    expect(statuses).to.deep.equal([]);
  });

  it('an unreadable file is a failure, tried again', async () => {
    await rm(file);
    await chain.check();
    expect(statuses).to.deep.equal(['failure']);
  });
});
