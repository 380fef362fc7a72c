import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigFileWatcher } from '../../../lib/client/config-file-watcher.js';
import { covers } from '../../conformance/covers.js';

/**
 * The reload schedule of the configuration files (spec 001 § Limits: the authorization
 * configuration file is read again every 60 seconds, and on change).
 */
describe('client/config-file-watcher: reload schedule', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-config-watch-'));
    file = path.join(dir, 'config.yaml');
    await writeFile(file, 'a');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`polls every 60 seconds by default${covers('001 § Limits › Authorization file reload')}`, () => {
    const intervals: number[] = [];
    const real = globalThis.setInterval;
    globalThis.setInterval = ((fn: () => void, ms?: number) => {
      intervals.push(ms ?? 0);
      return real(fn, ms);
    }) as typeof setInterval;
    const w = new ConfigFileWatcher({ path: file, initialData: 'a', onContent: async () => true, onReadError: () => undefined });
    try {
      w.start();
    } finally {
      globalThis.setInterval = real;
      w.stop();
    }
    expect(intervals).to.deep.equal([60_000]);
  });

  it(`hands changed content to the handler on a file event, long before the poll${covers('001 § Limits › Authorization file reload')}`, async () => {
    const seen: string[] = [];
    let resolveSeen!: () => void;
    const changed = new Promise<void>((r) => (resolveSeen = r));
    const w = new ConfigFileWatcher({
      path: file,
      initialData: 'a',
      onContent: async (data) => {
        seen.push(data);
        resolveSeen();
        return true;
      },
      onReadError: () => undefined,
    });
    w.start();
    try {
      await writeFile(file, 'b');
      await changed;
      expect(seen).to.deep.equal(['b']);
    } finally {
      w.stop();
    }
  });
});
