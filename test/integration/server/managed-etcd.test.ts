import { expect } from 'chai';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isEtcdHealthy } from '../../../lib/server/etcd/health.js';
import { EtcdStartError, startManagedEtcd, type ManagedEtcd } from '../../../lib/server/etcd/managed-etcd.js';
import { etcdctlAt, processAlive, recordingEtcdLogger } from '../../framework/processes.js';
import { eventually } from '../../framework/storage-contract.js';

/** A logger that records what the supervisor says. */
describe('server/etcd/managed-etcd (integration: real etcd)', function () {
  this.timeout(60_000);
  let root: string;
  const running: ManagedEtcd[] = [];

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'managed-etcd-test-'));
  });
  after(async () => {
    await Promise.all(running.map((e) => e.stop()));
    await rm(root, { recursive: true, force: true });
  });

  /** Starts a managed etcd that after() stops if the test does not. */
  async function start(options: Parameters<typeof startManagedEtcd>[0]): Promise<ManagedEtcd> {
    const etcd = await startManagedEtcd({ logger: recordingEtcdLogger(), ...options });
    running.push(etcd);
    return etcd;
  }

  describe('lifecycle on one data directory', () => {
    const dataDir = (): string => path.join(root, 'data');

    it('starts healthy on a loopback port with data and log under the data dir', async () => {
      const etcd = await start({ dataDir: dataDir() });
      expect(etcd.endpoint).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await isEtcdHealthy(etcd.endpoint)).to.equal(true);
      expect(etcd.pid).to.be.a('number');
      expect(etcd.etcdDataDir).to.equal(path.join(dataDir(), 'etcd'));
      expect(etcd.logFile).to.equal(path.join(dataDir(), 'etcd.log'));
      expect((await stat(path.join(dataDir(), 'etcd', 'member'))).isDirectory()).to.equal(true);
      expect((await stat(etcd.etcdDataDir)).mode & 0o777).to.equal(0o700);
      expect(await readFile(etcd.logFile, 'utf8')).to.include('"msg":"serving client traffic insecurely');
      expect(await readFile(path.join(dataDir(), 'etcd.pid'), 'utf8')).to.equal(`${etcd.pid}\n${process.pid}\n`);
      expect(await etcdctlAt(etcd.endpoint, 'put', '/test/key', 'value-1')).to.equal('OK\n');
    });

    it('refuses a second etcd on the same data dir while the first runs', async () => {
      const first = running[0];
      try {
        await startManagedEtcd({ dataDir: dataDir(), logger: recordingEtcdLogger() });
        expect.fail('second start succeeded');
      } catch (err) {
        expect(err).to.be.instanceOf(EtcdStartError);
        expect((err as Error).message).to.include(`in use by etcd process ${first.pid}`);
      }
    });

    it('stop() terminates the process and the port stops answering', async () => {
      const etcd = running[0];
      const pid = etcd.pid!;
      await etcd.stop();
      expect(await processAlive(pid)).to.equal(false);
      expect(etcd.pid).to.equal(undefined);
      expect(await isEtcdHealthy(etcd.endpoint, 500)).to.equal(false);
      await stat(path.join(dataDir(), 'etcd.pid')).then(
        () => expect.fail('pid file left behind'),
        (err: NodeJS.ErrnoException) => expect(err.code).to.equal('ENOENT'),
      );
      await etcd.stop();
    });

    it('a new start on the same data dir keeps the data', async () => {
      const etcd = await start({ dataDir: dataDir() });
      expect(await etcdctlAt(etcd.endpoint, 'get', '/test/key', '--print-value-only')).to.equal('value-1\n');
    });

    it('restarts etcd by itself after a crash, on the same endpoint, and logs it', async () => {
      const logger = recordingEtcdLogger();
      const supervised = await start({ dataDir: path.join(root, 'crash'), logger });
      await etcdctlAt(supervised.endpoint, 'put', 'k', 'before-crash');
      const pid = supervised.pid!;
      process.kill(pid, 'SIGKILL');
      await eventually(() => supervised.pid !== undefined && supervised.pid !== pid, 10_000);
      await eventually(() => isEtcdHealthy(supervised.endpoint, 500), 20_000);
      expect(await etcdctlAt(supervised.endpoint, 'get', 'k', '--print-value-only')).to.equal('before-crash\n');
      const warning = logger.entries.find((e) => e.level === 'warn');
      expect(warning?.message).to.equal('etcd exited unexpectedly; restarting it');
      expect(warning?.fields).to.include({ etcdPid: pid, exit: 'signal SIGKILL' });
      await eventually(() => logger.entries.some((e) => e.level === 'info' && e.message === 'etcd started'), 5_000);
    });

    it('restart() stops and starts it again with the same endpoint and data (the crash test\'s etcd)', async () => {
      const etcd = running[running.length - 1];
      const { endpoint } = etcd;
      const pid = etcd.pid!;
      await etcd.restart();
      expect(etcd.endpoint).to.equal(endpoint);
      expect(etcd.pid).to.be.a('number').and.not.equal(pid);
      expect(await processAlive(pid)).to.equal(false);
      expect(await etcdctlAt(endpoint, 'get', 'k', '--print-value-only')).to.equal('before-crash\n');
    });
  });

  describe('failures', () => {
    it('a missing binary says to run hack/install-etcd.sh', async () => {
      for (const binary of ['etcd-that-is-not-installed', path.join(root, 'no', 'etcd')]) {
        try {
          await startManagedEtcd({ dataDir: path.join(root, 'missing'), binary });
          expect.fail('started without a binary');
        } catch (err) {
          expect(err).to.be.instanceOf(EtcdStartError);
          expect((err as Error).message).to.include(JSON.stringify(binary)).and.include('run hack/install-etcd.sh');
        }
      }
    });

    it('an etcd that exits during startup fails with its exit and the end of its log', async () => {
      const fake = path.join(root, 'failing-etcd');
      await writeFile(fake, '#!/bin/sh\necho "fatal: something is wrong with $2" >&2\nexit 3\n');
      await chmod(fake, 0o755);
      try {
        await startManagedEtcd({ dataDir: path.join(root, 'failing'), binary: fake });
        expect.fail('started a failing etcd');
      } catch (err) {
        expect(err).to.be.instanceOf(EtcdStartError);
        const message = (err as Error).message;
        expect(message).to.include('etcd exited during startup (code 3)');
        expect(message).to.include(`fatal: something is wrong with --data-dir=${path.join(root, 'failing', 'etcd')}`);
      }
    });

    it('an etcd that never becomes healthy times out with the end of its log', async () => {
      const fake = path.join(root, 'silent-etcd');
      await writeFile(fake, '#!/bin/sh\necho "waiting for something"\nexec sleep 30\n');
      await chmod(fake, 0o755);
      try {
        await startManagedEtcd({ dataDir: path.join(root, 'silent'), binary: fake, startTimeoutMs: 700, stopTimeoutMs: 500 });
        expect.fail('started an etcd that never answers');
      } catch (err) {
        expect(err).to.be.instanceOf(EtcdStartError);
        expect((err as Error).message).to.match(/did not report healthy at http:\/\/127\.0\.0\.1:\d+\/health within 700ms/);
        expect((err as Error).message).to.include('waiting for something');
      }
    });

    it('stop() sends SIGKILL when SIGTERM is ignored', async () => {
      const wrapper = path.join(root, 'stubborn-etcd');
      const childPidFile = path.join(root, 'stubborn-child.pid');
      await writeFile(wrapper, `#!/bin/sh\ntrap '' TERM\n/usr/bin/etcd "$@" &\necho $! > ${childPidFile}\nwait\n`);
      await chmod(wrapper, 0o755);
      const etcd = await start({ dataDir: path.join(root, 'stubborn'), binary: wrapper, stopTimeoutMs: 300 });
      const wrapperPid = etcd.pid!;
      const etcdPid = Number(await readFile(childPidFile, 'utf8'));
      try {
        const began = Date.now();
        await etcd.stop();
        expect(Date.now() - began).to.be.at.least(250);
        expect(await processAlive(wrapperPid)).to.equal(false);
      } finally {
        process.kill(etcdPid, 'SIGTERM');
        await eventually(async () => !(await processAlive(etcdPid)), 10_000);
      }
    });
  });
});
