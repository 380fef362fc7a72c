/**
 * `kubectl auth whoami` (kubectl 1.30, unmodified) and the official Python client against the real
 * server command (issue #10 item 8): both talk to the upstream alias of the authentication group,
 * which the server serves (`--upstream-aliases`, default on).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const run = promisify(execFile);
const WHOAMI_PY = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'python/whoami.py');
const PYTHON = '/usr/bin/python3';

describe('kubectl auth whoami and the Python client against the real server command (issue #10 item 8)', function () {
  this.timeout(120_000);
  let server: ServerProcess;

  before(async () => {
    findKubectl();
    server = await startServerProcess();
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
  });

  it('prints the admin user and its groups', async () => {
    const out = await kubectlOk(server.kubeconfig, ['auth', 'whoami']);
    expect(out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/))).to.deep.equal([
      ['ATTRIBUTE', 'VALUE'],
      ['Username', 'orch-admin'],
      ['Groups', '[system:masters system:authenticated]'],
    ]);
  });

  it('prints the SelfSubjectReview in the upstream spelling with -o json', async () => {
    const review = JSON.parse(await kubectlOk(server.kubeconfig, ['auth', 'whoami', '-o', 'json']));
    expect(review).to.include({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });
    expect(review.status).to.deep.equal({ userInfo: { username: 'orch-admin', groups: ['system:masters', 'system:authenticated'] } });
  });

  it('lists the create-only resource in api-resources, and a get of it fails with MethodNotAllowed', async () => {
    const names = await kubectlOk(server.kubeconfig, ['api-resources', '--api-group=authentication.k8s.io', '-o', 'name']);
    expect(names.trim().split('\n')).to.include('selfsubjectreviews.authentication.k8s.io');
    const get = await kubectl(server.kubeconfig, ['get', 'selfsubjectreviews.authentication.k8s.io']);
    expect(get.code).to.not.equal(0);
    expect(get.stderr).to.include('Error from server (MethodNotAllowed): the server does not allow this method on the requested resource');
  });

  it('answers the same review through the Python client', async () => {
    if (!existsSync(PYTHON)) throw new Error(`${PYTHON} not found: the e2e suite needs Debian's python3 with python3-kubernetes (hack/install-test-clients.sh)`);
    const { stdout } = await run(PYTHON, [WHOAMI_PY, server.kubeconfig], { timeout: 60_000 });
    const out = JSON.parse(stdout);
    expect(out.status).to.equal(201);
    expect(out.review).to.include({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });
    expect(out.review.status.userInfo).to.deep.equal({ username: 'orch-admin', groups: ['system:masters', 'system:authenticated'] });
  });
});
