import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { etcdArgs } from '../../../lib/server/etcd/etcd-process.js';
import { findExecutable } from '../../../lib/server/etcd/executable.js';
import { freeLoopbackPorts } from '../../../lib/server/etcd/free-port.js';
import { isEtcdHealthy } from '../../../lib/server/etcd/health.js';
import { startManagedEtcd, type ManagedEtcd } from '../../../lib/server/etcd/managed-etcd.js';
import { etcdHolder } from '../../../lib/server/etcd/pid-file.js';
import { etcdctlAt, processAlive, recordingEtcdLogger } from '../../framework/processes.js';
import { eventually } from '../../framework/storage-contract.js';

/**
 * Starts etcd on `dataDir/etcd` as an orphan, the way a SIGKILLed server leaves its managed etcd
 * when no parent-death signal is armed: a shell starts it in the background and exits. Returns
 * etcd's pid, the dead shell's pid (the "owner") and the endpoint.
 */
async function orphanEtcd(dataDir: string): Promise<{ pid: number; ownerPid: number; endpoint: string }> {
  const etcdDataDir = path.join(dataDir, 'etcd');
  await mkdir(etcdDataDir, { recursive: true, mode: 0o700 });
  const [clientPort, peerPort] = await freeLoopbackPorts(2);
  const binary = (await findExecutable('etcd'))!;
  const args = etcdArgs({ binary, dataDir: etcdDataDir, clientPort, peerPort, logFile: path.join(dataDir, 'etcd.log') });
  const shell = spawn('sh', ['-c', `"$0" "$@" >>'${path.join(dataDir, 'etcd.log')}' 2>&1 & echo $!`, binary, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  shell.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((resolve) => shell.once('exit', resolve));
  const pid = Number(out.trim());
  const endpoint = `http://127.0.0.1:${clientPort}`;
  await eventually(() => isEtcdHealthy(endpoint, 500), 20_000);
  return { pid, ownerPid: shell.pid!, endpoint };
}

describe('server/etcd/managed-etcd: a stale managed etcd (issue #19 item 4; integration: real etcd)', function () {
  this.timeout(60_000);
  let root: string;
  const running: ManagedEtcd[] = [];
  const orphans: number[] = [];

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'managed-etcd-stale-'));
  });
  after(async () => {
    await Promise.all(running.map((e) => e.stop()));
    for (const pid of orphans) if (await processAlive(pid)) process.kill(pid, 'SIGKILL');
    await rm(root, { recursive: true, force: true });
  });

  it('an etcd orphaned by its dead server is stopped, logged, and its data taken over', async () => {
    const dataDir = path.join(root, 'orphan');
    const orphan = await orphanEtcd(dataDir);
    orphans.push(orphan.pid);
    await etcdctlAt(orphan.endpoint, 'put', '/drill/key', 'kept');
    const pidFile = path.join(dataDir, 'etcd.pid');
    await writeFile(pidFile, `${orphan.pid}\n${orphan.ownerPid}\n`);
    expect(await etcdHolder(pidFile, path.join(dataDir, 'etcd'))).to.deep.equal({ pid: orphan.pid, ownerPid: orphan.ownerPid, ownerAlive: false });

    const logger = recordingEtcdLogger();
    const etcd = await startManagedEtcd({ dataDir, logger, stopTimeoutMs: 5_000 });
    running.push(etcd);
    expect(await processAlive(orphan.pid)).to.equal(false);
    const warn = logger.entries.find((e) => e.level === 'warn');
    expect(warn?.message).to.equal('found a stale managed etcd whose server is gone; stopping it to take over its data directory');
    expect(warn?.fields).to.include({ etcdPid: orphan.pid, ownerPid: orphan.ownerPid });
    const stopped = logger.entries.find((e) => e.message === 'stopped the stale managed etcd; taking over its data directory');
    expect(stopped?.fields).to.include({ etcdPid: orphan.pid, signal: 'SIGTERM' });
    expect(await etcdctlAt(etcd.endpoint, 'get', '/drill/key', '--print-value-only')).to.equal('kept\n');
    expect(await readFile(pidFile, 'utf8')).to.equal(`${etcd.pid}\n${process.pid}\n`);
  });

  it('never touches an etcd whose owning server lives (this process owns it)', async () => {
    const dataDir = path.join(root, 'orphan');
    const first = running[0];
    const logger = recordingEtcdLogger();
    try {
      await startManagedEtcd({ dataDir, logger });
      expect.fail('second start succeeded');
    } catch (err) {
      expect((err as Error).message).to.include(`in use by etcd process ${first.pid}`);
    }
    expect(await processAlive(first.pid!)).to.equal(true);
    expect(logger.entries).to.deep.equal([]);
  });

  it('the managed etcd dies with a SIGKILLed owner (parent-death signal), and the next start removes the stale pid file', async function () {
    if (process.platform !== 'linux' || (await findExecutable('setpriv')) === undefined) this.skip();
    const dataDir = path.join(root, 'pdeath');
    const script = `import { startManagedEtcd } from ${JSON.stringify(path.resolve('lib/server/etcd/managed-etcd.ts'))};
const etcd = await startManagedEtcd({ dataDir: ${JSON.stringify(dataDir)} });
process.stdout.write(String(etcd.pid) + '\\n');
setInterval(() => undefined, 1000);`;
    const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      let out = '';
      owner.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await eventually(() => out.includes('\n'), 30_000);
      const etcdPid = Number(out.trim());
      orphans.push(etcdPid);
      expect(await processAlive(etcdPid)).to.equal(true);
      owner.kill('SIGKILL');
      await eventually(async () => !(await processAlive(etcdPid)), 15_000);
      const logger = recordingEtcdLogger();
      const etcd = await startManagedEtcd({ dataDir, logger });
      running.push(etcd);
      const info = logger.entries.find((e) => e.message === 'the managed etcd of a previous server has already stopped; removing its pid file');
      expect(info?.fields).to.include({ etcdPid, ownerPid: owner.pid });
    } finally {
      if (owner.exitCode === null && owner.signalCode === null) owner.kill('SIGKILL');
    }
  });
});

