import { expect } from 'chai';
import { X509Certificate, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { parse } from 'yaml';
import { ADMIN_USER, SERVER_NAME, VENDOR } from '../../../lib/apis/vendor.js';
import { writeKubeconfig } from '../../../lib/server/pki/kubeconfig.js';
import { ensureServingPKI, pkiPaths, type ServingPKI } from '../../../lib/server/pki/serving-pki.js';

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ALL_FILES = ['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key', 'admin.crt', 'admin.key'];

/** Every PKI file's bytes, by base name. */
async function snapshot(certDir: string): Promise<Map<string, Buffer>> {
  return new Map(await Promise.all(ALL_FILES.map(async (f) => [f, await readFile(path.join(certDir, f))] as const)));
}

/** Subject attribute values of `key` (`CN`, `O`). */
function subject(cert: X509Certificate, key: string): string[] {
  return cert.subject
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));
}

/** Completes a mutual-TLS handshake with the PKI: server cert + CA, client cert; returns what the server saw. */
async function handshake(pki: ServingPKI, servername: string): Promise<{ authorized: boolean; peerCN: unknown }> {
  const server = tls.createServer({
    cert: pki.servingCertPem,
    key: pki.servingKeyPem,
    ca: pki.caCertPem,
    requestCert: true,
    rejectUnauthorized: true,
  });
  const seen = new Promise<{ authorized: boolean; peerCN: unknown }>((resolve) => {
    server.on('secureConnection', (socket) => {
      resolve({ authorized: socket.authorized, peerCN: socket.getPeerCertificate().subject?.CN });
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    const client = tls.connect({ port, host: '127.0.0.1', servername, ca: pki.caCertPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
    await new Promise<void>((resolve, reject) => {
      client.on('secureConnect', resolve);
      client.on('error', reject);
    });
    client.end();
    return await seen;
  } finally {
    server.close();
  }
}

describe('server/pki (integration: real files)', function () {
  this.timeout(30_000);
  let certDir: string;
  let pki: ServingPKI;

  before(async () => {
    certDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'pki-test-')), 'pki');
    pki = await ensureServingPKI({ certDir });
  });
  after(async () => {
    await rm(path.dirname(certDir), { recursive: true, force: true });
  });

  it('creates all six files, keys 0600 and certificates 0644', async () => {
    expect([...pki.generated].sort()).to.deep.equal([...ALL_FILES].sort());
    const paths = pkiPaths(certDir);
    expect(pki.paths).to.deep.equal(paths);
    for (const file of [paths.caKey, paths.servingKey, paths.adminKey]) expect((await stat(file)).mode & 0o777).to.equal(0o600);
    for (const file of [paths.caCert, paths.servingCert, paths.adminCert]) expect((await stat(file)).mode & 0o777).to.equal(0o644);
    expect((await stat(certDir)).mode & 0o777).to.equal(0o700);
    expect(await readFile(paths.servingCert, 'utf8')).to.equal(pki.servingCertPem);
  });

  it('makes a self-signed RSA 2048 CA that signs both leaves', () => {
    const ca = new X509Certificate(pki.caCertPem);
    expect(ca.ca).to.equal(true);
    expect(ca.verify(ca.publicKey)).to.equal(true);
    expect(ca.publicKey.asymmetricKeyDetails?.modulusLength).to.equal(2048);
    expect(ca.checkPrivateKey(createPrivateKey(pki.caKeyPem))).to.equal(true);
    for (const pem of [pki.servingCertPem, pki.adminCertPem]) {
      const leaf = new X509Certificate(pem);
      expect(leaf.ca).to.equal(false);
      expect(leaf.checkIssued(ca)).to.equal(true);
      expect(leaf.verify(ca.publicKey)).to.equal(true);
      expect(leaf.publicKey.asymmetricKeyDetails?.modulusLength).to.equal(2048);
    }
  });

  it('serving certificate: serverAuth, SANs localhost, 127.0.0.1, ::1 and the host name', () => {
    const serving = new X509Certificate(pki.servingCertPem);
    expect(serving.keyUsage).to.deep.equal([SERVER_AUTH]);
    expect(subject(serving, 'CN')).to.deep.equal([SERVER_NAME]);
    expect(serving.checkPrivateKey(createPrivateKey(pki.servingKeyPem))).to.equal(true);
    expect(serving.subjectAltName).to.include('DNS:localhost');
    expect(serving.subjectAltName).to.include(`DNS:${os.hostname().toLowerCase()}`);
    expect(serving.subjectAltName).to.include('IP Address:127.0.0.1');
    expect(serving.checkIP('::1')).to.equal('::1');
    expect(serving.checkHost(os.hostname())).to.not.equal(undefined);
  });

  it(`admin certificate: CN ${ADMIN_USER}, O system:masters, clientAuth`, () => {
    const admin = new X509Certificate(pki.adminCertPem);
    expect(subject(admin, 'CN')).to.deep.equal([ADMIN_USER]);
    expect(subject(admin, 'O')).to.deep.equal(['system:masters']);
    expect(admin.keyUsage).to.deep.equal([CLIENT_AUTH]);
    expect(admin.checkPrivateKey(createPrivateKey(pki.adminKeyPem))).to.equal(true);
  });

  it('works for mutual TLS: the client trusts the server as localhost, the server authenticates the admin', async () => {
    expect(await handshake(pki, 'localhost')).to.deep.equal({ authorized: true, peerCN: ADMIN_USER });
  });

  it('reuses valid files on the next call, leaving them byte-identical', async () => {
    const before = await snapshot(certDir);
    const again = await ensureServingPKI({ certDir });
    expect(again.generated).to.deep.equal([]);
    expect(await snapshot(certDir)).to.deep.equal(before);
    expect(again.caCertPem).to.equal(pki.caCertPem);
    expect(again.adminKeyPem).to.equal(pki.adminKeyPem);
  });

  it('regenerates only the serving pair when its SANs do not cover a requested name', async () => {
    const before = await snapshot(certDir);
    const wider = await ensureServingPKI({ certDir, hostnames: ['api.example.test', '10.1.2.3'], ips: ['fd00::1'] });
    expect([...wider.generated].sort()).to.deep.equal(['apiserver.crt', 'apiserver.key']);
    const after = await snapshot(certDir);
    for (const f of ['ca.crt', 'ca.key', 'admin.crt', 'admin.key']) expect(after.get(f)).to.deep.equal(before.get(f));
    const serving = new X509Certificate(wider.servingCertPem);
    expect(serving.checkHost('api.example.test')).to.equal('api.example.test');
    expect(serving.checkIP('10.1.2.3')).to.equal('10.1.2.3');
    expect(serving.checkIP('fd00::1')).to.equal('fd00::1');
    expect(serving.checkHost('localhost')).to.equal('localhost');
    expect(serving.verify(new X509Certificate(wider.caCertPem).publicKey)).to.equal(true);
  });

  it('regenerates the serving pair when the host name changes', async () => {
    const original = os.hostname;
    os.hostname = () => 'renamed-host.example';
    try {
      const renamed = await ensureServingPKI({ certDir });
      expect([...renamed.generated].sort()).to.deep.equal(['apiserver.crt', 'apiserver.key']);
      expect(new X509Certificate(renamed.servingCertPem).checkHost('renamed-host.example')).to.equal('renamed-host.example');
    } finally {
      os.hostname = original;
    }
    const back = await ensureServingPKI({ certDir });
    expect([...back.generated].sort()).to.deep.equal(['apiserver.crt', 'apiserver.key']);
  });

  it('replaces a leaf whose key no longer matches its certificate', async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    await writeFile(pkiPaths(certDir).adminKey, stranger);
    const fixed = await ensureServingPKI({ certDir });
    expect([...fixed.generated].sort()).to.deep.equal(['admin.crt', 'admin.key']);
    expect(new X509Certificate(fixed.adminCertPem).checkPrivateKey(createPrivateKey(fixed.adminKeyPem))).to.equal(true);
  });

  it('replaces everything when the CA key is lost', async () => {
    await rm(pkiPaths(certDir).caKey);
    const before = await snapshot(certDir).catch(() => undefined);
    expect(before).to.equal(undefined);
    const renewed = await ensureServingPKI({ certDir });
    expect([...renewed.generated].sort()).to.deep.equal([...ALL_FILES].sort());
    const ca = new X509Certificate(renewed.caCertPem);
    expect(new X509Certificate(renewed.servingCertPem).verify(ca.publicKey)).to.equal(true);
    expect(new X509Certificate(renewed.adminCertPem).verify(ca.publicKey)).to.equal(true);
    pki = renewed;
  });

  describe('writeKubeconfig', () => {
    it('writes a client configuration with embedded credentials, mode 0600', async () => {
      const file = path.join(path.dirname(certDir), 'conf', 'admin.kubeconfig');
      await writeKubeconfig(file, {
        server: 'https://127.0.0.1:6443',
        caPem: pki.caCertPem,
        clientCertPem: pki.adminCertPem,
        clientKeyPem: pki.adminKeyPem,
      });
      expect((await stat(file)).mode & 0o777).to.equal(0o600);
      const text = await readFile(file, 'utf8');
      expect(text).not.to.match(/BEGIN/);
      const config = parse(text);
      const b64 = (pem: string): string => Buffer.from(pem).toString('base64');
      expect(config).to.deep.equal({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: VENDOR, cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64(pki.caCertPem) } }],
        users: [{ name: ADMIN_USER, user: { 'client-certificate-data': b64(pki.adminCertPem), 'client-key-data': b64(pki.adminKeyPem) } }],
        contexts: [{ name: `${ADMIN_USER}@${VENDOR}`, context: { cluster: VENDOR, user: ADMIN_USER } }],
        'current-context': `${ADMIN_USER}@${VENDOR}`,
        preferences: {},
      });
    });

    it('uses the given user, cluster and context names', async () => {
      const file = path.join(path.dirname(certDir), 'other.kubeconfig');
      await writeKubeconfig(file, {
        server: 'https://[::1]:7443',
        caPem: pki.caCertPem,
        clientCertPem: pki.adminCertPem,
        clientKeyPem: pki.adminKeyPem,
        user: 'u',
        cluster: 'c',
        context: 'x',
      });
      const config = parse(await readFile(file, 'utf8'));
      expect(config['current-context']).to.equal('x');
      expect(config.contexts).to.deep.equal([{ name: 'x', context: { cluster: 'c', user: 'u' } }]);
      expect(config.clusters[0].name).to.equal('c');
      expect(config.users[0].name).to.equal('u');
    });
  });
});
