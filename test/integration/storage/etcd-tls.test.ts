/**
 * etcd over TLS (issue #16 § HA replicas): a member requiring client certificates, reached with
 * the `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile` material, both by the storage client
 * and by the server process through its flags. Certificates come from the project's PKI code.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCaCertificate, createSignedCertificate } from '../../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../../lib/server/pki/keys.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { startServerProcess } from '../../framework/server-process.js';

describe('etcd over TLS', function () {
  this.timeout(120_000);
  let dir: string;
  let cluster: EtcdCluster | undefined;
  const files = { ca: '', serverCert: '', serverKey: '', clientCert: '', clientKey: '' };

  before(async function () {
    dir = await mkdtemp(path.join(os.tmpdir(), 'etcd-tls-'));
    const [caKey, serverKey, clientKey] = await Promise.all([generateRsaKey(), generateRsaKey(), generateRsaKey()]);
    const caPem = createCaCertificate(caKey, 'etcd-ca', 1);
    const ca = { certPem: caPem, key: caKey };
    const pems = {
      ca: caPem,
      serverCert: createSignedCertificate(ca, { key: serverKey, commonName: 'etcd', usage: 'server', dnsNames: ['localhost'], ips: ['127.0.0.1'], validDays: 1 }),
      serverKey: serverKey.privateKeyPem,
      clientCert: createSignedCertificate(ca, { key: clientKey, commonName: 'apiserver-etcd-client', usage: 'client', validDays: 1 }),
      clientKey: clientKey.privateKeyPem,
    };
    for (const [name, pem] of Object.entries(pems)) {
      files[name as keyof typeof files] = path.join(dir, `${name}.pem`);
      await writeFile(files[name as keyof typeof files], pem, { mode: 0o600 });
    }
    cluster = await startEtcdCluster({ members: 1, tls: { certFile: files.serverCert, keyFile: files.serverKey, trustedCAFile: files.ca, clientCertFile: files.clientCert, clientKeyFile: files.clientKey } });
  });

  after(async function () {
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads and writes with the CA and a client certificate', async function () {
    const client = newEtcdClient(cluster!.endpoints, { ca: await readFile(files.ca), cert: await readFile(files.clientCert), key: await readFile(files.clientKey) });
    try {
      await client.put('/tls-test/a').value('1');
      expect(await client.get('/tls-test/a').string()).to.equal('1');
    } finally {
      client.close();
    }
  });

  it('is refused without a client certificate', async function () {
    const client = newEtcdClient(cluster!.endpoints, { ca: await readFile(files.ca) });
    try {
      const err = await client.get('/tls-test/a').string().then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(Error);
    } finally {
      client.close();
    }
  });

  it('serves the API from a TLS etcd given --etcd-servers, --etcd-cafile, --etcd-certfile, --etcd-keyfile', async function () {
    const server = await startServerProcess([
      `--etcd-servers=${cluster!.endpoints.join(',')}`,
      `--etcd-cafile=${files.ca}`,
      `--etcd-certfile=${files.clientCert}`,
      `--etcd-keyfile=${files.clientKey}`,
    ]);
    try {
      const res = await server.admin.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'over-tls' } });
      expect(res.status).to.equal(201);
      const got = await server.admin.get('/api/v1/namespaces/default/configmaps/over-tls');
      expect(got.body.metadata.resourceVersion).to.equal(res.body.metadata.resourceVersion);
    } finally {
      await server.stop();
    }
  });

  it('exits with the flag named when a TLS file cannot be read', async function () {
    const err = await startServerProcess([`--etcd-servers=${cluster!.endpoints[0]}`, `--etcd-cafile=${path.join(dir, 'missing.pem')}`]).then(() => undefined, (e: unknown) => e as Error);
    expect(err?.message).to.include(`--etcd-cafile: cannot read ${path.join(dir, 'missing.pem')}`);
  });
});
