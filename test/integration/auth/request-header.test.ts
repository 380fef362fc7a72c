import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { type ClientIdentity, type ProxyPKI, createProxyPKI, proxiedRequest } from '../../framework/proxy-pki.js';
import { usePKI, useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const AUTHN = vendorGroup('authentication');

describe('authenticating proxy in the server (spec 001 § Authenticating proxy flags)', () => {
  const caFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'orch-proxy-ca-')), 'front-proxy-ca.crt');
  let proxy: ProxyPKI;
  let ca: string;
  let admin: ClientIdentity;
  // Runs before the server's own `before`: the CA file must exist when it starts.
  before(async function () {
    this.timeout(60_000);
    const { pki } = await usePKI();
    ca = pki.caCertPem;
    admin = { cert: pki.adminCertPem, key: pki.adminKeyPem };
    proxy = await createProxyPKI(['front-proxy', 'stranger']);
    await writeFile(caFile, proxy.caPem);
  });
  after(async () => {
    await proxy?.remove();
    await rm(path.dirname(caFile), { recursive: true, force: true });
  });
  const server = useTestServer({
    tokens: 'bobtoken,bob,uid-b,devs',
    authentication: {
      requestHeaderClientCaFile: caFile,
      requestHeaderUsernameHeaders: ['X-Remote-User'],
      requestHeaderGroupHeaders: ['x-remote-group'],
      requestHeaderExtraHeadersPrefix: ['X-Remote-Extra-'],
      requestHeaderAllowedNames: ['front-proxy'],
    },
  });

  /** The SelfSubjectReview of a request made with `identity` and `headers`. */
  const whoami = (identity: ClientIdentity | undefined, headers: OutgoingHttpHeaders) =>
    proxiedRequest('POST', `${server().url}/apis/${AUTHN}/v1/selfsubjectreviews`, {
      ca,
      ...(identity && { identity }),
      headers,
      body: { apiVersion: `${AUTHN}/v1`, kind: 'SelfSubjectReview' },
    });
  const list = (identity: ClientIdentity | undefined, headers: OutgoingHttpHeaders) =>
    proxiedRequest('GET', `${server().url}/api/v1/namespaces`, { ca, ...(identity && { identity }), headers });

  it(`a proxy certificate: the user, groups and extras of the headers (keys lower-cased and percent-decoded)${covers('001 § Methods › Authenticating proxy', '001 § Authenticating proxy flags › --requestheader-username-headers (required)', '001 § Authenticating proxy flags › --requestheader-group-headers', '001 § Authenticating proxy flags › --requestheader-extra-headers-prefix')}`, async () => {
    const res = await whoami(proxy.identities['front-proxy'], {
      'X-Remote-User': 'alice',
      'X-Remote-Group': ['devs', 'ops,qa'],
      'X-Remote-Extra-Scopes': ['read', 'write'],
      'X-Remote-Extra-Example.org%2FTeam': 'blue',
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status.userInfo).to.deep.equal({
      username: 'alice',
      groups: ['devs', 'ops,qa', 'system:authenticated'],
      extra: { scopes: ['read', 'write'], 'example.org/team': ['blue'] },
    });
  });

  it(`header names are case-insensitive${covers('001 § Authenticating proxy flags › --requestheader-username-headers (required)')}`, async () => {
    const res = await whoami(proxy.identities['front-proxy'], { 'x-REMOTE-user': 'dora', 'X-REMOTE-GROUP': 'g', 'x-remote-extra-k': 'v' });
    expect(res.body.status.userInfo).to.deep.equal({ username: 'dora', groups: ['g', 'system:authenticated'], extra: { k: ['v'] } });
  });

  it('the proxied user is authorized as itself', async () => {
    expect((await list(proxy.identities['front-proxy'], { 'X-Remote-User': 'root', 'X-Remote-Group': 'system:masters' })).status).to.equal(200);
    const res = await list(proxy.identities['front-proxy'], { 'X-Remote-User': 'eve' });
    expect(res.status).to.equal(403);
    expect(res.body.message).to.include('User "eve" cannot list resource "namespaces"');
  });

  it(`a client-CA certificate with the headers: the certificate is the user, the headers are ignored${covers('001 § Authenticating proxy flags › --requestheader-client-ca-file (required)')}`, async () => {
    const res = await list(admin, { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'nobody' });
    expect(res.status).to.equal(200);
    const review = await whoami(admin, { 'X-Remote-User': 'mallory', 'X-Remote-Extra-Evil': 'yes' });
    expect(review.body.status.userInfo.username).to.not.equal('mallory');
    expect(review.body.status.userInfo.groups).to.include('system:masters');
    expect(review.body.status.userInfo).to.not.have.property('extra');
  });

  it(`no client certificate: the headers are ignored (anonymous)${covers('001 § Authenticating proxy flags › --requestheader-client-ca-file (required)')}`, async () => {
    const res = await list(undefined, { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' });
    expect(res.status).to.equal(403);
    expect(res.body.message).to.include('User "system:anonymous"');
  });

  it('a bearer token with the headers and no certificate: the token is the user', async () => {
    const res = await whoami(undefined, { Authorization: 'Bearer bobtoken', 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' });
    expect(res.body.status.userInfo).to.deep.equal({ username: 'bob', uid: 'uid-b', groups: ['devs', 'system:authenticated'] });
  });

  it(`a proxy certificate whose CN is not allowed: 401${covers('001 § Authenticating proxy flags › --requestheader-allowed-names')}`, async () => {
    const res = await list(proxy.identities.stranger, { 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters' });
    expect(res.status).to.equal(401);
    expect(res.body).to.include({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('a proxy certificate without a username header is no user certificate: 401', async () => {
    const res = await list(proxy.identities['front-proxy'], { 'X-Remote-Group': 'system:masters' });
    expect(res.status).to.equal(401);
  });
});
