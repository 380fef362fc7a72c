import { expect } from 'chai';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { clusterInfoKubeconfig } from '../../../../lib/controllers/bootstrapsigner/cluster-info.js';
import { computeDetachedSignature } from '../../../../lib/controllers/bootstrapsigner/jws.js';

// Upstream cluster-bootstrap token/jws test vectors.
const CONTENT = 'Hello from the other side. I must have called a thousand times.';
const SECRET = 'my voice is my passcode';
const ID = 'joshua';

describe('controllers/bootstrapsigner: detached JWS and cluster-info (spec 001 § Bootstrap tokens; upstream token/jws)', () => {
  const vectors: Array<[string, string, string]> = [
    ['content and secret', CONTENT, SECRET],
    ['empty content', '', SECRET],
    ['empty secret', CONTENT, ''],
  ];
  const want = [
    'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8',
    'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk',
    'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8',
  ];
  vectors.forEach(([what, content, secret], i) => {
    it(`computes upstream's primitive byte for byte for a given key: ${what}`, async () => {
      expect(await computeDetachedSignature(content, ID, secret)).to.equal(want[i]);
    });
  });

  it('verifies the way a joining client does: payload base64url without padding between the dots, HS256 only, the full token as key (spec 001 § Bootstrap tokens)', async () => {
    const sig = await computeDetachedSignature(CONTENT, 'abcdef', 'abcdef.0123456789abcdef');
    const [header, empty, signature] = sig.split('.');
    expect(empty).to.equal('');
    expect(decodeProtectedHeader(sig)).to.deep.equal({ alg: 'HS256', kid: 'abcdef' });
    const full = `${header}.${Buffer.from(CONTENT).toString('base64url')}.${signature}`;
    const { payload } = await compactVerify(full, new TextEncoder().encode('abcdef.0123456789abcdef'), { algorithms: ['HS256'] });
    expect(new TextDecoder().decode(payload)).to.equal(CONTENT);
    const withSecretOnly = await compactVerify(full, new TextEncoder().encode('0123456789abcdef'), { algorithms: ['HS256'] }).then(
      () => 'verified',
      (err: Error) => err.name,
    );
    expect(withSecretOnly).to.equal('JWSSignatureVerificationFailed');
  });

  it('writes the cluster-info kubeconfig as kubeadm does (one unnamed cluster, nothing else)', () => {
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    expect(clusterInfoKubeconfig('https://10.0.0.1:6443', ca)).to.equal(
      [
        'apiVersion: v1',
        'clusters:',
        '- cluster:',
        `    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
        '    server: https://10.0.0.1:6443',
        '  name: ""',
        'contexts: null',
        'current-context: ""',
        'kind: Config',
        'preferences: {}',
        'users: null',
        '',
      ].join('\n'),
    );
  });
});
