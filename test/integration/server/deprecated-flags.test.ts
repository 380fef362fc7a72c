/**
 * Deprecated flags on the real command (spec 001 § Deprecation rules, rule 5): a deprecated flag
 * given at start prints pflag's warning on stderr and the server serves with it applied;
 * `--help` on stdout marks the flag.
 */
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { useEtcd } from '../../framework/etcd.js';
import { commandArgv, startServerProcess } from '../../framework/server-process.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

describe('deprecated flags on the command (spec 001 § Deprecation rules 5)', function () {
  this.timeout(90_000);

  it('warns on stderr when --enable-logs-handler is given, and serves /logs/ as it asks', async () => {
    const { endpoint } = await useEtcd();
    const server = await startServerProcess([`--etcd-servers=${endpoint}`, `--etcd-prefix=/${randomUUID()}`, '--enable-logs-handler']);
    try {
      expect(server.log().split('\n')).to.include('Flag --enable-logs-handler has been deprecated, This flag will be removed in v1.19');
      expect((await server.admin.get('/logs/')).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });

  it('--help marks the flag "(DEPRECATED: …)"', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...commandArgv(), '--help'], { cwd: ROOT });
    expect(stderr).to.equal('');
    const line = stdout.split('\n').find((l) => l.includes('--enable-logs-handler'));
    expect(line).to.match(/\(DEPRECATED: This flag will be removed in v1\.19\)$/);
  });
});
