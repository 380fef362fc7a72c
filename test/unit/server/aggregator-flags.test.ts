import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { defaultAggregatorFlags, loadProxyClientIdentity } from '../../../lib/server/options/aggregator-flags.js';

describe('server/options/aggregator-flags (issue #20; spec 001 § Authenticating proxy flags)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-aggregator-flags-'));
    await writeFile(path.join(dir, 'p.crt'), 'CERT');
    await writeFile(path.join(dir, 'p.key'), 'KEY');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('routes to endpoints and presents no certificate by default', async () => {
    expect(defaultAggregatorFlags()).to.deep.equal({ proxyClientCertFile: '', proxyClientKeyFile: '', enableAggregatorRouting: true });
    expect(await loadProxyClientIdentity(defaultAggregatorFlags())).to.equal(undefined);
  });

  it('reads the proxy client certificate and key', async () => {
    const flags = { ...defaultAggregatorFlags(), proxyClientCertFile: path.join(dir, 'p.crt'), proxyClientKeyFile: path.join(dir, 'p.key') };
    expect(await loadProxyClientIdentity(flags)).to.deep.equal({ certPem: 'CERT', keyPem: 'KEY' });
  });

  it('names the flag and the file it cannot read', async () => {
    const missing = path.join(dir, 'missing.key');
    const flags = { ...defaultAggregatorFlags(), proxyClientCertFile: path.join(dir, 'p.crt'), proxyClientKeyFile: missing };
    let caught: Error | undefined;
    await loadProxyClientIdentity(flags).catch((err: Error) => (caught = err));
    expect(caught?.message).to.match(new RegExp(`^--proxy-client-key-file: cannot read ${JSON.stringify(missing).replaceAll('/', '\\/')}: ENOENT`));
  });
});
