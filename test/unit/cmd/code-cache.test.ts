import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { codeCachePath, runBundle } from '../../../lib/cmd/code-cache.js';

/** What the test bundles report back: one entry per run. */
interface Runs {
  runs: { filename: string; dirname: string; helper: string; strict: boolean }[];
}
const RUNS = Symbol.for('code-cache.test runs');
const runs = (): Runs['runs'] => ((globalThis as Record<symbol, Runs>)[RUNS] ??= { runs: [] }).runs;

describe('cmd/code-cache: the bundle run through a V8 code cache (issue #22 § Ready in under a second)', () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
    bundle = path.join(dir, 'bundle.cjs');
    writeFileSync(path.join(dir, 'helper.cjs'), 'module.exports = "from helper";');
    // A hashbang, strict CommonJS, a relative require and the wrapper's __filename / __dirname.
    writeFileSync(
      bundle,
      [
        '#!/usr/bin/env node',
        "'use strict';",
        `(globalThis[Symbol.for('code-cache.test runs')] ??= { runs: [] }).runs.push({`,
        "  filename: __filename, dirname: __dirname, helper: require('./helper.cjs'), strict: (function () { return this === undefined; })() });",
        'module.exports = 1;',
      ].join('\n'),
    );
    runs().length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the cache by the bundle bytes: same bytes, same file; other bytes, another', () => {
    const a = codeCachePath('/d/b.cjs', Buffer.from('one'));
    expect(a).to.match(/^\/d\/b\.cjs\.[0-9a-f]{16}\.codecache$/);
    expect(codeCachePath('/d/b.cjs', Buffer.from('one'))).to.equal(a);
    expect(codeCachePath('/d/b.cjs', Buffer.from('two'))).to.not.equal(a);
  });

  it('runs the bundle as CommonJS main code: hashbang skipped, strict, require relative to the bundle', () => {
    runBundle(bundle, 60_000);
    expect(runs()).to.deep.equal([{ filename: bundle, dirname: dir, helper: 'from helper', strict: true }]);
  });

  it('writes a cache after the delay when there was none, and the next run uses it', async () => {
    const cacheFile = codeCachePath(bundle, readFileSync(bundle));
    expect(runBundle(bundle, 0)).to.equal('none');
    expect(existsSync(cacheFile), 'written only after the delay').to.equal(false);
    await sleep(20);
    expect(existsSync(cacheFile)).to.equal(true);
    expect(runBundle(bundle, 0)).to.equal('used');
    expect(runs()).to.have.length(2);
  });

  it('a cache V8 rejects (not made from this source) still runs the bundle and is written again', async () => {
    const cacheFile = codeCachePath(bundle, readFileSync(bundle));
    writeFileSync(cacheFile, Buffer.alloc(256, 7));
    expect(runBundle(bundle, 0)).to.equal('rejected');
    expect(runs()).to.have.length(1);
    await sleep(20);
    expect(runBundle(bundle, 0)).to.equal('used');
  });

  it('a cache that cannot be written (the directory is gone) only means no cache', async () => {
    expect(runBundle(bundle, 0)).to.equal('none');
    rmSync(dir, { recursive: true, force: true });
    await sleep(20);
    expect(existsSync(dir)).to.equal(false);
  });
});
