/** The kubelet client flags' files (issue #20): read into the configuration, or a start-up error naming the flag. */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultKubeletClientFlags, kubeletClientConfig } from '../../../lib/server/options/kubelet-flags.js';

describe('server/options/kubelet-flags (issue #20)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-kubelet-flags-'));
    for (const f of ['c.crt', 'c.key', 'ca.crt']) await writeFile(path.join(dir, f), `pem of ${f}`);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('defaults: no identity, kubelets not verified, upstream preference, 5s', async () => {
    expect(await kubeletClientConfig(defaultKubeletClientFlags())).to.deep.equal({ preferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'], timeoutMs: 5000 });
  });

  it('reads the certificate, key and CA files', async () => {
    const flags = { ...defaultKubeletClientFlags(), clientCertificate: path.join(dir, 'c.crt'), clientKey: path.join(dir, 'c.key'), certificateAuthority: path.join(dir, 'ca.crt') };
    expect(await kubeletClientConfig(flags)).to.include({ certPem: 'pem of c.crt', keyPem: 'pem of c.key', caPem: 'pem of ca.crt' });
  });

  it('a missing file fails naming the flag', async () => {
    const flags = { ...defaultKubeletClientFlags(), certificateAuthority: path.join(dir, 'nope.crt') };
    const err = await kubeletClientConfig(flags).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).to.match(/^--kubelet-certificate-authority: ENOENT: no such file or directory/);
  });
});
