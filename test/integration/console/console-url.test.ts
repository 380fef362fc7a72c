/**
 * The console URL of `make run` (issue #22 § Login): the real command in its managed local mode
 * (its own etcd, the generated PKI) prints one line `Console: https://…/console/#token=<token>` to
 * stdout, never to the log; the token is a one-hour service-account token that works against the
 * API as an admin; `--console=false` prints none.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONSOLE_ADMIN_SERVICE_ACCOUNT, SYSTEM_NAMESPACE } from '../../../lib/apis/vendor.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';

/** Waits for the `Console:` line on the process's stdout. */
async function consoleLine(s: ServerProcess, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = s.stdout().split('\n').find((l) => l.startsWith('Console: '));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no console line; stdout:\n${s.stdout()}\nstderr:\n${s.log()}`);
    await sleep(100);
  }
}

/** The claims of a JWT (not verified: the server checks it when it is used). */
function claims(jwt: string): { exp: number; iat: number; sub: string } {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
}

describe('the console URL of the managed local mode (issue #22 § Login: make run)', function () {
  this.timeout(120_000);
  const servers: ServerProcess[] = [];
  let dataDir = '';
  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orch-console-url-'));
  });
  after(async () => {
    for (const s of servers) await s.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints one line with a one-hour admin service-account token, to stdout only', async () => {
    const s = await startServerProcess([], dataDir);
    servers.push(s);
    const line = await consoleLine(s);
    const m = /^Console: (https:\/\/127\.0\.0\.1:(\d+))\/console\/#token=([A-Za-z0-9_.-]+)$/.exec(line);
    expect(m, line).to.not.equal(null);
    expect(m![1]).to.equal(s.url);
    const token = m![3]!;
    expect(s.stdout().split('\n').filter((l) => l.startsWith('Console: '))).to.have.length(1);
    expect(s.log()).not.to.include(token);

    const c = claims(token);
    expect(c.sub).to.equal(`system:serviceaccount:${SYSTEM_NAMESPACE}:${CONSOLE_ADMIN_SERVICE_ACCOUNT}`);
    expect(c.exp - c.iat).to.equal(3600);
    expect(c.exp - Date.now() / 1000).to.be.within(3500, 3601);

    const asConsole = s.admin.as({ token });
    expect((await asConsole.get('/api/v1/namespaces')).status).to.equal(200);
    const created = await asConsole.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'from-console-token' } });
    expect(created.status).to.equal(201);
  });

  it('keeps the service account and its binding across restarts (create or keep), with a fresh token', async () => {
    const s = servers[0]!;
    const first = (await consoleLine(s)).split('#token=')[1];
    await s.stop();
    servers.length = 0;
    const again = await startServerProcess([], dataDir);
    servers.push(again);
    const second = (await consoleLine(again)).split('#token=')[1]!;
    expect(second).not.to.equal(first);
    expect((await again.admin.as({ token: second }).get('/api/v1/namespaces')).status).to.equal(200);
  });

  it('--console=false prints no console URL', async () => {
    const s = await startServerProcess(['--console=false']);
    servers.push(s);
    // The line comes within ~100 ms of readiness when the console is on; give it far longer.
    await sleep(2000);
    expect(s.stdout()).not.to.include('Console:');
    const res = await s.admin.get('/console/');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal((await s.admin.get('/no-such-path/')).body);
  });
});
