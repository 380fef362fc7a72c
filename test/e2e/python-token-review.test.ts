import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../lib/apis/vendor.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const run = promisify(execFile);
const SCRIPT = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'python/token_review.py');
const PYTHON = '/usr/bin/python3';

describe('TokenReview with the official Python client against the real server command (issue #10 item 8)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  let dir: string;

  before(async () => {
    if (!existsSync(PYTHON)) throw new Error(`${PYTHON} not found: the e2e suite needs Debian's python3 with python3-kubernetes (hack/install-test-clients.sh)`);
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-e2e-tokenreview-'));
    const tokens = path.join(dir, 'tokens.csv');
    await writeFile(tokens, 'pytoken,pyuser,py-uid,"team-a,team-b"\n');
    server = await startServerProcess([`--token-auth-file=${tokens}`]);
  });
  after(async () => {
    if (server) await server.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('create_token_review answers as upstream for a valid, an unknown, a foreign-audience and an empty token', async () => {
    const { stdout } = await run(PYTHON, [SCRIPT, server.kubeconfig, 'pytoken'], { timeout: 60_000 });
    const out = JSON.parse(stdout);
    expect(out.valid).to.deep.equal({
      api_version: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      authenticated: true,
      user: { username: 'pyuser', uid: 'py-uid', groups: ['team-a', 'team-b', 'system:authenticated'], extra: null },
      audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER],
      error: null,
    });
    expect(out.unknown).to.deep.include({ authenticated: null, error: 'invalid bearer token', audiences: null });
    expect(out.foreign_audience).to.deep.include({ authenticated: null, error: 'invalid bearer token' });
    expect(out.empty).to.deep.equal({ status: 400, reason: 'BadRequest', message: 'token is required for TokenReview in authentication' });
  });
});
