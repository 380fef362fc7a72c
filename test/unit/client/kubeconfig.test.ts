import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { KubeconfigError, loadKubeconfig } from '../../../lib/client/kubeconfig.js';
import { createCaCertificate, createSignedCertificate } from '../../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../../lib/server/pki/keys.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A kubeconfig document with one cluster, one user and one current context. */
function doc(cluster: Record<string, unknown>, user: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'webhook', cluster }],
    users: [{ name: 'apiserver', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'webhook', user: 'apiserver' } }],
    'current-context': 'ctx',
    ...extra,
  };
}

describe('client/kubeconfig: loading a client configuration file (as the upstream loader)', () => {
  let dir: string;
  let ca: string;
  let cert: string;
  let key: string;
  let otherKey: string;

  before(async function () {
    this.timeout(30_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-kubeconfig-'));
    const [caKey, clientKey, other] = await Promise.all([generateRsaKey(), generateRsaKey(), generateRsaKey()]);
    ca = createCaCertificate(caKey, 'test-ca', 1);
    cert = createSignedCertificate({ certPem: ca, key: caKey }, { key: clientKey, commonName: 'apiserver', usage: 'client', validDays: 1 });
    key = clientKey.privateKeyPem;
    otherKey = other.privateKeyPem;
    await mkdir(path.join(dir, 'sub', 'pki'), { recursive: true });
    await writeFile(path.join(dir, 'sub', 'pki', 'ca.crt'), ca);
    await writeFile(path.join(dir, 'sub', 'pki', 'client.crt'), cert);
    await writeFile(path.join(dir, 'sub', 'pki', 'client.key'), key);
    await writeFile(path.join(dir, 'sub', 'token'), 'file-token\n');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  let n = 0;
  /** Writes `content` (an object as YAML, or text as is) into dir/sub and loads it. */
  async function load(content: unknown, name = `k${n++}.yaml`) {
    const file = path.join(dir, 'sub', name);
    await writeFile(file, typeof content === 'string' ? content : stringify(content));
    return loadKubeconfig(file);
  }
  async function loadError(content: unknown): Promise<string> {
    try {
      await load(content);
    } catch (err) {
      expect(err).to.be.instanceOf(KubeconfigError);
      return (err as Error).message;
    }
    throw new Error('expected the file to be rejected');
  }

  it('embedded data: server URL and path, CA, client certificate and key, bearer token', async () => {
    const c = await load(
      doc(
        { server: 'https://127.0.0.1:8443/authenticate?x=1', 'certificate-authority-data': b64(ca) },
        { 'client-certificate-data': b64(cert), 'client-key-data': b64(key), token: 'secret' },
      ),
    );
    const o = await c.requestOptions('POST');
    expect(o).to.include({ method: 'POST', protocol: 'https:', hostname: '127.0.0.1', port: '8443', path: '/authenticate?x=1', ca, cert, key, rejectUnauthorized: true });
    expect(o.headers).to.deep.equal({ Authorization: 'Bearer secret' });
  });

  it('JSON is read as well as YAML', async () => {
    const c = await load(JSON.stringify(doc({ server: 'http://localhost/' }, {})), 'k.json');
    expect(await c.requestOptions('POST')).to.include({ protocol: 'http:', hostname: 'localhost', port: 80, path: '/' });
  });

  it("relative paths are resolved against the file's directory", async () => {
    const c = await load(
      doc(
        { server: 'https://[::1]/', 'certificate-authority': 'pki/ca.crt' },
        { 'client-certificate': 'pki/client.crt', 'client-key': './pki/client.key', tokenFile: 'token' },
      ),
    );
    const o = await c.requestOptions('POST');
    expect(o).to.include({ hostname: '::1', port: 443, ca, cert, key });
    expect(o.headers.Authorization).to.equal('Bearer file-token');
  });

  it('an inline token wins over tokenFile', async () => {
    const c = await load(doc({ server: 'https://h/' }, { token: 'inline', tokenFile: 'token' }));
    expect(await c.authorization()).to.equal('Bearer inline');
  });

  it('tls-server-name and insecure-skip-tls-verify', async () => {
    const c = await load(doc({ server: 'https://10.0.0.1/', 'tls-server-name': 'webhook.local', 'insecure-skip-tls-verify': true }, {}));
    expect(c.tls).to.deep.equal({ rejectUnauthorized: false, servername: 'webhook.local' });
  });

  it('basic auth', async () => {
    const c = await load(doc({ server: 'https://h/' }, { username: 'u', password: 'p' }));
    expect(await c.authorization()).to.equal(`Basic ${b64('u:p')}`);
  });

  it('a context without user: no credentials', async () => {
    const d = doc({ server: 'https://h/' }, {});
    d.contexts = [{ name: 'ctx', context: { cluster: 'webhook' } as { cluster: string; user: string } }];
    expect(await (await load(d)).authorization()).to.equal(undefined);
  });

  const rejected: Array<[string, () => unknown, string]> = [
    ['not YAML', () => 'clusters: [', 'error loading config file'],
    ['a duplicate key', () => 'current-context: a\ncurrent-context: b\n', 'error loading config file'],
    ['not a mapping', () => '- a\n', 'error loading config file'],
    ['another kind', () => ({ ...doc({ server: 'https://h/' }, {}), kind: 'Pod' }), 'kind "Pod" is not Config'],
    ['clusters not a list', () => ({ ...doc({}, {}), clusters: 'x' }), 'clusters must be a list'],
    ['a duplicate cluster name', () => ({ ...doc({ server: 'https://h/' }, {}), clusters: [{ name: 'webhook', cluster: {} }, { name: 'webhook', cluster: {} }] }), 'duplicate name "webhook" in list clusters'],
    ['no current context', () => ({ ...doc({ server: 'https://h/' }, {}), 'current-context': '' }), 'invalid configuration: no configuration has been provided (current-context is not set)'],
    [
      'a current context that does not exist',
      () => ({ ...doc({ server: 'https://h/' }, {}), 'current-context': 'nope' }),
      'invalid configuration: [context was not found for specified context: nope, cluster has no server defined]',
    ],
    [
      'a context naming a missing cluster and user',
      () => ({ ...doc({}, {}), contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }] }),
      'invalid configuration: [cluster "c" was not found for context "ctx", user "u" was not found for context "ctx"]',
    ],
    ['no server', () => doc({}, {}), 'invalid configuration: no server found for cluster "webhook"'],
    ['a server that is no http(s) URL', () => doc({ server: 'ftp://h/' }, {}), 'invalid configuration: server "ftp://h/" of cluster "webhook" is not an https:// or http:// URL'],
    [
      'a CA with the insecure flag',
      () => doc({ server: 'https://h/', 'certificate-authority-data': b64(ca), 'insecure-skip-tls-verify': true }, {}),
      'invalid configuration: specifying a root certificates file with the insecure flag is not allowed',
    ],
    [
      'CA data and file',
      () => doc({ server: 'https://h/', 'certificate-authority-data': b64(ca), 'certificate-authority': 'pki/ca.crt' }, {}),
      'invalid configuration: certificate-authority-data and certificate-authority are both specified for webhook. certificate-authority-data will override.',
    ],
    [
      'an unreadable CA file',
      () => doc({ server: 'https://h/', 'certificate-authority': 'missing.crt' }, {}),
      'invalid configuration: unable to read certificate-authority ',
    ],
    ['a CA that is no certificate', () => doc({ server: 'https://h/', 'certificate-authority-data': b64('hello') }, {}), 'invalid configuration: unable to load root certificates: unable to parse bytes as PEM block'],
    ['illegal base64', () => doc({ server: 'https://h/', 'certificate-authority-data': '***' }, {}), 'certificate-authority-data of cluster "webhook": illegal base64 data'],
    [
      'a client certificate without key',
      () => doc({ server: 'https://h/' }, { 'client-certificate-data': b64(cert) }),
      'invalid configuration: client-key-data or client-key must be specified for apiserver to use the clientCert authentication method.',
    ],
    ['a key that does not match the certificate', () => doc({ server: 'https://h/' }, { 'client-certificate-data': b64(cert), 'client-key-data': b64(otherKey) }), 'invalid configuration: tls: private key does not match public key'],
    [
      'an unreadable client certificate file',
      () => doc({ server: 'https://h/' }, { 'client-certificate': 'nope.crt', 'client-key': 'pki/client.key' }),
      'invalid configuration: unable to read client-cert ',
    ],
    [
      'token and basic auth together',
      () => doc({ server: 'https://h/' }, { token: 't', username: 'u' }),
      'invalid configuration: more than one authentication method found for apiserver; found [token basicAuth], only one is allowed',
    ],
    [
      'an exec plugin without apiVersion and interactiveMode (exec-credential.test.ts has the rest)',
      () => doc({ server: 'https://h/' }, { exec: { command: 'x' } }),
      'invalid configuration: [apiVersion must be specified for apiserver to use exec authentication plugin, interactiveMode must be specified for apiserver to use exec authentication plugin]',
    ],
    ['a missing token file', () => doc({ server: 'https://h/' }, { tokenFile: 'nope' }), 'invalid configuration: unable to read tokenFile '],
  ];
  for (const [title, content, message] of rejected) {
    it(`rejects ${title}`, async () => {
      expect(await loadError(content())).to.include(message);
    });
  }

  it('a missing file: stat error', async () => {
    const file = path.join(dir, 'missing.yaml');
    try {
      await loadKubeconfig(file);
      expect.fail('expected an error');
    } catch (err) {
      expect((err as Error).message).to.equal(`stat ${file}: no such file or directory`);
    }
  });
});
